#!/usr/bin/env python3
"""Peak memory and time of `kdbx import` on the inputs of issue #39, at 1x, 10x and 100x.

Writes each input into OUTDIR (default .build/import-scaling), runs the release `kdbx import` on it under
`/usr/bin/time -v` (a new vault, AES-KDF with 1 round, password piped on standard input), and prints one table
row per input: the input's size, the exit status (0 imported, 1 refused: the first line of the message is shown),
the peak RSS (maximum resident set size), the peak RSS over the input's size, the CPU time (user + system: the
wall time depends on what else the machine runs) and the wall time.

Build first: swift build -c release --product kdbx
Run:         python3 Benchmarks/scripts/import_scaling.py [--scales 1,10,100] [--only NAME,...] [--timeout S]

The inputs (1x is the size the issue names; N x multiplies its count):
- csv-rows:          10,000 CSV rows of 8 typical fields (group path, title, user, password, URL, notes, TOTP, tags)
- csv-large-fields:  2,000 CSV rows with 14 KB of notes each (28 MB; 100x is 2.8 GB, beyond what the tool reads)
- csv-columns:       one row with 6,000 columns of the same name (custom fields made unique with " (n)")
- bitwarden-items:   400,000 minimal Bitwarden items ({"type":2,"name":"n"}), 5 MB
- bitwarden-fields:  one item with 4,000 custom fields of the same name
- bitwarden-folders: 60,000 folders, one item in each
- bitwarden-history: one item with 2,000 custom fields and 2,000 password-history rows (N x the rows)
- 1pux-references:   a 1PUX archive with one 64 MiB member (zeros, deflated to 64 KB) that 64 items reference
                     (N x the references: the member is inflated once and cached; the sum of the attachments
                     grows with the references)
- 1pux-items:        a 1PUX archive with 20,000 login items in one vault
- kdb1-empty:        a KeePass 1.x file of 1,000,000 empty entry records (6 MB; AES, 1 KDF round)
"""
import argparse, io, json, os, re, struct, subprocess, sys, time, zipfile, hashlib

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# Each generator writes its input to the open binary file `f` in pieces, so that 100x inputs (hundreds of MB) are
# never held in memory here.
def chunked(f, pieces, size=1 << 16):
    batch = []
    for piece in pieces:
        batch.append(piece)
        if len(batch) >= size:
            f.write(b"".join(batch))
            batch = []
    f.write(b"".join(batch))


def csv_rows(f, n):
    f.write(b"Group,Title,Username,Password,URL,Notes,TOTP,Tags\r\n")
    chunked(f, (f'Root/Work/Team {i % 50},Account {i},user{i}@example.org,pw-{i:08}-x7Q!,'
                f'https://site{i}.example.com/login,"note line one\nline two {i}",JBSWY3DPEHPK3PXP,a;b\r\n'.encode()
                for i in range(n)))


def csv_large_fields(f, n):
    f.write(b"Title,Password,Notes\n")
    chunked(f, (b't%d,p%d,"%s"\n' % (i, i, (b"note %d " % i) * 1500) for i in range(n)), size=256)


def csv_columns(f, n):
    f.write(b"Title" + b",X" * n + b"\r\nt" + b",v" * n + b"\r\n")


def bitwarden_items(f, n):
    f.write(b'{"encrypted":false,"folders":[],"items":[')
    chunked(f, ((b"," if i else b"") + b'{"type":2,"name":"n"}' for i in range(n)))
    f.write(b"]}")


def bitwarden_fields(f, n):
    f.write(b'{"encrypted":false,"items":[{"type":1,"name":"n","login":{},"fields":[')
    chunked(f, ((b"," if i else b"") + b'{"name":"f","value":"v","type":0}' for i in range(n)))
    f.write(b"]}]}")


def bitwarden_folders(f, n):
    f.write(b'{"encrypted":false,"folders":[')
    chunked(f, ((b"," if i else b"") + b'{"id":"f%d","name":"Folder %d"}' % (i, i) for i in range(n)))
    f.write(b'],"items":[')
    chunked(f, ((b"," if i else b"") + b'{"type":2,"name":"n%d","folderId":"f%d"}' % (i, i) for i in range(n)))
    f.write(b"]}")


def bitwarden_history(f, rows):
    f.write(b'{"encrypted":false,"items":[{"type":1,"name":"n","login":{"password":"p"},"fields":[')
    f.write(b",".join(b'{"name":"f%d","value":"v","type":0}' % i for i in range(2000)))
    f.write(b'],"passwordHistory":[')
    chunked(f, ((b"," if i else b"") + b'{"password":"p%d","lastUsedDate":"2023-01-01T00:00:00.000Z"}' % i
                for i in range(rows)))
    f.write(b"]}]}")


def onepux(f, items, files=()):
    """A 1PUX archive; `items` yields the JSON of each item (bytes)."""
    with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED, compresslevel=6) as z:
        def member(name):
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            return z.open(info, "w", force_zip64=True)
        with member("export.attributes") as m:
            m.write(b'{"version":3,"createdAt":1}')
        with member("export.data") as m:
            m.write(b'{"accounts":[{"attrs":{"accountName":"A"},"vaults":[{"attrs":{"name":"V"},"items":[')
            chunked(m, items)
            m.write(b"]}]}]}")
        for name, size in files:
            with member(name) as m:
                for _ in range(size >> 20):
                    m.write(bytes(1 << 20))


def pux_references(f, n):
    onepux(f, ((b"," if i else b"") + b'{"uuid":"u%d","state":"active","categoryUuid":"006","overview":{"title":"d%d"},'
               b'"details":{"documentAttributes":{"fileName":"big.bin","documentId":"big"}}}' % (i, i) for i in range(n)),
           [("files/big__big.bin", 64 << 20)])


def pux_items(f, n):
    onepux(f, ((b"," if i else b"") + (
        '{"uuid":"u%d","state":"active","categoryUuid":"001","overview":{"title":"Account %d",'
        '"url":"https://site%d.example.com/"},"details":{"loginFields":[{"designation":"username","value":"user%d"},'
        '{"designation":"password","value":"pw-%08d"}],"notesPlain":"note %d"}}' % (i, i, i, i, i, i)).encode()
        for i in range(n)))


def kdb1_empty(f, n):
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    seed, iv, tseed, rounds = bytes(16), bytes(range(16)), bytes(32), 1
    record = b"\xff\xff\0\0\0\0"
    digest = hashlib.sha256()
    for start in range(0, n, 1 << 20):
        digest.update(record * min(1 << 20, n - start))
    transformed = hashlib.sha256(b"pw").digest()
    ecb = Cipher(algorithms.AES(tseed), modes.ECB()).encryptor()
    for _ in range(rounds):
        transformed = ecb.update(transformed)
    key = hashlib.sha256(seed + hashlib.sha256(transformed).digest()).digest()
    header = struct.pack("<IIII", 0x9AA2D903, 0xB54BFB65, 3, 0x00030004) + seed + iv
    f.write(header + struct.pack("<II", 0, n) + digest.digest() + tseed + struct.pack("<I", rounds))
    enc = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    for start in range(0, n, 1 << 20):  # 1 Mi records = 6 MiB, a multiple of 16 bytes
        f.write(enc.update(record * min(1 << 20, n - start)))
    pad = 16 - (6 * n) % 16
    f.write(enc.update(bytes([pad]) * pad) + enc.finalize())


INPUTS = [
    ("csv-rows", lambda f, s: csv_rows(f, 10_000 * s)),
    ("csv-large-fields", lambda f, s: csv_large_fields(f, 2_000 * s)),
    ("csv-columns", lambda f, s: csv_columns(f, 6_000 * s)),
    ("bitwarden-items", lambda f, s: bitwarden_items(f, 400_000 * s)),
    ("bitwarden-fields", lambda f, s: bitwarden_fields(f, 4_000 * s)),
    ("bitwarden-folders", lambda f, s: bitwarden_folders(f, 60_000 * s)),
    ("bitwarden-history", lambda f, s: bitwarden_history(f, 2_000 * s)),
    ("1pux-references", lambda f, s: pux_references(f, 64 * s)),
    ("1pux-items", lambda f, s: pux_items(f, 20_000 * s)),
    ("kdb1-empty", lambda f, s: kdb1_empty(f, 1_000_000 * s)),
]


def human(n):
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, ".build", "import-scaling"))
    parser.add_argument("--scales", default="1,10,100")
    parser.add_argument("--only", default="")
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--kdbx", default=os.path.join(ROOT, ".build", "release", "kdbx"))
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    only = set(filter(None, args.only.split(",")))
    print("| input | scale | input size | result | peak RSS | RSS / input | CPU time | wall time |")
    print("|---|---|---|---|---|---|---|---|")
    for name, make in INPUTS:
        if only and name not in only:
            continue
        for scale in [int(s) for s in args.scales.split(",")]:
            path = os.path.join(args.out, f"{name}-{scale}x")
            with open(path, "wb") as f:
                make(f, scale)
            size = os.path.getsize(path)
            out = path + ".kdbx"
            if os.path.exists(out):
                os.remove(out)
            cmd = ["/usr/bin/time", "-v", args.kdbx, "import", path, out, "--kdf", "aes-kdf", "--rounds", "1"]
            started = time.monotonic()
            try:
                run = subprocess.run(cmd, input=b"pw\npw\n", capture_output=True, timeout=args.timeout)
                rc, err, stdout = run.returncode, run.stderr.decode(errors="replace"), run.stdout.decode(errors="replace")
            except subprocess.TimeoutExpired:
                rc, err, stdout = "timeout", "", ""
            wall = time.monotonic() - started
            m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", err)
            rss = int(m.group(1)) * 1024 if m else 0
            cpu = sum(float(x) for x in re.findall(r"(?:User|System) time \(seconds\): ([0-9.]+)", err))
            lines = [l for l in err.splitlines() if l.strip() and not l.startswith("\t") and "Command" not in l]
            if rc == 0:
                first = stdout.strip().splitlines()[0] if stdout.strip() else "imported"
                result = "imported: " + re.sub(r"^Imported \S+ \(", "(", first)[:70]
            else:
                message = lines[0].replace(path + ": ", "").replace("kdbx import: ", "") if lines else ""
                result = f"refused (exit {rc}): " + message[:150]
            result = result.replace("|", "/")
            print(f"| {name} | {scale}x | {human(size)} | {result} | {rss / 2**20:.0f} MiB | "
                  f"{rss / max(size, 1):.1f} | {cpu:.1f} s | {wall:.1f} s |", flush=True)
            if os.path.exists(out):
                os.remove(out)
            os.remove(path)


main()
