#!/usr/bin/env python3
"""Generate Vectors/demo/demo.kdbx (password `demo`): a realistic small vault for the README and the CLI.

Same pipeline and tools as ../kdbx/fixtures/make_fixtures.py (keepassxc-cli 2.7.4 imports our KeePass XML,
pykeepass 4.2.0 sets the header: KDBX 4.0, ChaCha20, Argon2id m = 16 MiB, t = 2, p = 2). The file holds groups,
entries with URLs, TOTP secrets in the three common storage formats (otpauth URI, KeePassXC's TOTP Seed/Settings,
KeePass 2.47's TimeOtp-*), attachments, history and a recycle bin. The expected content is written to
demo.kdbx.expected.json by pykeepass.
Usage: python3 make_demo.py            # demo.kdbx
       python3 make_demo.py --light    # demo-light.kdbx: the same content with Argon2id m = 1 MiB, for the debug
                                       # test suite (a debug build derives 16 MiB x 2 passes in about 2 s)
"""
import os
import sys
import tempfile
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "kdbx", "fixtures"))
import make_fixtures as fx  # noqa: E402

PASSWORD = "demo"


def demo_content():
    c = fx.Content(2026, "4.0")
    doc = ET.Element("KeePassFile")
    meta = c.sub(doc, "Meta")
    c.sub(meta, "Generator", "swift-kdbx make_demo.py")
    c.sub(meta, "DatabaseName", "Demo vault")
    c.sub(meta, "DatabaseDescription", "A small vault for trying swift-kdbx (password: demo)")
    c.sub(meta, "DefaultUserName", "alex")
    mp = c.sub(meta, "MemoryProtection")
    c.sub(mp, "ProtectPassword", "True")
    root_uuid, recycle_uuid = c.uuid(), c.uuid()
    c.sub(meta, "RecycleBinEnabled", "True")
    c.sub(meta, "RecycleBinUUID", recycle_uuid)
    c.sub(meta, "HistoryMaxItems", "10")
    c.sub(meta, "HistoryMaxSize", "6291456")
    binaries = c.sub(meta, "Binaries")
    c.sub(meta, "CustomData")

    rootnode = c.sub(doc, "Root")
    root = c.group(rootnode, root_uuid, "Demo vault")
    internet = c.group(root, c.uuid(), "Internet", icon=1, created=1)
    email = c.group(root, c.uuid(), "Email", icon=19, created=2)
    finance = c.group(root, c.uuid(), "Finance", icon=66, created=3)
    servers = c.group(root, c.uuid(), "Servers", icon=30, created=4)
    home = c.group(servers, c.uuid(), "Home", icon=30, created=5)

    github = c.uuid()
    history = [
        fx.Content.entry(c, ET.Element("History"), github, "GitHub", "alex", "hunter2", "https://github.com",
                         created=10, modified=10),
        fx.Content.entry(c, ET.Element("History"), github, "GitHub", "alex-dev", "Tr0ub4dor&3",
                         "https://github.com/login", created=10, modified=400),
    ]
    c.entry(internet, github, "GitHub", "alex-dev", "correct horse battery staple", "https://github.com/login",
            notes="Personal account. Recovery codes attached.",
            fields=[("otp", "otpauth://totp/GitHub:alex-dev?secret=JBSWY3DPEHPK3PXP&issuer=GitHub&period=30&digits=6",
                     True)],
            attachments=[("recovery-codes.txt", b"8f3a-1c2b\n77de-4410\n09ab-c3d2\n5e6f-7a8b\n")],
            tags="dev;2fa", created=10, modified=900, history=history, icon=1,
            custom_data=[("KPXC_DECRYPTION_TIME_PREFERENCE", "demo")])
    c.entry(internet, c.uuid(), "Wikipedia", "Alex", "w1k1-p4ss-for-demo", "https://en.wikipedia.org/wiki/Special:UserLogin",
            tags="reading", created=11, modified=11, icon=1)
    c.entry(internet, c.uuid(), "Shop", "alex@example.com", "sh0pp1ng-demo!", "https://shop.example.com",
            fields=[("KP2A_URL_1", "https://checkout.example.com", False)], created=12, modified=12)
    c.entry(email, c.uuid(), "Mailbox", "alex@example.com", "m41lb0x-demo", "https://mail.example.com",
            notes="KeePassXC-style TOTP fields.",
            fields=[("TOTP Seed", "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", True), ("TOTP Settings", "30;6", False)],
            created=13, modified=13, icon=19)
    c.entry(finance, c.uuid(), "Bank", "12345678", "b4nk-demo-pin", "https://bank.example.com/login",
            notes="KeePass 2.47-style TOTP fields.",
            fields=[("TimeOtp-Secret-Base32", "KRSXG5CTMVRXEZLUKN2XAZLSKNSWG4TFOQ", True),
                    ("TimeOtp-Length", "8", False), ("TimeOtp-Period", "30", False),
                    ("TimeOtp-Algorithm", "HMAC-SHA-256", False)],
            tags="finance", created=14, modified=14, icon=66)
    c.entry(finance, c.uuid(), "Credit card", "ALEX DEMO", "4111111111111111", "",
            fields=[("PIN", "0000", True), ("Expiry", "12/29", False)], created=15, modified=15, icon=66)
    c.entry(home, c.uuid(), "Router", "admin", "r0ut3r-demo", "http://192.168.1.1/",
            notes="The home router's admin page.", created=16, modified=16, icon=30)
    c.entry(servers, c.uuid(), "Build server", "deploy", "s3rv3r-demo", "ssh://build.example.com:2222",
            attachments=[("id_ed25519.pub", b"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDemoKeyOnlyNotRealAtAll alex@demo\n")],
            created=17, modified=17, icon=30)
    recycle = c.group(root, recycle_uuid, "Recycle Bin", icon=43, created=6)
    c.entry(recycle, c.uuid(), "Old forum", "alex", "f0rum-demo", "https://forum.example.net", created=18, modified=19)
    c.sub(rootnode, "DeletedObjects")

    import base64
    import gzip
    for index, data in enumerate(c.binaries):
        b = c.sub(binaries, "Binary", base64.b64encode(gzip.compress(data, mtime=0)).decode(), ID=str(index))
        b.set("Compressed", "True")
    ET.indent(doc, space="\t")
    return b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' + ET.tostring(doc, encoding="utf-8")


def main():
    light = "--light" in sys.argv[1:]
    name = "demo-light" if light else "demo"
    fix = dict(name=name, version="4.0", cipher="chacha20", kdf="argon2id")
    with tempfile.TemporaryDirectory() as workdir:
        xml_path = os.path.join(workdir, "demo.xml")
        with open(xml_path, "wb") as f:
            f.write(demo_content())
        imported = os.path.join(workdir, "demo.import.kdbx")
        fx.run(["keepassxc-cli", "import", "-q", "-p", xml_path, imported],
               f"{fx.IMPORT_PASSWORD}\n{fx.IMPORT_PASSWORD}\n")
        kp = fx.PyKeePass(imported, fx.IMPORT_PASSWORD)
        header = kp.kdbx.header.value
        header.minor_version = 0
        header.dynamic_header.cipher_id.data = fix["cipher"]
        fx.set_kdf(kp, fix["version"], fix["kdf"], memory=(1 << 20) if light else (16 << 20))
        kp.password = PASSWORD
        kp.keyfile = None
        out = os.path.join(HERE, name + ".kdbx")
        kp.save(out)
        fx.verify_and_dump(fix, out, PASSWORD, None)
    print("made", out)


if __name__ == "__main__":
    main()
