#!/usr/bin/env python3
"""Writes Vectors/pem/keys.vec: private and public keys in PEM written by PyPI `cryptography`, for fixed keys.

Every record has a name, the PEM text (a quoted string with \\n), the outcome our reader must give (p256, ed25519,
or the PublicKeyError case: unsupportedAlgorithm, unsupportedCurve) and, for keys we read, the raw private key
(P-256 d big-endian, Ed25519 seed) and the raw public key (SEC 1 uncompressed, or the 32-byte Ed25519 encoding).
Formats: PKCS#8 PRIVATE KEY (RFC 5958), SEC 1 EC PRIVATE KEY (RFC 5915), SubjectPublicKeyInfo PUBLIC KEY (RFC 5280,
RFC 5480, RFC 8410); refused ones: RSA PKCS#8, P-384 (unsupported curve), Ed448, encrypted PKCS#8.

Usage: pip install cryptography; python3 Vectors/tools/public_key_pem_vectors.py
"""
import hashlib
import importlib.metadata
import os

from cryptography.hazmat.primitives import serialization as s
from cryptography.hazmat.primitives.asymmetric import ec, ed448, ed25519, rsa

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CRYPTO = importlib.metadata.version("cryptography")


def quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def main():
    d = int.from_bytes(hashlib.sha256(b"swift-kdbx P-256 PEM vector").digest(), "big")
    p256 = ec.derive_private_key(d, ec.SECP256R1())
    p256_public = p256.public_key().public_bytes(s.Encoding.X962, s.PublicFormat.UncompressedPoint).hex()
    seed = hashlib.sha256(b"swift-kdbx Ed25519 PEM vector").digest()
    edkey = ed25519.Ed25519PrivateKey.from_private_bytes(seed)
    ed_public = edkey.public_key().public_bytes_raw().hex()
    none = s.NoEncryption()
    records = [
        ("p256 PKCS#8", p256.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, none), "p256", "%064x" % d, p256_public),
        ("p256 SEC 1 EC PRIVATE KEY", p256.private_bytes(s.Encoding.PEM, s.PrivateFormat.TraditionalOpenSSL, none),
         "p256", "%064x" % d, p256_public),
        ("p256 SubjectPublicKeyInfo", p256.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo),
         "p256", "", p256_public),
        ("ed25519 PKCS#8", edkey.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, none), "ed25519", seed.hex(), ed_public),
        ("ed25519 SubjectPublicKeyInfo",
         edkey.public_key().public_bytes(s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo), "ed25519", "", ed_public),
        ("rsa-1024 PKCS#8 (recognised, not for signing)",
         rsa.generate_private_key(65537, 1024).private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, none),
         "unsupportedAlgorithm", "", ""),
        ("rsa-1024 SubjectPublicKeyInfo", rsa.generate_private_key(65537, 1024).public_key().public_bytes(
            s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo), "unsupportedAlgorithm", "", ""),
        ("p384 PKCS#8 (other curve)", ec.generate_private_key(ec.SECP384R1()).private_bytes(
            s.Encoding.PEM, s.PrivateFormat.PKCS8, none), "unsupportedCurve", "", ""),
        ("p384 SEC 1 (other curve)", ec.generate_private_key(ec.SECP384R1()).private_bytes(
            s.Encoding.PEM, s.PrivateFormat.TraditionalOpenSSL, none), "unsupportedCurve", "", ""),
        ("ed448 PKCS#8", ed448.Ed448PrivateKey.generate().private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8, none),
         "unsupportedAlgorithm", "", ""),
        ("p256 encrypted PKCS#8", p256.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8,
                                                     s.BestAvailableEncryption(b"password")), "unsupportedAlgorithm", "", ""),
    ]
    lines = ["# SOURCE: keys written by PyPI cryptography %s (OpenSSL) with Vectors/tools/public_key_pem_vectors.py;" % CRYPTO,
             "# fixed P-256 and Ed25519 keys (from SHA-256 of a label), fresh RSA/P-384/Ed448 keys (only refused).",
             "# Fields: name, pem, outcome (p256, ed25519, unsupportedAlgorithm, unsupportedCurve), secret, public.", ""]
    for name, pem, outcome, secret, public in records:
        lines += ['name = "%s"' % name, "pem = " + quoted(pem.decode()), 'outcome = "%s"' % outcome,
                  "secret = " + secret, "public = " + public, ""]
    with open(os.path.join(ROOT, "pem", "keys.vec"), "w") as handle:
        handle.write("\n".join(lines).rstrip("\n") + "\n")
    print(len(records), "records")


if __name__ == "__main__":
    main()
