#!/usr/bin/env python3
"""Writes the BLAKE2b vector files in Vectors/blake2b/.

Sources:
  - cryptography-vectors (PyPI, same version as `cryptography`), hashes/blake2/blake2b.txt: converted as is.
  - The official BLAKE2 keyed KAT (blake2b-kat.txt in the BLAKE2 reference package): key = 00 01 .. 3f,
    input = 00 01 .. (n-1) for n = 0..255, 64-byte digest. Regenerated with Python's hashlib.blake2b,
    which wraps the BLAKE2 reference implementation.
  - Extra records for digest lengths 1..64 and key lengths 0..64 around block boundaries, from hashlib.blake2b.

Usage: python3 Vectors/tools/blake2b_vectors.py   (run from the repository root)
"""
import hashlib
import os
import platform
import sys

import cryptography_vectors

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blake2b")
PY = f"Python {platform.python_version()} hashlib.blake2b"


def write(name, header, records):
    with open(os.path.join(ROOT, name), "w") as f:
        for line in header:
            f.write(f"# {line}\n".replace("# \n", "#\n"))
        for record in records:
            f.write("\n")
            for key, value in record:
                f.write(f"{key} = {value}\n")


def cryptography_file():
    path = os.path.join(os.path.dirname(cryptography_vectors.__file__), "hashes", "blake2", "blake2b.txt")
    records, current = [], {}
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        key, _, value = line.partition(" = ")
        current[key] = value
        if key == "MD":
            length = int(current["Len"]) // 8
            msg = current["Msg"][: 2 * length]
            records.append([("msg", msg if msg else '""'), ("md", value.lower())])
            current = {}
    write(
        "cryptography-vectors-blake2b.vec",
        [
            "BLAKE2b-512, unkeyed. SOURCE: cryptography-vectors "
            + cryptography_vectors.__version__
            + " (PyPI), file hashes/blake2/blake2b.txt,",
            "converted by Vectors/tools/blake2b_vectors.py (Len in bits; an empty message is written \"\").",
        ],
        records,
    )


def keyed_kat():
    key = bytes(range(64))
    records = []
    for n in range(256):
        msg = bytes(range(n))
        md = hashlib.blake2b(msg, key=key).hexdigest()
        records.append([("in", msg.hex() if n else '""'), ("key", key.hex()), ("md", md)])
    write(
        "blake2-kat-keyed.vec",
        [
            "BLAKE2b keyed KAT, the official set of the BLAKE2 reference package (blake2b-kat.txt):",
            "key = 00 01 .. 3f (64 bytes), in = 00 01 .. (n-1) for n = 0..255, 64-byte digest.",
            f"SOURCE: regenerated with {PY} by Vectors/tools/blake2b_vectors.py.",
        ],
        records,
    )


def lengths():
    records = []
    cases = []
    for out in (1, 2, 16, 20, 28, 31, 32, 33, 48, 63, 64):
        for keylen in (0, 1, 32, 64):
            for n in (0, 3, 127, 128, 129, 256, 1000):
                if (out + keylen + n) % 3 == 0 or n in (0, 128):
                    cases.append((out, keylen, n))
    for out, keylen, n in cases:
        key = bytes((7 * i + 1) & 0xFF for i in range(keylen))
        msg = bytes((13 * i + 5) & 0xFF for i in range(n))
        md = hashlib.blake2b(msg, key=key, digest_size=out).hexdigest()
        records.append(
            [("out", str(out)), ("key", key.hex() if keylen else '""'), ("in", msg.hex() if n else '""'), ("md", md)]
        )
    write(
        "hashlib-lengths.vec",
        [
            "BLAKE2b with digest lengths 1..64 (out, bytes) and key lengths 0..64, inputs around the 128-byte block.",
            "key[i] = 7i+1 mod 256, in[i] = 13i+5 mod 256.",
            f"SOURCE: generated with {PY} by Vectors/tools/blake2b_vectors.py.",
        ],
        records,
    )


if __name__ == "__main__":
    os.makedirs(ROOT, exist_ok=True)
    cryptography_file()
    keyed_kat()
    lengths()
    print("wrote", ROOT, file=sys.stderr)
