#!/usr/bin/env python3
"""Converts the NIST CAVP SHA byte-oriented test files (.rsp) into Vectors/<hash>/cavp-*.vec.

Source: the .rsp files shipped in the PyPI package `cryptography-vectors`
(hashes/SHA1/SHA1{ShortMsg,LongMsg,Monte}.rsp, hashes/SHA2/SHA{256,512}{ShortMsg,LongMsg,Monte}.rsp),
which are the NIST CAVP SHAVS files (CAVS 11.x, "configured for BYTE oriented implementations").

Usage: pip install cryptography-vectors; python3 Vectors/tools/cavp_hash_to_vec.py
Every record is cross-checked with Python's hashlib before it is written.

Monte Carlo files: SHAVS §6.4 chains 100 checkpoints. Record j gives `seed` (the initial Seed for
j = 0, else checkpoint j-1's MD, both from the .rsp file) and `md` (checkpoint j), so every record
can be checked on its own: MD0 = MD1 = MD2 = seed; for i in 3...1002 MDi = SHA(MD(i-3) || MD(i-2) || MD(i-1));
md == MD1002.
"""
import hashlib
import importlib.metadata
import os
import sys

import cryptography_vectors

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.dirname(cryptography_vectors.__file__)
VERSION = importlib.metadata.version("cryptography_vectors")

HASHES = [
    # (output folder, hashlib name, rsp folder, rsp prefix)
    ("sha1", "sha1", "hashes/SHA1", "SHA1"),
    ("sha256", "sha256", "hashes/SHA2", "SHA256"),
    ("sha512", "sha512", "hashes/SHA2", "SHA512"),
]


def parse_rsp(path):
    """Yields dicts of `key = value` groups separated by blank lines; skips comments and [L = ..]."""
    records, current = [], {}
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#") or line.startswith("["):
                if current:
                    records.append(current)
                    current = {}
                continue
            name, _, value = line.partition("=")
            current[name.strip()] = value.strip().lower()
    if current:
        records.append(current)
    return records


def header(out, rsp_rel, what):
    out.write(f"# SOURCE: NIST CAVP SHAVS byte-oriented test vectors, {rsp_rel} ({what}),\n")
    out.write(f"# as shipped in the PyPI package cryptography-vectors {VERSION}.\n")
    out.write("# Converted by Vectors/tools/cavp_hash_to_vec.py (each record cross-checked with Python hashlib).\n")


def convert_msg(folder, algo, rsp_dir, prefix, kind):
    rsp_rel = f"{rsp_dir}/{prefix}{kind}.rsp"
    records = [r for r in parse_rsp(os.path.join(PKG, rsp_rel)) if "Len" in r]
    path = os.path.join(ROOT, folder, f"cavp-{kind.lower()}.vec")
    with open(path, "w") as out:
        header(out, rsp_rel, kind)
        out.write("# Fields: len = message length in bits, msg = message, md = digest.\n")
        for r in records:
            bits = int(r["Len"])
            assert bits % 8 == 0
            msg = bytes.fromhex(r["Msg"])[: bits // 8]
            assert hashlib.new(algo, msg).hexdigest() == r["MD"], (rsp_rel, bits)
            out.write(f"\nlen = {bits}\nmsg = {msg.hex() if msg else chr(34) * 2}\nmd = {r['MD']}\n")
    return path, len(records)


def monte(algo, seed):
    md = [seed, seed, seed]
    for _ in range(3, 1003):
        md.append(hashlib.new(algo, md[-3] + md[-2] + md[-1]).digest())
        md.pop(0)
    return md[-1]


def convert_monte(folder, algo, rsp_dir, prefix):
    rsp_rel = f"{rsp_dir}/{prefix}Monte.rsp"
    records = parse_rsp(os.path.join(PKG, rsp_rel))
    seed = next(r["Seed"] for r in records if "Seed" in r)
    checkpoints = [r for r in records if "COUNT" in r]
    assert [int(r["COUNT"]) for r in checkpoints] == list(range(100))
    path = os.path.join(ROOT, folder, "cavp-monte.vec")
    with open(path, "w") as out:
        header(out, rsp_rel, "Monte Carlo")
        out.write("# Record j: seed = Seed (j = 0) or checkpoint j-1's MD; md = checkpoint j after 1000 chained\n")
        out.write("# hashes (SHAVS §6.4: MD0 = MD1 = MD2 = seed; MDi = SHA(MD(i-3) || MD(i-2) || MD(i-1)), i = 3...1002).\n")
        for r in checkpoints:
            j = int(r["COUNT"])
            assert monte(algo, bytes.fromhex(seed)).hex() == r["MD"], (rsp_rel, j)
            out.write(f"\ncount = {j}\nseed = {seed}\nmd = {r['MD']}\n")
            seed = r["MD"]
    return path, len(checkpoints)


def main():
    for folder, algo, rsp_dir, prefix in HASHES:
        os.makedirs(os.path.join(ROOT, folder), exist_ok=True)
        for kind in ("ShortMsg", "LongMsg"):
            print(*convert_msg(folder, algo, rsp_dir, prefix, kind))
        print(*convert_monte(folder, algo, rsp_dir, prefix))


if __name__ == "__main__":
    sys.exit(main())
