#!/usr/bin/env python3
"""Writes Vectors/kdbx/corpus-keyfiles.vec and Vectors/kdbx/corpus-headers.vec from ../shared/corpus.

Independent of the Swift code: key-file keys follow the KeePass rules (KeePass help "Key files"; XML v1.0 base64
Key/Data, XML v2.0 hex Key/Data with Hash = first 4 bytes of SHA-256; 32 raw bytes; 64 hex chars; else SHA-256 of
the file), computed with hashlib and xml.etree. Headers are read with struct following the KDBX 4.1 specification
(keepass.info/help/kb/kdbx.html). The corpus files themselves are NOT copied into the repository.

Usage: python3 Vectors/tools/kdbx_corpus_vectors.py [CORPUS_DIR]   (default: ../shared/corpus next to the repo)
"""
import hashlib
import json
import os
import struct
import sys
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "..", "..", "shared", "corpus")
if not os.path.isdir(CORPUS):
    CORPUS = "/work/shared/corpus"


def keyfile_key(data):
    """Returns (format, key bytes) or (format, None) for a rejected key file."""
    text = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        root = ET.fromstring(text)
    except ET.ParseError:
        root = None
    if root is not None and root.tag == "KeyFile":
        version = root.findtext("Meta/Version", "").strip()
        node = root.find("Key/Data")
        if version in ("1.0", "1.00"):
            import base64, binascii
            try:
                return "xmlVersion1", base64.b64decode("".join(node.text.split()), validate=True)
            except (binascii.Error, ValueError):
                return "xmlVersion1", None
        if version in ("2.0", "2.00"):
            digits = "".join(node.text.split())
            try:
                key = bytes.fromhex(digits)
            except ValueError:
                return "xmlVersion2", None
            expected = node.get("Hash")
            if expected is not None and hashlib.sha256(key).digest()[:4] != bytes.fromhex(expected):
                return "xmlVersion2", None
            return "xmlVersion2", key
        return "xmlUnsupportedVersion", None
    if len(data) == 32:
        return "binary32", data
    if len(data) == 64:
        try:
            return "hex64", bytes.fromhex(data.decode("ascii"))
        except (UnicodeDecodeError, ValueError):
            pass
    return "hashed", hashlib.sha256(data).digest()


KEYFILES = [
    "keepassxc/FileKeyBinary.key", "keepassxc/FileKeyHex.key", "keepassxc/FileKeyHashed.key",
    "keepassxc/FileKeyHashed2.key", "keepassxc/FileKeyXml.key", "keepassxc/FileKeyXmlV2.keyx",
    "keepassxc/FileKeyXmlBrokenBase64.key", "keepassxc/FileKeyXmlV2BrokenHex.keyx",
    "keepassxc/FileKeyXmlV2HashFail.keyx", "keepassxc/KeyFileProtected.key", "keepassxc/demo.key",
    "keepass-rs/test_key.key", "keepass-rs/test_key_xml.key", "keepass-rs/test_db_kdbx4_with_keyfile_v2.keyx",
    "keepass-rs/test_db_kdbx4_with_keyfile_v2_alt.keyx", "generated/keyfile_only.keyx", "pykeepass/test4_hex.key",
    "pykeepass/test4.key", "pykeepass/test3.key", "pykeepass/test_invalidversion.key", "pykeepass/test4_keyx.keyx",
]

# (password or None, key file or None, challenge-response JSON source or None)
COMPOSITES = [
    ("a", "keepassxc/KeyFileProtected.key", None),
    (None, "keepassxc/KeyFileProtectedNoPassword.key", None),
    ("", None, None),
    (None, None, None),
    ("demopass", "keepass-rs/test_db_kdbx4_with_keyfile_v2.keyx", None),
    ("demopass", None, "keepass-rs/test_db_with_challenge_response_key.kdbx.expected.json"),
]


def quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def write_keyfiles(out):
    out.write("# SOURCE: Vectors/tools/kdbx_corpus_vectors.py (Python hashlib + xml.etree, KeePass key file rules)\n")
    out.write("# over the key files of ../shared/corpus (not copied here). key absent = the file must be rejected.\n")
    for name in KEYFILES:
        with open(os.path.join(CORPUS, name), "rb") as f:
            data = f.read()
        fmt, key = keyfile_key(data)
        out.write("\nfile = %s\nformat = %s\n" % (quote(name), quote(fmt)))
        if key is not None:
            out.write("key = %s\n" % key.hex())
    for password, keyfile, cr in COMPOSITES:
        parts = []
        out.write("\n")
        if password is not None:
            out.write("password = %s\n" % quote(password))
            parts.append(hashlib.sha256(password.encode("utf-8")).digest())
        if keyfile is not None:
            with open(os.path.join(CORPUS, keyfile), "rb") as f:
                parts.append(keyfile_key(f.read())[1])
            out.write("keyfile = %s\n" % quote(keyfile))
        if cr is not None:
            with open(os.path.join(CORPUS, cr)) as f:
                response = bytes.fromhex(json.load(f)["credentials"]["challenge_response"]["response_hex"])
            out.write("response = %s\n" % response.hex())
            parts.append(hashlib.sha256(response).digest())
        out.write("composite4 = %s\n" % hashlib.sha256(b"".join(parts)).hexdigest())


CIPHERS = {"31c1f2e6bf714350be5805216afc5aff": "aes256", "ad68f29f576f4bb9a36ad47af965346c": "twofish",
           "d6038a2b8b6f4cb5a524339a31dbb59a": "chacha20"}
KDFS = {"c9d9f39a628a4460bf740d08c18a4fea": "aesKDBX3", "7c02bb8279a74ac0927d114a00648238": "aesKDBX4",
        "ef636ddf8c29444b91f7a9a403e30a0c": "argon2d", "9e298b1956db4773b23dfc3ec6f0a1e6": "argon2id"}


def vardict(buf):
    out, pos = {}, 2
    while True:
        t = buf[pos]
        pos += 1
        if t == 0:
            return out
        (klen,) = struct.unpack_from("<i", buf, pos)
        key = buf[pos + 4:pos + 4 + klen].decode()
        pos += 4 + klen
        (vlen,) = struct.unpack_from("<i", buf, pos)
        val = buf[pos + 4:pos + 4 + vlen]
        pos += 4 + vlen
        out[key] = int.from_bytes(val, "little") if t in (4, 5) else val


def header(data):
    sig1, sig2, minor, major = struct.unpack_from("<IIHH", data, 0)
    assert sig1 == 0x9AA2D903 and sig2 == 0xB54BFB67
    pos, fields = 12, {}
    while True:
        fid = data[pos]
        if major >= 4:
            (size,) = struct.unpack_from("<I", data, pos + 1)
            pos += 5
        else:
            (size,) = struct.unpack_from("<H", data, pos + 1)
            pos += 3
        fields[fid] = data[pos:pos + size]
        pos += size
        if fid == 0:
            break
    rec = {"major": major, "minor": minor, "header_length": pos, "cipher": CIPHERS[fields[2].hex()],
           "compression": int.from_bytes(fields[3], "little"), "master_seed": fields[4].hex(), "iv": fields[7].hex()}
    if major >= 4:
        kdf = vardict(fields[11])
        rec["kdf"] = KDFS[kdf["$UUID"].hex()]
        if rec["kdf"].startswith("aes"):
            rec["rounds"] = kdf["R"]
        else:
            rec.update(iterations=kdf["I"], memory=kdf["M"], parallelism=kdf["P"], argon2_version=kdf["V"])
        rec["seed"] = kdf["S"].hex()
        rec["header_sha256"] = hashlib.sha256(data[:pos]).hexdigest()
        assert data[pos:pos + 32] == hashlib.sha256(data[:pos]).digest()
    else:
        rec.update(kdf="aesKDBX3", rounds=int.from_bytes(fields[6], "little"), seed=fields[5].hex(),
                   inner_stream=int.from_bytes(fields[10], "little"))
    return rec


def write_headers(out):
    out.write("# SOURCE: Vectors/tools/kdbx_corpus_vectors.py (Python struct, KDBX 4.1 specification \"Header\")\n")
    out.write("# over the valid KDBX files of ../shared/corpus/MANIFEST.tsv (not copied here).\n")
    with open(os.path.join(CORPUS, "MANIFEST.tsv")) as f:
        rows = [line.rstrip("\n").split("\t") for line in f][1:]
    for row in rows:
        name, fmt, negative = row[0], row[4], row[8]
        if not fmt.startswith("KDBX") or negative == "yes" or not name.endswith(".kdbx"):
            continue
        with open(os.path.join(CORPUS, name), "rb") as f:
            rec = header(f.read())
        out.write("\nfile = %s\n" % quote(name))
        for key, value in rec.items():
            out.write("%s = %s\n" % (key, quote(value) if key in ("cipher", "kdf") else value))


def main():
    with open(os.path.join(REPO, "Vectors/kdbx/corpus-keyfiles.vec"), "w") as out:
        write_keyfiles(out)
    with open(os.path.join(REPO, "Vectors/kdbx/corpus-headers.vec"), "w") as out:
        write_headers(out)


main()
