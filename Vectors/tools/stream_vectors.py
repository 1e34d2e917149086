#!/usr/bin/env python3
"""Writes Vectors/chacha20/*.vec and Vectors/salsa20/*.vec.

ChaCha20 (RFC 8439): the inputs of §2.3.2, §2.4.2, Appendix A.1 (block function, test vectors
#1-#5) and Appendix A.2 (encryption, #1-#3) are typed from the RFC. Outputs are computed with
pycryptodome's ChaCha20 and checked against the RFC: A.2 ciphertexts must equal the copy of RFC
7539/8439 A.2 in cryptography-vectors (ciphers/ChaCha20/rfc7539.txt), and the other outputs must
begin with the bytes printed in the RFC (asserted below).

Salsa20 (eSTREAM, 256-bit key, 64-bit IV, 20 rounds): records laid out like eSTREAM's
"verified.test-vectors" (salsa20/full/verified.test-vectors) sets 1-6 for 256-bit keys: stream
bytes [0..63], [192..255], [256..319] and [448..511] for each key/IV. Computed with pycryptodome's
Salsa20; set 1 vector 0 is asserted against the value published by eSTREAM.

Run from the repository root:  python3 Vectors/tools/stream_vectors.py
"""
import os
import cryptography_vectors
import Crypto
from Crypto.Cipher import ChaCha20, Salsa20

HERE = os.path.dirname(__file__)


def chacha_stream(key, nonce, counter, length):
    c = ChaCha20.new(key=key, nonce=nonce)
    c.seek(64 * counter)
    return c.encrypt(bytes(length))


def chacha_encrypt(key, nonce, counter, plaintext):
    c = ChaCha20.new(key=key, nonce=nonce)
    c.seek(64 * counter)
    return c.encrypt(plaintext)


def write(path, header, records):
    lines = ["# " + h for h in header] + [""]
    for comment, fields in records:
        lines.append("# " + comment)
        for k, v in fields:
            lines.append(f"{k} = {v}")
        lines.append("")
    open(os.path.join(HERE, "..", path), "w").write("\n".join(lines))


def chacha():
    z32 = bytes(32)
    z12 = bytes(12)
    seq_key = bytes(range(32))
    blocks = [
        ("RFC 8439 §2.3.2", seq_key, bytes.fromhex("000000090000004a00000000"), 1, "10f1e7e4d13b5915500fdd1fa32071c4"),
        ("RFC 8439 A.1 test vector #1", z32, z12, 0, "76b8e0ada0f13d90405d6ae55386bd28"),
        ("RFC 8439 A.1 test vector #2", z32, z12, 1, "9f07e7be5551387a98ba977c732d080d"),
        ("RFC 8439 A.1 test vector #3", bytes(31) + b"\x01", z12, 1, "3aeb5224ecf849929b9d828db1ced4dd"),
        ("RFC 8439 A.1 test vector #4", b"\x00\xff" + bytes(30), z12, 2, "72d54dfbf12ec44b362692df94137f32"),
        ("RFC 8439 A.1 test vector #5", z32, bytes(11) + b"\x02", 0, "c2c64d378cd536374ae204b9ef933fcd"),
    ]
    records = []
    for name, key, nonce, counter, prefix in blocks:
        out = chacha_stream(key, nonce, counter, 64)
        assert out.hex().startswith(prefix), name
        records.append((name, [("key", key.hex()), ("nonce", nonce.hex()), ("counter", counter), ("keystream", out.hex())]))
    write("chacha20/rfc8439-block.vec", [
        "ChaCha20 block function (RFC 8439 §2.3.2 and Appendix A.1): 64 bytes of keystream for one block.",
        "Inputs typed from RFC 8439; outputs computed by Vectors/tools/stream_vectors.py with pycryptodome",
        f"{Crypto.__version__} and asserted to begin with the bytes printed in the RFC.",
    ], records)

    sunscreen = (b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, "
                 b"sunscreen would be it.")
    enc = [("RFC 8439 §2.4.2", seq_key, bytes.fromhex("000000000000004a00000000"), 1, sunscreen,
            "6e2e359a2568f98041ba0728dd0d6981")]
    cv = os.path.join(os.path.dirname(cryptography_vectors.__file__), "ciphers", "ChaCha20", "rfc7539.txt")
    rec = {}
    a2 = []
    for line in list(open(cv)) + [""]:
        line = line.strip()
        if "=" in line:
            k, v = [p.strip() for p in line.split("=", 1)]
            rec[k] = v
        elif not line and rec:
            a2.append(rec)
            rec = {}
    for i, r in enumerate(a2):
        # cryptography-vectors uses a 64-bit counter/64-bit nonce split; the RFC nonce is 4 zero bytes + it.
        nonce = bytes(4) + bytes.fromhex(r["NONCE"])
        enc.append((f"RFC 8439 A.2 test vector #{i + 1}", bytes.fromhex(r["KEY"]), nonce,
                    int(r["INITIAL_BLOCK_COUNTER"]), bytes.fromhex(r["PLAINTEXT"]), r["CIPHERTEXT"]))
    records = []
    for name, key, nonce, counter, pt, expected in enc:
        ct = chacha_encrypt(key, nonce, counter, pt)
        assert ct.hex().startswith(expected), name
        records.append((name, [("key", key.hex()), ("nonce", nonce.hex()), ("counter", counter),
                               ("plaintext", pt.hex()), ("ciphertext", ct.hex())]))
    write("chacha20/rfc8439-encrypt.vec", [
        "ChaCha20 encryption (RFC 8439 §2.4.2 and Appendix A.2).",
        "Inputs typed from RFC 8439 (§2.4.2) and read from cryptography-vectors "
        f"{cryptography_vectors.__version__} ciphers/ChaCha20/rfc7539.txt (A.2);",
        f"ciphertexts computed by Vectors/tools/stream_vectors.py with pycryptodome {Crypto.__version__}, asserted equal",
        "to the A.2 ciphertexts and to the first bytes printed in §2.4.2.",
    ], records)


def salsa():
    def segments(key, iv):
        s = Salsa20.new(key=key, nonce=iv).encrypt(bytes(512))
        return [("stream0_63", s[0:64].hex()), ("stream192_255", s[192:256].hex()),
                ("stream256_319", s[256:320].hex()), ("stream448_511", s[448:512].hex())]

    records = []
    for v in range(0, 256, 9):  # Set 1: one key bit set (MSB first), IV zero.
        key = bytearray(32)
        key[v // 8] = 0x80 >> (v % 8)
        records.append((f"Set 1, vector# {v}", [("key", bytes(key).hex()), ("iv", bytes(8).hex())] + segments(bytes(key), bytes(8))))
    for v in range(0, 64, 9):  # Set 2: every key byte = v, IV zero.
        key = bytes([v]) * 32
        records.append((f"Set 2, vector# {v}", [("key", key.hex()), ("iv", bytes(8).hex())] + segments(key, bytes(8))))
    for v in range(0, 64, 9):  # Set 3: key bytes v, v+1, ..., IV zero.
        key = bytes((v + i) & 0xff for i in range(32))
        records.append((f"Set 3, vector# {v}", [("key", key.hex()), ("iv", bytes(8).hex())] + segments(key, bytes(8))))
    for v in range(0, 64, 9):  # Set 6-like: key zero, IV with one bit set.
        iv = bytearray(8)
        iv[v // 8] = 0x80 >> (v % 8)
        records.append((f"Set 6-style (IV bit {v})", [("key", bytes(32).hex()), ("iv", bytes(iv).hex())] + segments(bytes(32), bytes(iv))))
    # eSTREAM salsa20 verified.test-vectors, 256-bit key, Set 1, vector# 0, stream[0..63].
    assert records[0][1][2][1].startswith("e3be8fdd8beca2e3ea8ef9475b29a6e7"), "eSTREAM set 1 vector 0"
    write("salsa20/estream-256.vec", [
        "Salsa20/20 with 256-bit keys, in the layout of eSTREAM's verified.test-vectors (sets 1-3 and an IV",
        "set): keystream bytes [0..63], [192..255], [256..319], [448..511] for the given key and 64-bit IV.",
        f"Computed by Vectors/tools/stream_vectors.py with pycryptodome {Crypto.__version__} (an independent",
        "implementation); set 1 vector 0 is asserted to match the eSTREAM published value e3be8fdd8beca2e3...",
    ], records)


if __name__ == "__main__":
    chacha()
    salsa()
