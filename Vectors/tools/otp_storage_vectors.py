#!/usr/bin/env python3
"""Writes Vectors/otp/pyotp-storage.vec and Vectors/otp/corpus-otp-codes.vec.

pyotp-storage.vec: OTP settings as real vaults store them (an `otp` field with an otpauth:// URI or a KeeOTP
  `key=` string, KeePassXC's `TOTP Seed`/`TOTP Settings`, KeePass 2.47's `TimeOtp-*` and `HmacOtp-*`), each with
  the generator parameters written out by hand below and the codes those parameters give at fixed times,
  computed by pyotp 2.12.1 (`pyotp.TOTP`, `pyotp.HOTP`, `pyotp.contrib.Steam`). Where pyotp can parse the stored
  otpauth URI itself (`pyotp.parse_uri`), the script also checks that pyotp's reading gives the same codes.
  Record fields: name, format (the storage format that must win), field1/value1 ... (entry string fields),
  optional issuer/account (label parts the URI carries), time, code.

corpus-otp-codes.vec: expected codes for the OTP entries of the acceptance corpus (../shared/corpus/**/
  *.expected.json, read only; no corpus content is copied, records name the file and the entry UUID) and of our
  demo vault (Vectors/demo/demo.kdbx.expected.json). otpauth URIs are read with pyotp.parse_uri; the KeePassXC
  and KeePass field formats are read by this script following their documentation (KeePassXC
  `[step];[digits|S]`; KeePass `TimeOtp-Length/-Period/-Algorithm`), then codes come from pyotp.

Usage: python3 Vectors/tools/otp_storage_vectors.py   (needs: pip install pyotp==2.12.1)
"""
import base64
import glob
import hashlib
import json
import os

import pyotp
import pyotp.contrib

pyotp.OTP.min_secret_length_bits = 0  # vault secrets such as "123456" are shorter than pyotp's 112-bit floor

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.join(HERE, "..", "..")
OUT = os.path.join(HERE, "..", "otp")
CORPUS = next((c for c in (os.path.join(REPO, "..", "shared", "corpus"), os.path.join(REPO, "..", "..", "shared", "corpus"))
               if os.path.exists(os.path.join(c, "MANIFEST.tsv"))), None)
TIMES = [0, 59, 1111111109, 1700000000, 2000000000]
DIGESTS = {"sha1": hashlib.sha1, "sha256": hashlib.sha256, "sha512": hashlib.sha512}


def b32(data):
    return base64.b32encode(data).decode()


def generator(secret, digest="sha1", digits=6, period=30, counter=None, steam=False):
    if steam:
        return lambda t: pyotp.contrib.Steam(b32(secret), interval=period).at(t)
    if counter is not None:
        otp = pyotp.HOTP(b32(secret), digits=digits, digest=DIGESTS[digest])
        return lambda t: otp.at(counter)
    otp = pyotp.TOTP(b32(secret), digits=digits, digest=DIGESTS[digest], interval=period)
    return lambda t: otp.at(t)


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


RFC = b"12345678901234567890"
HELLO = b"Hello!\xde\xad\xbe\xef"  # Base32 JBSWY3DPEHPK3PXP
LONG = bytes(range(1, 33))

# (name, winning format, fields, issuer, account, generator parameters)
CASES = [
    ("otpauth default (demo GitHub)", "otpauthURI",
     [("otp", "otpauth://totp/GitHub:alex-dev?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&period=30&digits=6")],
     "GitHub", "alex-dev", dict(secret=HELLO)),
    ("otpauth SHA-256, 8 digits, 60 s, lowercase spaced secret", "otpauthURI",
     [("otp", "otpauth://totp/ACME%20Co:alice%40example.com?secret=" + b32(LONG).lower()[:16] + "%20"
       + b32(LONG).lower()[16:].rstrip("=") + "&algorithm=SHA256&digits=8&period=60")],
     "ACME Co", "alice@example.com", dict(secret=LONG, digest="sha256", digits=8, period=60)),
    ("otpauth SHA-512 with percent-encoded padding (keepass-rs style)", "otpauthURI",
     [("otp", "otpauth://totp/sha512%20totp:none?secret=GEZDGNBVGY%3D%3D%3D%3D%3D%3D&period=30&digits=6"
       "&issuer=sha512%20totp&algorithm=SHA512")],
     "sha512 totp", "none", dict(secret=b"123456", digest="sha512")),
    ("otpauth issuer parameter wins over label, upper-case scheme", "otpauthURI",
     [("otp", "OTPAUTH://TOTP/Old%3Abob?secret=" + b32(RFC) + "&issuer=New&digits=7")],
     "New", "bob", dict(secret=RFC, digits=7)),
    ("otpauth HOTP counter 5", "otpauthURI",
     [("otp", "otpauth://hotp/Example:bob?secret=" + b32(RFC) + "&counter=5")],
     "Example", "bob", dict(secret=RFC, counter=5)),
    ("otpauth HOTP SHA-256 8 digits", "otpauthURI",
     [("otp", "otpauth://hotp/hotp256?secret=" + b32(LONG) + "&counter=1234567&digits=8&algorithm=sha256")],
     None, "hotp256", dict(secret=LONG, digest="sha256", digits=8, counter=1234567)),
    ("otpauth Steam encoder (KeePassXC)", "otpauthURI",
     [("otp", "otpauth://totp/Steam:u5?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Steam&encoder=steam")],
     "Steam", "u5", dict(secret=b"12345678901234567890", steam=True)),
    ("KeeOTP defaults", "keeOTP", [("otp", "key=" + b32(HELLO))], None, None, dict(secret=HELLO)),
    ("KeeOTP size, step, hash mode", "keeOTP",
     [("otp", "key=" + b32(LONG) + "&size=8&step=60&otpHashMode=Sha256")],
     None, None, dict(secret=LONG, digest="sha256", digits=8, period=60)),
    ("KeePassXC legacy 30;6", "keePassXCLegacy",
     [("TOTP Seed", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"), ("TOTP Settings", "30;6")],
     None, None, dict(secret=RFC)),
    ("KeePassXC legacy 30;8, lowercase spaced seed", "keePassXCLegacy",
     [("TOTP Seed", "gezd gnbv gy3t qojq gezd gnbv gy3t qojq"), ("TOTP Settings", "30;8")],
     None, None, dict(secret=RFC, digits=8)),
    ("KeePassXC legacy 30;S (Steam)", "keePassXCLegacy",
     [("TOTP Seed", b32(HELLO)), ("TOTP Settings", "30;S")], None, None, dict(secret=HELLO, steam=True)),
    ("KeePassXC legacy 60;7", "keePassXCLegacy",
     [("TOTP Seed", b32(LONG)), ("TOTP Settings", "60;7")], None, None, dict(secret=LONG, digits=7, period=60)),
    ("KeePassXC legacy seed without settings", "keePassXCLegacy",
     [("TOTP Seed", b32(HELLO))], None, None, dict(secret=HELLO)),
    ("KeePass TimeOtp-Secret (UTF-8), RFC 6238 SHA-1 8 digits", "keePassTimeOTP",
     [("TimeOtp-Secret", RFC.decode()), ("TimeOtp-Length", "8")], None, None, dict(secret=RFC, digits=8)),
    ("KeePass TimeOtp-Secret-Hex with spaces", "keePassTimeOTP",
     [("TimeOtp-Secret-Hex", " ".join(RFC.hex()[i:i + 8] for i in range(0, 40, 8)))],
     None, None, dict(secret=RFC)),
    ("KeePass TimeOtp-Secret-Base32 HMAC-SHA-256 (demo Bank)", "keePassTimeOTP",
     [("TimeOtp-Secret-Base32", "KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TFOQ"), ("TimeOtp-Length", "8"),
      ("TimeOtp-Period", "30"), ("TimeOtp-Algorithm", "HMAC-SHA-256")],
     None, None, dict(secret=base64.b32decode("KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TFOQ======"), digest="sha256", digits=8)),
    ("KeePass TimeOtp-Secret-Base64 HMAC-SHA-512 60 s", "keePassTimeOTP",
     [("TimeOtp-Secret-Base64", base64.b64encode(LONG).decode()), ("TimeOtp-Period", "60"),
      ("TimeOtp-Algorithm", "HMAC-SHA-512"), ("TimeOtp-Length", "10")],
     None, None, dict(secret=LONG, digest="sha512", period=60, digits=10)),
    ("KeePass HmacOtp-Secret counter 0 (RFC 4226)", "keePassHmacOTP",
     [("HmacOtp-Secret", RFC.decode())], None, None, dict(secret=RFC, counter=0)),
    ("KeePass HmacOtp-Secret-Hex counter 7", "keePassHmacOTP",
     [("HmacOtp-Secret-Hex", RFC.hex().upper()), ("HmacOtp-Counter", "7")], None, None, dict(secret=RFC, counter=7)),
    ("KeePass HmacOtp-Secret-Base64 counter 9", "keePassHmacOTP",
     [("HmacOtp-Secret-Base64", base64.b64encode(LONG).decode()), ("HmacOtp-Counter", "9")],
     None, None, dict(secret=LONG, counter=9)),
    ("precedence: otp URI before TimeOtp-*", "otpauthURI",
     [("TimeOtp-Secret-Base32", b32(LONG)), ("otp", "otpauth://totp/A:b?secret=" + b32(HELLO))],
     "A", "b", dict(secret=HELLO)),
    ("precedence: TOTP Seed before TimeOtp-*", "keePassXCLegacy",
     [("TimeOtp-Secret-Base32", b32(LONG)), ("TOTP Seed", b32(RFC)), ("TOTP Settings", "30;8")],
     None, None, dict(secret=RFC, digits=8)),
    ("precedence: a malformed otp does not hide valid TimeOtp-*", "keePassTimeOTP",
     [("otp", "otpauth://totp/x?secret=%ZZ"), ("TimeOtp-Secret-Base32", b32(LONG))],
     None, None, dict(secret=LONG)),
]


def storage():
    lines = ["# SOURCE: generated by Vectors/tools/otp_storage_vectors.py with pyotp 2.12.1 (TOTP, HOTP,",
             "# contrib.Steam). Storage strings are the formats of KeePassXC (otpauth URI, TOTP Seed/Settings),",
             "# KeeOTP (key=...), KeePass 2.47 (TimeOtp-*, HmacOtp-*); parameters are stated in the script and",
             "# URIs are cross-checked with pyotp.parse_uri where pyotp accepts them."]
    for name, fmt, fields, issuer, account, params in CASES:
        code_at = generator(**params)
        uri = next((v for k, v in fields if k == "otp" and v.lower().startswith("otpauth://")), None)
        if uri and fmt == "otpauthURI":
            try:
                parsed = pyotp.parse_uri(uri)
            except Exception:
                parsed = None  # pyotp refuses spaces, 7 digits etc.; our parameters above stand alone
            if parsed is not None:
                for t in TIMES:
                    # parse_uri keeps the URI counter as initial_count, so at(0) is that counter
                    other = parsed.at(0) if isinstance(parsed, pyotp.HOTP) else parsed.at(t)
                    assert other == code_at(t), (name, t, other, code_at(t))
        for t in TIMES:
            record = [("name", quote(name)), ("format", quote(fmt))]
            for index, (key, value) in enumerate(fields, 1):
                record += [(f"field{index}", quote(key)), (f"value{index}", quote(value))]
            if issuer is not None:
                record.append(("issuer", quote(issuer)))
            if account is not None:
                record.append(("account", quote(account)))
            record += [("time", t), ("code", quote(code_at(t)))]
            lines.append("")
            lines += [f"{k} = {v}" for k, v in record]
    with open(os.path.join(OUT, "pyotp-storage.vec"), "w") as f:
        f.write("\n".join(lines) + "\n")


def corpus_generator(fields):
    """Reads an entry's OTP fields (same precedence as the library) into a code function."""
    otp = fields.get("otp")
    if otp and otp.lower().startswith("otpauth://"):
        parsed = pyotp.parse_uri(otp)
        return parsed.at
    if "TOTP Seed" in fields:
        secret = base64.b32decode(fields["TOTP Seed"].replace(" ", "").upper() + "=" * (-len(fields["TOTP Seed"]) % 8))
        step, digits = fields.get("TOTP Settings", "30;6").split(";")[:2]
        if digits == "S":
            return generator(secret, period=int(step), steam=True)
        return generator(secret, digits=int(digits), period=int(step))
    if "TimeOtp-Secret-Base32" in fields:
        text = fields["TimeOtp-Secret-Base32"]
        secret = base64.b32decode(text + "=" * (-len(text) % 8))
        algorithm = {"HMAC-SHA-1": "sha1", "HMAC-SHA-256": "sha256", "HMAC-SHA-512": "sha512"}[
            fields.get("TimeOtp-Algorithm", "HMAC-SHA-1")]
        return generator(secret, digest=algorithm, digits=int(fields.get("TimeOtp-Length", "6")),
                         period=int(fields.get("TimeOtp-Period", "30")))
    return None


def corpus():
    lines = ["# SOURCE: generated by Vectors/tools/otp_storage_vectors.py with pyotp 2.12.1 from the OTP fields of",
             "# ../shared/corpus/**/*.expected.json (read at generation time, not copied: records name the file and",
             "# the entry UUID; the Swift test reads the fields from the same JSON) and Vectors/demo/demo.kdbx.",
             "# expected.json. root = \"corpus\" (relative to ../shared/corpus) or \"repo\" (relative to the repository)."]
    assert CORPUS, "../shared/corpus not found"
    paths = sorted(glob.glob(os.path.join(CORPUS, "**/*.expected.json"), recursive=True))
    sources = [("corpus", os.path.relpath(p, CORPUS)) for p in paths]
    sources.append(("repo", "Vectors/demo/demo.kdbx.expected.json"))
    for root, rel in sources:
        path = os.path.join(CORPUS if root == "corpus" else REPO, rel)
        with open(path) as f:
            data = json.load(f)
        for entry in data.get("entries", []):
            fields = entry.get("custom_fields") or entry.get("fields") or {}
            code_at = corpus_generator(fields)
            if code_at is None:
                continue
            for t in TIMES[:4]:
                lines.append("")
                lines += [f"root = {quote(root)}", f"file = {quote(rel)}", f"uuid = {quote(entry['uuid'])}",
                          f"time = {t}", f"code = {quote(code_at(t))}"]
    with open(os.path.join(OUT, "corpus-otp-codes.vec"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    storage()
    corpus()
