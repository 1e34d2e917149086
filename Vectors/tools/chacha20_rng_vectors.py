#!/usr/bin/env python3
"""Writes Vectors/chacha20/csprng-pycryptodome.vec: outputs of ChaCha20RandomNumberGenerator computed with
pycryptodome's ChaCha20 (RFC 8439, 12-byte nonce of zeros, counter 0) and the construction documented in
Sources/KDBXCrypto/StreamCiphers/ChaCha20RandomNumberGenerator.swift: each refill makes 512 bytes of key stream,
bytes 0..<32 become the next key, bytes 32..<512 are the next 60 little-endian 64-bit outputs."""
from Crypto.Cipher import ChaCha20
import Crypto, hashlib

def outputs(seed, count):
    key, out = seed, []
    while len(out) < count:
        stream = ChaCha20.new(key=key, nonce=bytes(12)).encrypt(bytes(512))
        key = stream[:32]
        out += [int.from_bytes(stream[i:i + 8], 'little') for i in range(32, 512, 8)]
    return out[:count]

lines = ["# ChaCha20RandomNumberGenerator outputs (fast key erasure, 512-byte refills).",
         f"# SOURCE: pycryptodome {Crypto.__version__} ChaCha20, via Vectors/tools/chacha20_rng_vectors.py.",
         "# seed: the 32-byte key; outputs: the first 130 outputs (three refills) as 8-byte little-endian words.", ""]
for label in ["zero", "counting", "sha256-abc"]:
    seed = {"zero": bytes(32), "counting": bytes(range(32)), "sha256-abc": hashlib.sha256(b"abc").digest()}[label]
    words = outputs(seed, 130)
    lines += [f'name = "{label}"', f"seed = {seed.hex()}",
              "outputs = " + "".join(w.to_bytes(8, 'little').hex() for w in words), ""]
open("Vectors/chacha20/csprng-pycryptodome.vec", "w").write("\n".join(lines))
