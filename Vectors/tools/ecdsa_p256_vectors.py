#!/usr/bin/env python3
"""Writes Vectors/ecdsa-p256/*.vec: ECDSA P-256 with SHA-256.

Sources:
- rfc6979-a25.vec: RFC 6979 Appendix A.2.5 (P-256 key, SHA-256 "sample" and "test"), values copied from the RFC
  text; each (r, s) is checked against PyPI `cryptography` deterministic signing and verification.
- edge-cases.vec: our own cases from the RFC 6979 "sample" signature (r or s zero, n, p or swapped; high s = n - s,
  which ECDSA accepts; off-curve, infinity, x = p and other keys; wrong lengths), each checked against PyPI
  `cryptography` where it can express the case (checked = 1).
- cavp-sigver.vec, cavp-siggen.vec, cavp-keypair.vec: NIST CAVP ECDSA (FIPS 186-3) SigVer.rsp, SigGen.txt and
  KeyPair.rsp, the [P-256,SHA-256] and [P-256] sections only, from PyPI cryptography-vectors
  (asymmetric/ECDSA/FIPS_186-3/). NIST test data is public domain (US government work).

Usage: pip install cryptography-vectors cryptography; python3 Vectors/tools/ecdsa_p256_vectors.py
"""
import importlib.metadata
import os

import cryptography_vectors
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P = 2**256 - 2**224 + 2**192 + 2**96 - 1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "ecdsa-p256")
PKG = os.path.join(os.path.dirname(cryptography_vectors.__file__), "asymmetric", "ECDSA", "FIPS_186-3")
VERSION = importlib.metadata.version("cryptography_vectors")

RFC6979_KEY = "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721"
RFC6979_UX = "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6"
RFC6979_UY = "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299"
RFC6979_CASES = [
    ("sample", "a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60",
     "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716",
     "f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8"),
    ("test", "d16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0",
     "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367",
     "019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083"),
]


def section(path, header):
    """The records of one [header] section of a CAVP file, as lists of (name, value)."""
    records, current, inside = [], [], False
    for raw in open(path):
        line = raw.strip()
        if line.startswith("[") and line[1:3] in ("P-", "K-", "B-"):
            inside = line == header
            if current:
                records.append(current)
            current = []
            continue
        if not inside or line.startswith("#"):
            continue
        if not line:
            if current:
                records.append(current)
            current = []
            continue
        if "=" in line:
            name, value = (part.strip() for part in line.split("=", 1))
            current.append((name, value))
    if current and inside:
        records.append(current)
    return [r for r in records if any(n in ("Msg", "d") for n, _ in r)]


def rfc6979():
    key = ec.derive_private_key(int(RFC6979_KEY, 16), ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    assert "%064x" % numbers.x == RFC6979_UX and "%064x" % numbers.y == RFC6979_UY
    lines = ["# SOURCE: RFC 6979 Appendix A.2.5, ECDSA P-256 with SHA-256 (deterministic k), copied from the RFC text;",
             "# each signature checked with PyPI cryptography %s (deterministic_signing=True) by" % importlib.metadata.version("cryptography"),
             "# Vectors/tools/ecdsa_p256_vectors.py. Fields: d, qx, qy, msg, k, r, s.", ""]
    for message, k, r, s in RFC6979_CASES:
        der = key.sign(message.encode(), ec.ECDSA(hashes.SHA256(), deterministic_signing=True))
        assert decode_dss_signature(der) == (int(r, 16), int(s, 16)), message
        key.public_key().verify(encode_dss_signature(int(r, 16), int(s, 16)), message.encode(), ec.ECDSA(hashes.SHA256()))
        lines += ["# message \"%s\"" % message, "d = " + RFC6979_KEY, "qx = " + RFC6979_UX, "qy = " + RFC6979_UY,
                  'msg = "%s"' % message, "k = " + k, "r = " + r, "s = " + s, ""]
    write("rfc6979-a25.vec", lines)


def cavp():
    header = "# SOURCE: NIST CAVP ECDSA FIPS 186-3 %s, section %s (cryptography-vectors %s), via Vectors/tools/ecdsa_p256_vectors.py."
    lines = [header % ("SigVer.rsp", "[P-256,SHA-256]", VERSION),
             "# Fields: msg, qx, qy, r, s, valid (1 = Result P, 0 = Result F; the comment gives NIST's reason).", ""]
    for record in section(os.path.join(PKG, "SigVer.rsp"), "[P-256,SHA-256]"):
        f = dict(record)
        result = f["Result"]
        lines += ["# Result = " + result, "msg = " + f["Msg"], "qx = " + f["Qx"], "qy = " + f["Qy"], "r = " + f["R"],
                  "s = " + f["S"], "valid = %d" % (1 if result.startswith("P") else 0), ""]
    write("cavp-sigver.vec", lines)
    lines = [header % ("SigGen.txt", "[P-256,SHA-256]", VERSION), "# Fields: msg, d, qx, qy, k, r, s.", ""]
    for record in section(os.path.join(PKG, "SigGen.txt"), "[P-256,SHA-256]"):
        f = dict(record)
        lines += ["msg = " + f["Msg"], "d = " + f["d"], "qx = " + f["Qx"], "qy = " + f["Qy"], "k = " + f["k"],
                  "r = " + f["R"], "s = " + f["S"], ""]
    write("cavp-siggen.vec", lines)
    lines = [header % ("KeyPair.rsp", "[P-256]", VERSION), "# Fields: d, qx, qy.", ""]
    for record in section(os.path.join(PKG, "KeyPair.rsp"), "[P-256]"):
        f = dict(record)
        lines += ["d = " + f["d"], "qx = " + f["Qx"], "qy = " + f["Qy"], ""]
    write("cavp-keypair.vec", lines)


def write(name, lines):
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, name), "w") as handle:
        handle.write("\n".join(lines).rstrip("\n") + "\n")
    print(name, sum(1 for l in lines if l.startswith("qx =") or l.startswith("pk =")), "records")


def accepted_by_cryptography(pk, msg, r, s):
    try:
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), bytes.fromhex(pk))
        key.verify(encode_dss_signature(r, s), bytes.fromhex(msg), ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError):
        return False


def edge_cases():
    pk = "04" + RFC6979_UX + RFC6979_UY
    msg = b"sample".hex()
    _, _, r_hex, s_hex = RFC6979_CASES[0]
    r, s = int(r_hex, 16), int(s_hex, 16)
    other = ec.derive_private_key(2, ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint).hex()
    compressed = ("02" if int(RFC6979_UY, 16) % 2 == 0 else "03") + RFC6979_UX
    hx = lambda value: "%064x" % value
    cases = [
        ("the RFC 6979 signature", pk, msg, hx(r) + hx(s), 1, True),
        ("high s: n - s (ECDSA accepts both; FIPS 186-5 §6.4.2)", pk, msg, hx(r) + hx(N - s), 1, True),
        ("compressed public key (SEC 1 §2.3.4)", compressed, msg, hx(r) + hx(s), 1, True),
        ("r = 0 (FIPS 186-5 §6.4.2 step 2: r in [1, n-1])", pk, msg, hx(0) + hx(s), 0, True),
        ("s = 0", pk, msg, hx(r) + hx(0), 0, True),
        ("r = n", pk, msg, hx(N) + hx(s), 0, True),
        ("s = n", pk, msg, hx(r) + hx(N), 0, True),
        ("r = p", pk, msg, hx(P) + hx(s), 0, True),
        ("s = 2^256 - 1", pk, msg, hx(r) + hx(2**256 - 1), 0, True),
        ("r and s swapped", pk, msg, hx(s) + hx(r), 0, True),
        ("message changed", pk, b"samplf".hex(), hx(r) + hx(s), 0, True),
        ("another key (2G)", other, msg, hx(r) + hx(s), 0, True),
        ("public key off the curve (y + 1)", "04" + RFC6979_UX + hx(int(RFC6979_UY, 16) + 1), msg, hx(r) + hx(s), 0,
         False),
        ("public key at infinity (00, SEC 1 §2.3.4)", "00", msg, hx(r) + hx(s), 0, False),
        ("public key with x = p", "02" + hx(P), msg, hx(r) + hx(s), 0, False),
        ("public key of 64 bytes (no prefix)", RFC6979_UX + RFC6979_UY, msg, hx(r) + hx(s), 0, False),
        ("signature of 63 bytes", pk, msg, (hx(r) + hx(s))[:-2], 0, False),
        ("signature of 65 bytes", pk, msg, hx(r) + hx(s) + "00", 0, False),
    ]
    lines = ["# SOURCE: our own ECDSA P-256 edge cases around RFC 6979 A.2.5 \"sample\", by Vectors/tools/ecdsa_p256_vectors.py.",
             "# checked = 1: PyPI cryptography %s agrees with `valid`. Fields: pk (SEC 1), msg, sig (r || s), valid, checked."
             % importlib.metadata.version("cryptography"), ""]
    for reason, key, message, signature, valid, checked in cases:
        if checked:
            got = accepted_by_cryptography(key, message, int(signature[:64], 16), int(signature[64:], 16))
            assert got == bool(valid), reason
        lines += ["# " + reason, "pk = " + key, "msg = " + message, "sig = " + signature, "valid = %d" % valid,
                  "checked = %d" % checked, ""]
    write("edge-cases.vec", lines)


if __name__ == "__main__":
    rfc6979()
    edge_cases()
    cavp()
