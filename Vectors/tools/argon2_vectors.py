#!/usr/bin/env python3
"""Writes the Argon2 vector files in Vectors/argon2/ with argon2-cffi (libargon2, the reference C code).

  argon2/rfc9106-section5.vec   RFC 9106 §5.1-5.3 inputs and tags (copied from the RFC text); this script
                                recomputes each one with argon2-cffi and refuses to write a mismatch.
  argon2/argon2-cffi.vec        light cases (<= 4 MiB): lanes 1-8, iterations 1-5, tag lengths 4-200,
                                v1.3 and v1.0, with and without secret/associated data.
  argon2/argon2-cffi-large.vec  heavy cases (8-64 MiB). Debug-mode tests of these take seconds each, so
                                they live apart and are run in a separate test (see Argon2VectorTests).

Usage: python3 Vectors/tools/argon2_vectors.py   (run from anywhere)
"""
import os

import importlib.metadata

import argon2
from argon2.low_level import ffi, lib, Type

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "argon2")
TOOL = f"argon2-cffi {importlib.metadata.version('argon2-cffi')} (argon2.low_level.core, libargon2 reference code)"
TYPES = {"d": Type.D, "i": Type.I, "id": Type.ID}


def derive(variant, password, salt, t, m, p, length, secret=b"", ad=b"", version=0x13):
    """argon2.low_level.core with a full argon2_context, so that secret and ad can be set."""
    out = ffi.new("uint8_t[]", length)
    keep = [ffi.new("uint8_t[]", bytes(x) or b"\0") for x in (password, salt, secret, ad)]
    ctx = ffi.new(
        "argon2_context *",
        dict(
            version=version, out=out, outlen=length,
            pwd=keep[0], pwdlen=len(password), salt=keep[1], saltlen=len(salt),
            secret=keep[2], secretlen=len(secret), ad=keep[3], adlen=len(ad),
            t_cost=t, m_cost=m, lanes=p, threads=p,
            allocate_cbk=ffi.NULL, free_cbk=ffi.NULL, flags=lib.ARGON2_DEFAULT_FLAGS,
        ),
    )
    rc = argon2.low_level.core(ctx, TYPES[variant].value)
    assert rc == 0, argon2.low_level.error_to_str(rc)
    return bytes(ffi.buffer(out, length))


def hexv(data):
    return data.hex() if data else '""'


def record(f, comment, variant, password, salt, t, m, p, length, secret=b"", ad=b"", version=0x13, tag=None):
    computed = derive(variant, password, salt, t, m, p, length, secret, ad, version)
    if tag is not None and tag != computed:
        raise SystemExit(f"argon2-cffi disagrees with the copied tag for {comment}")
    f.write(f"\n# {comment}\n")
    for key, value in [
        ("variant", f'"{variant}"'), ("version", str(version)), ("iterations", str(t)), ("memory", str(m)),
        ("lanes", str(p)), ("password", hexv(password)), ("salt", hexv(salt)), ("secret", hexv(secret)),
        ("ad", hexv(ad)), ("tag", computed.hex()),
    ]:
        f.write(f"{key} = {value}\n")


def rfc():
    with open(os.path.join(ROOT, "rfc9106-section5.vec"), "w") as f:
        f.write("# RFC 9106 §5 test vectors (Argon2d §5.1, Argon2i §5.2, Argon2id §5.3), version 0x13:\n")
        f.write("# P = 32 x 01, S = 16 x 02, K = 8 x 03, X = 12 x 04, m = 32 KiB, t = 3, p = 4, T = 32.\n")
        f.write("# SOURCE: RFC 9106 section 5 (tags copied from the RFC); the file is written by\n")
        f.write(f"# Vectors/tools/argon2_vectors.py, which checks every tag against {TOOL}.\n")
        tags = {
            "d": "512b391b6f1162975371d30919734294f868e3be3984f3c1a13a4db9fabe4acb",
            "i": "c814d9d1dc7f37aa13f0d77f2494bda1c8de6b016dd388d29952a4c4672b6ce8",
            "id": "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659",
        }
        section = {"d": "5.1 Argon2d", "i": "5.2 Argon2i", "id": "5.3 Argon2id"}
        for variant in ("d", "i", "id"):
            record(
                f, f"RFC 9106 §{section[variant]}", variant, b"\x01" * 32, b"\x02" * 16, 3, 32, 4, 32,
                b"\x03" * 8, b"\x04" * 12, tag=bytes.fromhex(tags[variant]),
            )


def pattern(n, seed):
    return bytes((seed * 31 + 17 * i + (i >> 3)) & 0xFF for i in range(n))


def light():
    cases = []
    # (variant, t, m KiB, p, length, version, with secret/ad)
    for p in range(1, 9):
        cases.append(("id", 1 + p % 3, max(8 * p, 16 * p), p, 32, 0x13, False))
        cases.append(("d", 2, 64 * p + 8 * p, p, 32, 0x13, p % 2 == 0))
    cases += [
        ("d", 1, 8, 1, 4, 0x13, False),          # smallest memory and tag
        ("id", 1, 8, 1, 5, 0x13, False),
        ("i", 2, 16, 1, 32, 0x13, False),
        ("i", 3, 256, 4, 48, 0x13, True),
        ("id", 5, 64, 2, 64, 0x13, False),       # the largest tag without chaining
        ("id", 2, 128, 1, 65, 0x13, False),      # H' chaining starts at 65 bytes
        ("d", 2, 100, 3, 96, 0x13, False),       # m not a multiple of 4p: m' rounds down
        ("id", 3, 1000, 5, 128, 0x13, True),
        ("d", 1, 1024, 1, 200, 0x13, False),
        ("id", 2, 2048, 2, 32, 0x13, False),
        ("d", 2, 4096, 4, 33, 0x13, False),
        ("id", 1, 4096, 8, 16, 0x13, True),
        ("d", 3, 256, 2, 32, 0x10, False),       # version 1.0 (no XOR in later passes)
        ("id", 2, 512, 1, 32, 0x10, True),
        ("i", 1, 64, 1, 32, 0x10, False),
    ]
    with open(os.path.join(ROOT, "argon2-cffi.vec"), "w") as f:
        f.write("# Argon2 light cases (<= 4 MiB): lanes 1-8, iterations 1-5, tag lengths 4-200, v1.3 and v1.0,\n")
        f.write("# optional secret K and associated data X. memory is m in KiB; version 19 = 0x13, 16 = 0x10.\n")
        f.write(f"# SOURCE: generated with {TOOL} by Vectors/tools/argon2_vectors.py.\n")
        for n, (variant, t, m, p, length, version, extras) in enumerate(cases):
            password = pattern(n % 40, n)
            salt = pattern(8 + n % 17, n + 100)
            secret = pattern(1 + n % 32, n + 200) if extras else b""
            ad = pattern(3 + n % 20, n + 300) if extras else b""
            record(f, f"case {n}", variant, password, salt, t, m, p, length, secret, ad, version)
    return len(cases)


def large():
    cases = [
        ("d", 1, 8192, 1, 32),
        ("id", 2, 16384, 2, 32),
        ("id", 1, 32768, 4, 64),
        ("d", 1, 65536, 8, 32),
        ("id", 1, 65536, 2, 32),
    ]
    with open(os.path.join(ROOT, "argon2-cffi-large.vec"), "w") as f:
        f.write("# Argon2 heavy cases (8-64 MiB), kept apart from argon2-cffi.vec because each takes seconds in a\n")
        f.write("# debug build. memory is m in KiB.\n")
        f.write(f"# SOURCE: generated with {TOOL} by Vectors/tools/argon2_vectors.py.\n")
        for n, (variant, t, m, p, length) in enumerate(cases):
            record(f, f"large case {n}", variant, b"password", b"somesalt" + bytes([n]) * 8, t, m, p, length)
    return len(cases)


if __name__ == "__main__":
    os.makedirs(ROOT, exist_ok=True)
    rfc()
    print("light", light(), "large", large())
