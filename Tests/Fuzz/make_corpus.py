#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (Tests/Fuzz/corpus/<target>/) from our fixtures.

SOURCE: Vectors/xml/*.vec (documents), Vectors/kdbx/fixtures/*.kdbx (outer headers, KDF VariantDictionaries; the
KDBX 4 inner headers and the database XML as decrypted by pykeepass 4.2.0 with the fixtures' password `fixture`),
Vectors/kdbx/fixtures/keys/* (key files), Vectors/demo/demo.kdbx, plus small hand-written inputs (encodings, URLs,
hashed block streams built with Python's hashlib). Re-run: python3 Tests/Fuzz/make_corpus.py
"""
import codecs, glob, hashlib, os, re, shutil, struct, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(HERE, "corpus")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def vec_documents():
    docs = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors/xml/*.vec"))):
        for m in re.finditer(r'^document = "((?:[^"\\]|\\.)*)"\s*$', open(path, encoding="utf-8").read(), re.M):
            raw = m.group(1).encode("utf-8")
            docs.append((os.path.basename(path)[:-4], codecs.escape_decode(raw)[0]))
    return docs


def header_end(data):
    """Offset just past the end-of-header field of a KDBX 3.x/4.x file, and the fields."""
    major = struct.unpack_from("<H", data, 10)[0]
    off, fields = 12, {}
    while True:
        fid = data[off]
        if major >= 4:
            n = struct.unpack_from("<I", data, off + 1)[0]; off += 5
        else:
            n = struct.unpack_from("<H", data, off + 1)[0]; off += 3
        fields[fid] = data[off:off + n]; off += n
        if fid == 0:
            return off, major, fields


def hashed_stream(payload, block):
    out, i, idx = b"", 0, 0
    while i < len(payload):
        chunk = payload[i:i + block]
        out += struct.pack("<I", idx) + hashlib.sha256(chunk).digest() + struct.pack("<i", len(chunk)) + chunk
        i += block; idx += 1
    return out + struct.pack("<I", idx) + b"\0" * 32 + struct.pack("<i", 0)


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    docs = vec_documents()
    keys = sorted(glob.glob(os.path.join(ROOT, "Vectors/kdbx/fixtures/keys/*")))
    for i, (src, doc) in enumerate(docs):
        put("xml-tree", f"{src}-{i:02}", doc)
        put("xml-reader", f"{src}-{i:02}", bytes([i % 8]) + doc)
    for k in keys:
        data = open(k, "rb").read()
        put("key-file", os.path.basename(k), data)
        if data.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"<"):
            put("xml-tree", "key-" + os.path.basename(k), data.lstrip(b"\xef\xbb\xbf"))
    put("key-file", "hex64-upper", b"0123456789ABCDEF" * 4)
    put("key-file", "short", b"key")

    kdbx = sorted(glob.glob(os.path.join(ROOT, "Vectors/kdbx/fixtures/*.kdbx"))) + [os.path.join(ROOT, "Vectors/demo/demo.kdbx")]
    seen_vd = set()
    for path in kdbx:
        data = open(path, "rb").read()
        end, major, fields = header_end(data)
        name = os.path.basename(path)[:-5]
        put("outer-header", name, data[:end + 64])  # header + KDBX 4 SHA-256 and HMAC (or payload start)
        for fid in (11, 12):
            if major >= 4 and fid in fields:
                vd = fields[fid]
                # The KDF dictionaries differ only in their seeds; keep one per KDF/shape.
                shape = (fid, len(vd), vd[:40])
                if shape not in seen_vd:
                    seen_vd.add(shape)
                    put("variant-dictionary", f"{name}-field{fid}", vd)

    # Decrypted content: the KDBX 4 inner header and the database XML of a few fixtures.
    try:
        from pykeepass import PyKeePass
        for name in ("kdbx40-aes256-argon2d", "kdbx41-chacha20-argon2id", "kdbx31-aes256-aeskdf", "unknown-elements"):
            kp = PyKeePass(os.path.join(ROOT, "Vectors/kdbx/fixtures", name + ".kdbx"), password="fixture")
            xml = kp.xml()
            put("database-xml", name, xml)
            if name.startswith("kdbx4"):
                ih = kp.kdbx.body.payload.inner_header
                sid = {"none": 0, "arcfourvariant": 1, "salsa20": 2, "chacha20": 3}[str(ih.protected_stream_id.data)]
                b = struct.pack("<BiI", 1, 4, sid) + struct.pack("<Bi", 2, 64) + bytes(ih.protected_stream_key.data)
                for binary in ih.binary:
                    d = bytes(binary.data)[:200]
                    b += struct.pack("<Bi", 3, len(d)) + d
                put("inner-header", name, b + struct.pack("<Bi", 0, 0))
    except Exception as e:  # pykeepass missing: the hand-written seeds below still exist
        print("note: no decrypted seeds:", e, file=sys.stderr)
    put("inner-header", "minimal", struct.pack("<BiI", 1, 4, 3) + struct.pack("<Bi", 2, 64) + b"\x11" * 64 + struct.pack("<Bi", 0, 0))
    put("inner-header", "binaries", struct.pack("<BiI", 1, 4, 2) + struct.pack("<Bi", 2, 32) + b"\x22" * 32
        + struct.pack("<Bi", 3, 1) + b"\x01" + struct.pack("<Bi", 3, 4) + b"\x00abc" + struct.pack("<Bi", 0, 0))
    put("database-xml", "minimal", b"<KeePassFile><Meta><Binaries><Binary ID=\"0\" Compressed=\"False\">AQID</Binary></Binaries></Meta>"
        b"<Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID><Name>r</Name><Entry><UUID>AQAAAAAAAAAAAAAAAAAAAA==</UUID>"
        b"<String><Key>Password</Key><Value Protected=\"True\">c2VjcmV0</Value></String><Binary><Key>a</Key><Value Ref=\"0\"/></Binary>"
        b"<Times><LastModificationTime>2024-01-01T00:00:00Z</LastModificationTime></Times>"
        b"<History><Entry><UUID>AQAAAAAAAAAAAAAAAAAAAA==</UUID></Entry></History></Entry></Group>"
        b"<DeletedObjects><DeletedObject><UUID>AgAAAAAAAAAAAAAAAAAAAA==</UUID><DeletionTime>mMpU3w4AAAA=</DeletionTime></DeletedObject></DeletedObjects></Root></KeePassFile>")

    for i, text in enumerate([b"JBSWY3DPEHPK3PXP", b"MZXW6YTBOI======", b"mzxw6ytboi", b"GEZDGNBV GY3TQOJQ",
                              b"Zm9vYmFy", b"Zm9vYg==", b"Zm9vYmE=", b" Zm9v\nYmFy ", b"AAECAwQFBgcICQ==",
                              b"00ff10a0", b"DEADBEEF", b"0", b""]):
        put("encodings", f"seed-{i:02}", text)

    for i, url in enumerate([b"https://www.example.com/login?x=1#top", b"example.com", b"example.com:8443/a",
                             b"http://user:pw@[::1]:8080/p", b"ftp://192.168.0.1", b"  HTTPS://Example.CO.UK./ ",
                             b"android://com.example.app", b"https://a.b.c.d.github.io:443/", b"ssh://host:22",
                             b"https://xn--bcher-kva.example/", b"https://\xc3\xa9x.example/"]):
        put("web-address", f"seed-{i:02}", url)

    payload = b"<KeePassFile><Root/></KeePassFile>" * 3
    put("hashed-block-stream", "one-block", b"\x00" + hashed_stream(payload, 1 << 20))
    put("hashed-block-stream", "small-blocks", b"\x00" + hashed_stream(payload, 16))
    put("hashed-block-stream", "empty", b"\x00" + hashed_stream(b"", 16))
    put("hashed-block-stream", "roundtrip", b"\x01\x07\x03" + payload)
    for t in sorted(os.listdir(OUT)):
        print(t, len(os.listdir(os.path.join(OUT, t))), "files", sum(os.path.getsize(os.path.join(OUT, t, f)) for f in os.listdir(os.path.join(OUT, t))), "bytes")


main()
