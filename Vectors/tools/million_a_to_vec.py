#!/usr/bin/env python3
"""Writes Vectors/{sha1,sha256,sha512}/hashlib-million-a.vec: the digest of 1,000,000 repetitions
of the byte "a" (0x61), the long-message example of FIPS 180-2 Appendix A-C, computed with
Python's hashlib (OpenSSL).

Usage: python3 Vectors/tools/million_a_to_vec.py
"""
import hashlib
import os
import platform
import ssl

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

for algo in ("sha1", "sha256", "sha512"):
    digest = hashlib.new(algo, b"a" * 1_000_000).hexdigest()
    path = os.path.join(ROOT, algo, "hashlib-million-a.vec")
    with open(path, "w") as out:
        out.write("# SOURCE: Python hashlib " + platform.python_version() + " (" + ssl.OPENSSL_VERSION + "),\n")
        out.write("# written by Vectors/tools/million_a_to_vec.py. The input is the FIPS 180-2 long example:\n")
        out.write("# `repeat` copies of the quoted message.\n\n")
        out.write(f'msg = "a"\nrepeat = 1000000\nmd = {digest}\n')
    print(path, digest)
