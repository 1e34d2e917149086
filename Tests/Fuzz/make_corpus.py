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


ONLY = set(sys.argv[1:])  # target names: regenerate only these (default: all)


def put(target, name, data):
    if ONLY and target not in ONLY:
        return
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
    for t in (ONLY or [None]):
        d = os.path.join(OUT, t) if t else OUT
        if os.path.isdir(d):
            shutil.rmtree(d)
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
    more_seeds(kdbx)
    import_seeds()
    for t in sorted(os.listdir(OUT)):
        print(t, len(os.listdir(os.path.join(OUT, t))), "files", sum(os.path.getsize(os.path.join(OUT, t, f)) for f in os.listdir(os.path.join(OUT, t))), "bytes")


def vec_hex(path, name):
    return [bytes.fromhex(m.group(1)) for m in re.finditer(r"^" + name + r" = ([0-9a-f]+)\s*$", open(path).read(), re.M)]


def more_seeds(kdbx):
    """Seeds of the inflate, otpauth and full-open targets."""
    import gzip, zlib
    # inflate: first byte = mode (bits 0-1: 0 raw, 1 gzip, 2 raw appended at an offset; bits 2-4: limit 64 << 2n).
    raw_mode, gzip_mode = 0x1C, 0x1D  # limit 1 MiB
    for path in sorted(glob.glob(os.path.join(ROOT, "Vectors/deflate/**/*.vec"), recursive=True)):
        base = os.path.basename(path)[:-4]
        for i, c in enumerate(vec_hex(path, "compressed")):
            put("inflate", f"{base}-{i:02}", bytes([gzip_mode if c[:2] == b"\x1f\x8b" else raw_mode]) + c)
    payloads = []
    try:
        from pykeepass import PyKeePass
        for name in ("kdbx40-aes256-argon2d", "kdbx41-chacha20-argon2id", "kdbx31-aes256-aeskdf"):
            kp = PyKeePass(os.path.join(ROOT, "Vectors/kdbx/fixtures", name + ".kdbx"), password="fixture")
            payloads.append((name, kp))
    except Exception as e:
        print("note: no decrypted seeds for inflate/full-open:", e, file=sys.stderr)
    for name, kp in payloads:
        xml = kp.xml()
        co = zlib.compressobj(6, zlib.DEFLATED, -15)
        put("inflate", f"{name}-raw", bytes([raw_mode]) + co.compress(xml) + co.flush())
        put("inflate", f"{name}-gzip", bytes([gzip_mode]) + gzip.compress(xml, mtime=0))
        put("inflate", f"{name}-small-limit", bytes([0x09]) + gzip.compress(xml, mtime=0))
    put("inflate", "two-members", bytes([gzip_mode]) + gzip.compress(b"abc", mtime=0) + gzip.compress(b"def", mtime=0))
    put("inflate", "offset", bytes([0x1E, 0x01]) + zlib.compressobj(9, zlib.DEFLATED, -15).compress(b"x" * 300) + b"")

    # otpauth: first byte = parser (0 URI, 1 KeeOTP, 2 TOTP Seed/Settings, 3 entry fields: selector byte + value).
    for i, uri in enumerate([
            "otpauth://totp/ACME%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&digits=8&period=30",
            "otpauth://hotp/Example:bob?secret=JBSWY3DPEHPK3PXP&counter=5",
            "otpauth://totp/Steam:bob?secret=JBSWY3DPEHPK3PXP&encoder=steam",
            "OTPAUTH://TOTP/x?secret=jbsw%20y3dp%3D%3D&algorithm=HMAC-SHA-256#frag",
            "otpauth://totp/?secret=GEZDGNBVGY3TQOJQ&algorithm=SHA512&digits=10&period=86400"]):
        put("otpauth", f"uri-{i}", b"\x00" + uri.encode())
    for i, s in enumerate(["key=JBSWY3DPEHPK3PXP&step=30&size=6&otpHashMode=Sha256",
                           "key=JBSWY3DPEHPK3PXP&type=hotp&counter=42", "key=GEZDGNBV GY3TQOJQ"]):
        put("otpauth", f"keeotp-{i}", b"\x01" + s.encode())
    for i, s in enumerate(["JBSWY3DPEHPK3PXP\n30;6", "JBSWY3DPEHPK3PXP\n30;S", "JBSWY3DPEHPK3PXP\n60;8;SHA256",
                           "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP"]):
        put("otpauth", f"legacy-{i}", b"\x02" + s.encode())
    # Field selectors are indices into OTPFieldNames.all (otp, TOTP Seed, TOTP Settings, TimeOtp-Secret,
    # -Secret-Hex, -Secret-Base32, -Secret-Base64, TimeOtp-Length, -Period, -Algorithm, HmacOtp-Secret, ...).
    put("otpauth", "entry-otp", b"\x03\x00otpauth://totp/a:b?secret=JBSWY3DPEHPK3PXP")
    put("otpauth", "entry-timeotp", b"\x03\x05JBSWY3DPEHPK3PXP\n\x078\n\x0860\n\x09HMAC-SHA-256")
    put("otpauth", "entry-hmacotp", b"\x03\x0c3132333435363738393031323334353637383930\n\x0e7")
    put("otpauth", "entry-legacy", b"\x03\x01JBSWY3DPEHPK3PXP\n\x0230;8")

    # full-open: first byte = mode (0 whole file, password `fixture`; 1 KDBX 4 payload; 2 KDBX 3.1 payload).
    for path in kdbx:
        name = os.path.basename(path)[:-5]
        if name.startswith("keyfile") or name in ("empty-password", "non-ascii-password", "demo"):
            continue
        put("full-open", name, b"\x00" + open(path, "rb").read())
    for name, kp in payloads:
        # pykeepass shows protected values in clear text: mark them unprotected, and drop the 3.1 header hash
        # (the sealed file has another header).
        xml = re.sub(rb"<HeaderHash>[^<]*</HeaderHash>", b"", kp.xml()).replace(b' Protected="True"', b"")
        if name.startswith("kdbx4"):
            ih = kp.kdbx.body.payload.inner_header
            inner = struct.pack("<BiI", 1, 4, 3) + struct.pack("<Bi", 2, 64) + bytes(ih.protected_stream_key.data)
            sid = {"none": 0, "arcfourvariant": 1, "salsa20": 2, "chacha20": 3}[str(ih.protected_stream_id.data)]
            inner = struct.pack("<BiI", 1, 4, sid) + inner[9:]
            for binary in ih.binary:
                d = bytes(binary.data)
                inner += struct.pack("<Bi", 3, len(d)) + d
            inner += struct.pack("<Bi", 0, 0)
            put("full-open", f"{name}-payload-aes", b"\x01" + inner + xml)
            put("full-open", f"{name}-payload-chacha-gzip", b"\x0d" + inner + xml)
        else:
            put("full-open", f"{name}-payload-twofish", b"\x12" + xml)
            put("full-open", f"{name}-payload-aes-gzip", b"\x06" + xml)

    deflate_seeds(docs_for_deflate())


def docs_for_deflate():
    """Texts for the deflate-roundtrip seeds: XML documents of the vectors, joined, and a few hand-made inputs."""
    joined = b"".join(doc for _, doc in vec_documents())
    return [("vec-xml", joined[:60000]), ("vec-xml-small", joined[:3000]), ("text", b"the entry password group " * 40),
            ("zeros", b"\0" * 5000), ("bytes", bytes(range(256)) * 8), ("empty", b""), ("one", b"a")]


def deflate_seeds(texts):
    # deflate-roundtrip: byte 0 = level (mod 10), byte 1 = mode (bits 0-1: one piece, pieces, repeated, gzip of
    # pieces; bits 2-7: piece unit), then the data.
    for name, text in texts:
        for level in (1, 6, 9):
            put("deflate-roundtrip", f"{name}-l{level}", bytes([level, 0]) + text)
        put("deflate-roundtrip", f"{name}-pieces", bytes([6, 1 | 3 << 2]) + text)
        put("deflate-roundtrip", f"{name}-gzip", bytes([6, 3 | 1 << 2]) + text)
    put("deflate-roundtrip", "repeated", bytes([6, 2]) + b"<Entry><String><Key>Title</Key></String></Entry>\n" * 3)
    put("deflate-roundtrip", "stored", bytes([0, 0]) + bytes(range(256)))


def import_seeds():
    """Seeds of the import targets: the import fixtures of Vectors/tools/import_fixtures.py (CSV, Bitwarden JSON,
    1PUX), a few hand-made variants, and hand-made KeePass 1.x record lists (groups at levels, entries with times,
    an attachment, auto-type lines, the KeePassX meta-streams)."""
    import subprocess, tempfile, zipfile, io, json
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(ROOT, "Vectors/tools/import_fixtures.py"), tmp], check=True)
        for name in sorted(os.listdir(tmp)):
            data = open(os.path.join(tmp, name), "rb").read()
            target = {".csv": "import-csv", ".json": "import-bitwarden", ".1pux": "import-1pux"}.get(os.path.splitext(name)[1])
            if target:
                put(target, name, data)
    put("import-csv", "keepassxc", b'"Group","Title","Username","Password","URL","Notes","TOTP","Icon","Last Modified","Created"\n'
        b'"Root/Work/Mail","Mail","ada","pw","https://m.example","a\nb","otpauth://totp/x?secret=JBSWY3DPEHPK3PXP","3",'
        b'"2024-01-02T03:04:05Z","2023-01-02T03:04:05Z"\n"Root","Bank","b","p2","","","JBSWY3DPEHPK3PXP","70","",""\n')
    put("import-csv", "mapped", b"\x01\x91Label,Secret,Site,Folder\nMail,m4il,https://mail.example,a/b/c\n")
    put("import-csv", "extra-columns", b"Title,Password,PIN,PIN,Tags\nx,y,1,2,a;b,c\n")
    put("import-bitwarden", "folders-fields", json.dumps({"encrypted": False, "folders": [{"id": "f1", "name": "a/b"}],
        "items": [{"id": "i1", "type": 1, "name": "n", "folderId": "f1", "favorite": True, "notes": None,
                   "fields": [{"name": "x", "value": "1", "type": 0}, {"name": "x", "value": None, "type": 1},
                              {"name": "otp", "value": "v", "type": 0}],
                   "login": {"username": "u", "password": "p", "totp": "JBSWY3DPEHPK3PXP",
                             "uris": [{"uri": "https://a.example", "match": 1}], "passwordRevisionDate": "2024-01-01T00:00:00.000Z"},
                   "passwordHistory": [{"password": "old", "lastUsedDate": "2023-01-01T00:00:00.000Z"}],
                   "revisionDate": "2024-02-01T00:00:00.000Z", "deletedDate": None}]}).encode())
    buf = io.BytesIO()
    def info(name):  # a fixed date, so that the seed is the same on every run
        return zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))

    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(info("export.attributes"), json.dumps({"version": 3, "description": "1PUX", "createdAt": 1}))
        z.writestr(info("export.data"), json.dumps({"accounts": [{"attrs": {"accountName": "A"}, "vaults": [{"attrs": {"name": "V"},
            "items": [{"uuid": "u1", "state": "active", "categoryUuid": "001", "overview": {"title": "t", "url": "https://x"},
                       "details": {"loginFields": [{"designation": "password", "value": "p"}], "documentAttributes":
                                   {"fileName": "f.txt", "documentId": "d1"}}}]}]}]}))
        z.writestr(info("files/d1__f.txt"), b"hello" * 10, zipfile.ZIP_DEFLATED)
    put("import-1pux", "minimal-with-file", buf.getvalue())

    def field(t, data):
        return struct.pack("<HI", t, len(data)) + data

    end = field(0xFFFF, b"")
    when = bytes([0x1F, 0x9E, 0x3A, 0x54, 0xC5])  # 2023-ish packed time
    never = bytes([0x2E, 0xDF, 0xB9, 0x7E, 0xFB])  # 2999-12-28 23:59:59

    def group(gid, name, level, flags=0):
        return (field(1, struct.pack("<I", gid)) + field(2, name + b"\0") + field(3, when) + field(4, when)
                + field(5, when) + field(6, never) + field(7, struct.pack("<I", 1)) + field(8, struct.pack("<H", level))
                + field(9, struct.pack("<I", flags)) + end)

    def entry(uuid, gid, title, notes=b"", binary=None, desc=b"", user=b"u", url=b"https://e.example", image=0):
        e = (field(1, uuid) + field(2, struct.pack("<I", gid)) + field(3, struct.pack("<I", image)) + field(4, title + b"\0")
             + field(5, url + b"\0") + field(6, user + b"\0") + field(7, b"pw\0") + field(8, notes + b"\0")
             + field(9, when) + field(10, when) + field(11, when) + field(12, never) + field(13, desc + b"\0"))
        if binary is not None:
            e += field(14, binary)
        return e + end

    groups = group(1, b"General", 0, 1) + group(2, b"Sub", 1) + group(3, b"Backup", 0)
    entries = (entry(b"\x01" * 16, 1, b"Mail", b"Auto-Type: {USERNAME}{TAB}{PASSWORD}{ENTER}\nAuto-Type-Window: Mail*")
               + entry(b"\x02" * 16, 2, b"File", binary=b"attachment", desc=b"a.txt")
               + entry(b"\x01" * 16, 9, b"dup uuid \xff\x01"))
    icons = struct.pack("<III", 1, 1, 1) + struct.pack("<I", 4) + b"\x89PNG" + b"\x02" * 16 + struct.pack("<I", 0) + struct.pack("<II", 2, 0)
    meta = (entry(b"\x03" * 16, 1, b"Meta-Info", b"KPX_CUSTOM_ICONS_4", icons, b"bin-stream", b"SYSTEM", b"$")
            + entry(b"\x04" * 16, 1, b"Meta-Info", b"KPX_GROUP_TREE_STATE", struct.pack("<I", 1) + struct.pack("<IB", 2, 1),
                    b"bin-stream", b"SYSTEM", b"$"))
    # byte 0: group records; byte 1: bit 0 Twofish, bit 1 one entry more than the records
    put("kdb1-records", "groups-entries-meta", bytes([3, 0]) + groups + entries + meta)
    put("kdb1-records", "twofish", bytes([3, 1]) + groups + entries)
    put("kdb1-records", "entries-only", bytes([0, 0]) + entries)
    put("kdb1-records", "empty-records", bytes([2, 0]) + field(1, struct.pack("<I", 5)) + field(8, b"\0\0") + end + end * 3)
    put("kdb1-records", "bad-level", bytes([2, 0]) + group(1, b"a", 0) + group(2, b"b", 2))
    put("kdb1-records", "count-lies", bytes([3, 2]) + groups + entries)


main()
