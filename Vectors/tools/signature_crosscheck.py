#!/usr/bin/env python3
"""Cross-checks our ECDSA P-256 and Ed25519 with PyPI `cryptography` (OpenSSL), both ways.

1. `generate`: writes Vectors/crosscheck/cryptography-ecdsa-p256.vec and cryptography-ed25519.vec, 1,000 signatures
   each made by `cryptography` (ECDSA with random nonces, DER signatures) for 10 fixed keys (from SHA-256 of a label)
   and messages of 0-63 bytes. KDBXCryptoTests/PublicKeyCrossCheckTests must verify every one.
2. `verify KDBX-BENCH`: runs `KDBX-BENCH --emit-signatures 1000` (signatures and PEM keys made by our library) and
   checks with `cryptography` that every signature verifies and every PEM private key loads
   (`load_pem_private_key`) with the public key we printed. Exits non-zero on any failure.

Usage: pip install cryptography
       python3 Vectors/tools/signature_crosscheck.py generate
       python3 Vectors/tools/signature_crosscheck.py verify .build/release/kdbx-bench
"""
import hashlib
import importlib.metadata
import os
import subprocess
import sys

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRYPTO = importlib.metadata.version("cryptography")


def message(index):
    return hashlib.sha512(b"crosscheck %d" % index).digest()[: index % 64]


def generate():
    out = os.path.join(ROOT, "crosscheck")
    os.makedirs(out, exist_ok=True)
    header = ["# SOURCE: made by PyPI cryptography %s (OpenSSL) with Vectors/tools/signature_crosscheck.py generate:" % CRYPTO,
              "# 1,000 signatures, 10 fixed keys (SHA-256 of a label), messages of 0-63 bytes. Our verify must accept all.",
              "# A record without pk uses the pk of the record before it (a new key every 100 records)."]
    lines = header + ["# Fields: pk (SEC 1 uncompressed), msg, sig (DER, random nonce).", ""]
    for index in range(1000):
        if index % 100 == 0:
            d = int.from_bytes(hashlib.sha256(b"crosscheck p256 %d" % (index // 100)).digest(), "big")
            key = ec.derive_private_key(d, ec.SECP256R1())
            pk = key.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint).hex()
        sig = key.sign(message(index), ec.ECDSA(hashes.SHA256()))
        lines += (["pk = " + pk] if index % 100 == 0 else []) + ["msg = " + message(index).hex(), "sig = " + sig.hex(), ""]
    write(os.path.join(out, "cryptography-ecdsa-p256.vec"), lines)
    lines = header + ["# Fields: pk, msg, sig (R || S).", ""]
    for index in range(1000):
        if index % 100 == 0:
            key = ed25519.Ed25519PrivateKey.from_private_bytes(
                hashlib.sha256(b"crosscheck ed25519 %d" % (index // 100)).digest())
            pk = key.public_key().public_bytes_raw().hex()
        lines += (["pk = " + pk] if index % 100 == 0 else []) + ["msg = " + message(index).hex(),
                                                                 "sig = " + key.sign(message(index)).hex(), ""]
    write(os.path.join(out, "cryptography-ed25519.vec"), lines)


def write(path, lines):
    with open(path, "w") as handle:
        handle.write("\n".join(lines).rstrip("\n") + "\n")
    print(path, sum(1 for line in lines if line.startswith("sig =")), "signatures")


def verify(binary):
    output = subprocess.run([binary, "--emit-signatures", "1000"], check=True, capture_output=True, text=True).stdout
    counts = {"ecdsa-p256": 0, "ed25519": 0, "pem": 0}
    for line in output.splitlines():
        kind, *fields = line.split(" ")
        if kind == "ecdsa-p256":
            spki, msg, sig = (bytes.fromhex(f) for f in fields)
            serialization.load_der_public_key(spki).verify(sig, msg, ec.ECDSA(hashes.SHA256()))
        elif kind == "ed25519":
            pk, msg, sig = (bytes.fromhex(f) for f in fields)
            ed25519.Ed25519PublicKey.from_public_bytes(pk).verify(sig, msg)
        elif kind == "pem":
            pem, public = bytes.fromhex(fields[0]), bytes.fromhex(fields[1])
            key = serialization.load_pem_private_key(pem, password=None)
            if isinstance(key, ec.EllipticCurvePrivateKey):
                got = key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
            else:
                got = key.public_key().public_bytes_raw()
            assert got == public, "PEM key does not match its public key"
        else:
            raise SystemExit("unexpected line: " + line[:40])
        counts[kind] += 1
    print("cryptography %s verified %d ECDSA P-256 and %d Ed25519 signatures of ours and loaded %d PEM keys" %
          (CRYPTO, counts["ecdsa-p256"], counts["ed25519"], counts["pem"]))
    if counts["ecdsa-p256"] < 1000 or counts["ed25519"] < 1000:
        raise SystemExit("too few signatures")


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "generate":
        generate()
    elif len(sys.argv) >= 3 and sys.argv[1] == "verify":
        verify(sys.argv[2])
    else:
        raise SystemExit(__doc__)
