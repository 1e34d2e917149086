#!/usr/bin/env python3
"""One comparison table: our kdbx-bench figures against the native anchors installed on this machine.

Usage: compare.py [--bench PATH] [--kdbx PATH] [--baseline DIR] [--all] [--rounds N]
                  [--markdown | --write-readme README.md] [--only SUBSTR ...]

  --bench PATH   the kdbx-bench binary (default .build/release/kdbx-bench; build it with
                 `swift build -c release --product kdbx-bench`)
  --kdbx PATH    the kdbx binary for the whole-process figures (default: kdbx beside the kdbx-bench binary;
                 `swift build -c release --product kdbx`); they run on ../shared/corpus/generated/large_5000.kdbx
                 against keepassxc-cli
  --baseline DIR an earlier build to compare with: DIR holds its kdbx-bench and kdbx (copy them there before
                 changing the code). The table gets before / after columns, measured alternately in the same run.
  --all          also every other kdbx-bench line (no anchor; with --baseline, to see that nothing regressed)
  --rounds N     how many times ours and the anchors run, alternately (default 3); each figure is the
                 median of the N rounds (and each round is itself a median inside the tool that ran it)
  --markdown     print the README's performance section (date, machine, load, table) instead of a plain table
  --write-readme PATH
                 the same, written into PATH between the lines "<!-- compare.py begin -->" and
                 "<!-- compare.py end -->" (the README's generated section)
  --only SUBSTR  keep only the figures whose name, kdbx-bench line or anchor group contains SUBSTR (repeatable;
                 `--only sign` gives the signature rows, whose anchor groups are gcrypt_sign and openssl_sign)

The DEFLATE rows compare our levels 1, 6 and 9 and inflate with libdeflate (Benchmarks/scripts/libdeflate_bench.c,
built here with `gcc -O2 ... -ldeflate`; `apt-get install libdeflate-dev`) and zlib, for speed and for size (a size
ratio is the anchor's size over ours: above 1, ours is smaller), on the 50 MB document and on large_5000's inner XML
(`kdbx-bench --write-large-document`).

The signature rows (issue 37) compare our p256-sign, p256-verify, ed25519-sign and ed25519-verify (operations per
second, kdbx-bench's median) with libgcrypt, what KeePassXC links (Benchmarks/native/gcrypt_sign_bench.c, built
here with `gcc -O2 ... -lgcrypt`; `apt-get install libgcrypt20-dev`; best of 5 runs of 1 s per operation, all
CPU features on), and with `openssl speed -seconds 1 -elapsed ed25519` and `... ecdsap256` (its "sign/s verify/s"
table, wall clock). Goals: P-256 sign at least libgcrypt's rate, Ed25519 sign at least half OpenSSL's; the other
signature rows are for information. Ours signs SHA-256 of a 65-byte message (ECDSA) or the message itself
(Ed25519); libgcrypt and OpenSSL's ECDSA sign a given 32- or 20-byte digest, so ours does one short hash more.

The anchors are the helpers of ../shared/bench/anchors.sh (anchors-c/): libsodium, OpenSSL's `speed` with AES-NI
masked (its bitsliced decryption), libxml2's SAX2 parser, zlib, libgcrypt's portable code. Binaries that
anchors.sh built ($PA_WORK/bin, default /dev/shm/perf-anchors/bin) are used as they are; missing ones are compiled
into a scratch directory when the headers are installed. An anchor that cannot run is shown as "skipped", with the
reason. Throughputs are MB/s (1e6 bytes per second); kdbx-bench's MiB/s are converted. Ratio is always our speed
over the anchor's (above 1: we are faster), so times are inverted. Measuring tool only: nothing here is part of
the library.
"""
import datetime
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", ".."))
MIB = 1048576 / 1e6  # MiB/s -> MB/s


def deflate_figures():
    """The DEFLATE rows against libdeflate (Benchmarks/scripts/libdeflate_bench.c) and zlib, levels 1, 6 and 9, speed
    and size, on the 50 MB document and on large_5000's inner XML. Goals (issue 38): level 6 at least 0.8x libdeflate
    level 6's speed and no larger; level 1 at least zlib level 1's speed and no larger; level 9 no larger than zlib
    9; inflate at least libdeflate's speed."""
    rows = []
    for title, suffix, key in (("KeePass XML 50 MB", "keepass50MB", ""), ("large_5000 XML", "large5000xml", "-large")):
        def row(name, line, kind, anchor, goal, note):
            rows.append((f"{name}, {title}", line, kind, anchor + key if anchor else None, goal, note))
        row("inflate vs libdeflate", f"inflate-{suffix}", "rate", "libdeflate:inflate-fresh", 1.0,
            "libdeflate, into a new buffer as ours")
        row("inflate vs libdeflate, its buffer reused", f"inflate-{suffix}", "rate", "libdeflate:inflate-reused", None,
            "libdeflate, one warm output buffer")
        for level in (1, 6, 9):
            line = f"deflate-l{level}-{suffix}"
            speed_goal = {1: (None, 1.0), 6: (0.8, None), 9: (None, None)}[level]
            size_goal = {1: (None, 1.0), 6: (1.0, None), 9: (None, 1.0)}[level]
            row(f"deflate level {level} vs libdeflate {level}", line, "rate", f"libdeflate:deflate{level}",
                speed_goal[0], "libdeflate")
            row(f"deflate level {level} size vs libdeflate {level}", "size:" + line, "size", f"libdeflate:size{level}",
                size_goal[0], "libdeflate")
            if not (level == 6 and key == ""):  # the row "deflate level 6, KeePass XML 50 MB" below
                row(f"deflate level {level} vs zlib {level}", line, "rate", f"zlib:deflate{level}", speed_goal[1],
                    "zlib")
            row(f"deflate level {level} size vs zlib {level}", "size:" + line, "size", f"zlib:size{level}",
                size_goal[1], "zlib")
    return rows


DEFLATE_FIGURES = deflate_figures()

# figure name, our kdbx-bench line, our unit kind, anchor key, goal (ratio ours/anchor), note
FIGURES = [
    ("ChaCha20 16 MiB", "chacha20-16MiB", "rate", "sodium:chacha20-ietf", 0.8, "libsodium (AVX2)"),
    ("Salsa20 16 MiB", "salsa20-16MiB", "rate", "sodium:salsa20", 0.8, "libsodium (AVX2)"),
    ("BLAKE2b 16 MiB", "blake2b-16MiB", "rate", "sodium:blake2b-512", 1.0, "libsodium (AVX2)"),
    ("SHA-256 16 MiB", "sha256-16MiB", "rate", "sodium:sha256(C)", 1.0, "libsodium portable C"),
    ("SHA-512 16 MiB", "sha512-16MiB", "rate", "sodium:sha512(C)", 1.0, "libsodium portable C"),
    ("AES-256-CBC decrypt", "aes256-cbc-decrypt-16MiB", "rate", "openssl:bsaes-dec", 0.8,
     "OpenSSL bitsliced, AES-NI masked"),
    ("AES-256-CBC decrypt, constant-time", "aes256-ct-cbc-decrypt-16MiB", "rate", "openssl:bsaes-dec", None,
     "OpenSSL bitsliced, AES-NI masked"),
    ("AES-256-CBC encrypt", "aes256-cbc-encrypt-16MiB", "rate", "openssl:vpaes-enc", None,
     "OpenSSL vpaes, AES-NI masked"),
    ("Twofish-CBC decrypt", "twofish-cbc-decrypt-16MiB", "rate", "gcrypt:twofish256-cbc-dec", 1.0,
     "libgcrypt, SIMD off"),
    ("AES-KDF rounds, 1 thread", "aes-kdf-1thread", "rounds", "aeskdf:ttable", 1.0, "C T-table"),
    ("Argon2id 64 MiB t=2 p=1, cold", "argon2id-64MiB-t2-p1-cold", "time", "sodium:argon2id-64-2", 1.0,
     "libsodium crypto_pwhash"),
    ("inflate, KeePass XML 50 MB", "inflate-keepass50MB", "rate", "zlib:inflate", 1.0, "zlib"),
    ("deflate level 6, KeePass XML 50 MB", "deflate-l6-keepass50MB", "rate", "zlib:deflate6", 1.0, "zlib"),
] + DEFLATE_FIGURES + [
    ("XML reader events, 50 MB", "xml-reader-events", "rate", "xml:libxml2-sax2", 0.8, "libxml2 SAX2"),
    # Signatures (issue 37): operations per second, ratio = our rate over the anchor's.
    ("P-256 ECDSA sign vs libgcrypt", "p256-sign", "ops", "gcrypt_sign:p256-sign", 1.0,
     "libgcrypt; ratio: our op/s over its"),
    ("P-256 ECDSA verify vs libgcrypt", "p256-verify", "ops", "gcrypt_sign:p256-verify", None, "libgcrypt"),
    ("P-256 ECDSA sign vs OpenSSL", "p256-sign", "ops", "openssl_sign:p256-sign", None, "OpenSSL speed ecdsap256"),
    ("P-256 ECDSA verify vs OpenSSL", "p256-verify", "ops", "openssl_sign:p256-verify", None,
     "OpenSSL speed ecdsap256"),
    ("Ed25519 sign vs OpenSSL", "ed25519-sign", "ops", "openssl_sign:ed25519-sign", 0.5,
     "OpenSSL speed ed25519; ratio: our op/s over its"),
    ("Ed25519 verify vs OpenSSL", "ed25519-verify", "ops", "openssl_sign:ed25519-verify", None,
     "OpenSSL speed ed25519"),
    ("Ed25519 sign vs libgcrypt", "ed25519-sign", "ops", "gcrypt_sign:ed25519-sign", None, "libgcrypt"),
    ("Ed25519 verify vs libgcrypt", "ed25519-verify", "ops", "gcrypt_sign:ed25519-verify", None, "libgcrypt"),
    ("open large_5000, in process", "kdbx-open-large5000", "time", None, None, "goal: at most 90 ms"),
    # Whole processes on ../shared/corpus/generated/large_5000.kdbx: `kdbx` against keepassxc-cli.
    ("large_5000 open + ls -R, whole process", "process:ls", "time", "kpxc:ls", 4.0, "keepassxc-cli ls -R"),
    ("large_5000 open + mkdir + save, whole process", "process:mkdir", "time", "kpxc:mkdir", 4.0,
     "keepassxc-cli mkdir"),
    ("large_5000 ls -R, peak RSS", "process:rss", "memory", "kpxc:rss", 1 / 0.6, "keepassxc-cli ls -R"),
]
LARGE = os.path.join(REPO, "..", "shared", "corpus", "generated", "large_5000.kdbx")
LARGE_PASSWORD = b"bench\n"


def run(cmd, env=None, timeout=900):
    merged = dict(os.environ)
    if env:
        merged.update(env)
    return subprocess.run(cmd, capture_output=True, text=True, env=merged, timeout=timeout)


def find_anchor_dir():
    for candidate in (os.environ.get("PA_DIR"), os.path.join(REPO, "..", "shared", "bench"),
                      os.path.join(REPO, "..", "..", "shared", "bench")):
        if candidate and os.path.exists(os.path.join(candidate, "anchors.sh")):
            return os.path.normpath(candidate)
    return None


class Anchors:
    """Builds (or finds) the anchor helpers and runs them, one group per call."""

    def __init__(self, scratch):
        self.dir = find_anchor_dir()
        self.scratch = scratch
        self.prebuilt = os.path.join(os.environ.get("PA_WORK", "/dev/shm/perf-anchors"), "bin")
        self.skipped = {}
        self.binaries = {}
        self.document = None

    def binary(self, name, sources, libs, cflags=(), source_dir=None):
        if name in self.binaries:
            return self.binaries[name]
        path = os.path.join(self.prebuilt, name)
        if not os.access(path, os.X_OK):
            path = None
            if source_dir is None and self.dir is None:
                self.skipped[name] = "anchors.sh not found (../shared/bench)"
            elif shutil.which("gcc") is None:
                self.skipped[name] = "gcc not installed"
            else:
                out = os.path.join(self.scratch, name)
                where = source_dir or os.path.join(self.dir, "anchors-c")
                args = ["gcc", "-O2"] + list(cflags) + [os.path.join(where, s) for s in sources] + ["-o", out]
                result = run(args + libs)
                if result.returncode == 0:
                    path = out
                else:
                    first = (result.stderr.strip().splitlines() or ["build failed"])[0]
                    self.skipped[name] = "build failed: " + first[-90:]
        self.binaries[name] = path
        return path

    def sodium(self):
        exe = self.binary("sodium_bench", ["sodium_bench.c"], ["-lsodium"])
        if exe is None:
            return {}
        values = {}
        for line in run([exe, "3", "quick"]).stdout.splitlines():
            m = re.match(r"sodium (\S+)\s+median_MBps=([\d.]+)", line)
            if m:
                values["sodium:" + m.group(1)] = float(m.group(2))
            m = re.match(r"sodium argon2id m_MiB=64 t=2 p=1 median_s=([\d.]+)", line)
            if m:
                values["sodium:argon2id-64-2"] = float(m.group(1)) * 1e3
        return values

    def openssl(self):
        if shutil.which("openssl") is None:
            self.skipped["openssl"] = "openssl not installed"
            return {}
        values = {}
        # -elapsed: wall-clock time like every other figure here (by default `speed` divides by user CPU time).
        # Word 0 clears AES-NI and PCLMUL; word 1 must be given (":~0") or OpenSSL 3.0 zeroes it (see anchors.sh).
        cap = {"OPENSSL_ia32cap": "~0x200000200000000:~0"}
        for key, extra in (("openssl:bsaes-dec", ["-decrypt"]), ("openssl:vpaes-enc", [])):
            out = run(["openssl", "speed", "-evp", "aes-256-cbc", "-bytes", "16384", "-seconds", "1", "-elapsed", "-mr"] + extra,
                      env=cap).stdout
            m = re.search(r"^\+F:\d+:[^:]+:([\d.]+)", out, re.M)
            if m:
                values[key] = float(m.group(1)) / 1e6
        return values

    def gcrypt(self):
        exe = self.binary("gcrypt_bench", ["gcrypt_bench.c"], ["-lgcrypt"])
        if exe is None:
            return {}
        hwf = "intel-avx2,intel-avx,intel-aesni,intel-shaext,intel-vaes-vpclmul,intel-ssse3,intel-pclmul,intel-avx512"
        values = {}
        for line in run([exe, "", "3"], env={"GCRY_DISABLE_HWF": hwf}).stdout.splitlines():
            m = re.match(r"gcrypt (\S+)\s+median_MBps=\s*([\d.]+)", line)
            if m:
                values["gcrypt:" + m.group(1)] = float(m.group(2))
        return values

    def gcrypt_sign(self):
        """libgcrypt's ECDSA P-256 and Ed25519 sign and verify (Benchmarks/native/gcrypt_sign_bench.c): operations
        per second, best of 5 runs of about 1 s each."""
        exe = self.binary("gcrypt_sign_bench", ["gcrypt_sign_bench.c"], ["-lgcrypt"],
                          source_dir=os.path.join(REPO, "Benchmarks", "native"))
        if exe is None:
            return {}
        values = {}
        for line in run([exe]).stdout.splitlines():
            m = re.match(r"gcrypt-(\S+)\t([\d.]+)\t", line)
            if m:
                values["gcrypt_sign:" + m.group(1)] = float(m.group(2))
        if not values:
            self.skipped["gcrypt_sign_bench"] = "gcrypt_sign_bench printed no figure"
        return values

    def openssl_sign(self):
        """`openssl speed -seconds 1 -elapsed ed25519` and `... ecdsap256`: the sign/s and verify/s of the table
        line " 253 bits EdDSA (Ed25519)   0.0000s   0.0001s  20000.0   8000.0" (and "256 bits ecdsa (nistp256)")."""
        if shutil.which("openssl") is None:
            self.skipped["openssl_sign"] = "openssl not installed"
            return {}
        values = {}
        for algorithm, label, key in (("ed25519", "(Ed25519)", "ed25519"), ("ecdsap256", "(nistp256)", "p256")):
            out = run(["openssl", "speed", "-seconds", "1", "-elapsed", algorithm]).stdout
            for line in out.splitlines():
                m = re.search(r"bits .*" + re.escape(label) + r"\s+[\d.]+s\s+[\d.]+s\s+([\d.]+)\s+([\d.]+)\s*$", line)
                if m:
                    values[f"openssl_sign:{key}-sign"] = float(m.group(1))
                    values[f"openssl_sign:{key}-verify"] = float(m.group(2))
            if f"openssl_sign:{key}-sign" not in values:
                self.skipped["openssl_sign"] = f"`openssl speed {algorithm}` printed no sign/s verify/s line"
        return values

    def aeskdf(self):
        # Flags as anchors.sh builds it: the file also holds an AES-NI variant (not run here).
        exe = self.binary("aeskdf", ["aeskdf.c"], ["-lcrypto", "-lpthread"], ["-maes", "-msse4.1"])
        if exe is None:
            return {}
        m = re.search(r"impl=ttable threads=1 .*rounds_per_s=([\d.]+)", run([exe, "ttable", "0", "3", "1"]).stdout)
        return {"aeskdf:ttable": float(m.group(1))} if m else {}

    def xml(self, document):
        exe = self.binary("xml_bench", ["xml_bench.c"], ["-lexpat"] + libxml2_flags())
        if exe is None or document is None:
            return {}
        m = re.search(r"parser=libxml2-sax2 .*median_MBps=([\d.]+)", run([exe, document, "3"]).stdout)
        return {"xml:libxml2-sax2": float(m.group(1))} if m else {}

    def zlib(self, document, large=None):
        """Python's zlib (the C library, called in process): inflate of its level-6 output and deflate at levels 1, 6
        and 9 on the 50 MB document, deflate on large_5000's XML; sizes are of the raw DEFLATE stream."""
        values = {}
        for path, key in ((document, ""), (large, "-large")):
            if path is None:
                continue
            data = open(path, "rb").read()

            def best(f):
                times = []
                for _ in range(3):
                    t = time.perf_counter()
                    f()
                    times.append(time.perf_counter() - t)
                return len(data) / 1e6 / statistics.median(times)

            if key == "":
                packed = zlib.compress(data, 6)
                values["zlib:inflate"] = best(lambda: zlib.decompress(packed))
            for level in (1, 6, 9):
                values[f"zlib:deflate{level}{key}"] = best(lambda: zlib.compress(data, level))
                values[f"zlib:size{level}{key}"] = len(zlib.compress(data, level)) - 6  # 2-byte header, Adler-32
        return values

    def libdeflate(self, document, large=None):
        """libdeflate (Benchmarks/scripts/libdeflate_bench.c) at levels 1, 6 and 9: speed and size of deflate,
        inflate of its level-6 output into a new buffer (as ours) and into one reused buffer."""
        exe = self.binary("libdeflate_bench", ["libdeflate_bench.c"], ["-ldeflate"], source_dir=HERE)
        values = {}
        for path, key in ((document, ""), (large, "-large")):
            if exe is None or path is None:
                continue
            for line in run([exe, path, "3"]).stdout.splitlines():
                fields = dict(re.findall(r"(\w+)=([\d.]+)", line))
                if not line.startswith("libdeflate ") or "level" not in fields:
                    continue
                level = fields["level"]
                values[f"libdeflate:deflate{level}{key}"] = float(fields["compress_MBps"])
                values[f"libdeflate:size{level}{key}"] = float(fields["out_bytes"])
                if level == "6":
                    values["libdeflate:inflate-fresh" + key] = float(fields["decompress_fresh_MBps"])
                    values["libdeflate:inflate-reused" + key] = float(fields["decompress_MBps"])
        return values


def libxml2_flags():
    result = run(["pkg-config", "--cflags", "--libs", "libxml-2.0"]) if shutil.which("pkg-config") else None
    return result.stdout.split() if result and result.returncode == 0 else ["-I/usr/include/libxml2", "-lxml2"]


def ours(bench, names):
    """One kdbx-bench process for all the figures: name -> median (MB/s, rounds/s or ms)."""
    # A size figure ("size:NAME") comes from the run of benchmark NAME.
    runnable = sorted({n[len("size:"):] if n.startswith("size:") else n for n in names})
    # Each inflate figure runs in a process of its own, as the libdeflate helper does: a decompression returns a new
    # buffer, and whether its pages are still mapped from an earlier allocation depends on what the process did
    # before (after the 50 MB deflate benchmarks glibc hands back fresh pages, about a third slower on large_5000).
    alone = [n for n in runnable if n.startswith("inflate-")]
    batches = [[n] for n in alone] + [[n for n in runnable if n not in alone]]
    out, err = "", ""
    for batch in batches:
        if batch:
            result = run([bench] + batch)
            out += result.stdout
            err += result.stderr
    values = {}
    # Each deflate benchmark prints its compressed size on standard error: "# size NAME: N B -> M B (ratio R)".
    for m in re.finditer(r"^# size (\S+): (\d+) B -> (\d+) B", err, re.M):
        if "size:" + m.group(1) in names:
            values["size:" + m.group(1)] = float(m.group(3))
    for line in out.splitlines():
        fields = line.split("\t")
        if len(fields) >= 3 and fields[0] in names:
            value = float(fields[1])
            values[fields[0]] = value * MIB if fields[2] == "MiB/s" else value
    return values


def process(cmd, scratch):
    """Runs `cmd` with the password on stdin: (wall ms, peak RSS MiB), or None if it failed.

    The peak RSS comes from GNU time when it is installed: a child forked from this script starts as a copy of it
    (which holds the 50 MB document), and that copy counts in the child's own ru_maxrss until it execs."""
    report = os.path.join(scratch, "time.txt")
    gnu_time = os.access("/usr/bin/time", os.X_OK)
    if gnu_time:
        cmd = ["/usr/bin/time", "-f", "%M", "-o", report] + cmd
    started = time.perf_counter()
    child = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        child.stdin.write(LARGE_PASSWORD)
        child.stdin.close()
    except BrokenPipeError:
        pass
    # os.wait4 gives this child's own rusage (ru_maxrss in KiB on Linux).
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = (time.perf_counter() - started) * 1e3
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        return None
    peak = usage.ru_maxrss
    if gnu_time:
        try:
            peak = int(open(report).read().split()[-1])
        except (OSError, ValueError, IndexError):
            return None
    return elapsed, peak / 1024


def whole_process(tool, scratch, label, repeats=3):
    """ls -R, mkdir (open + change + save on a fresh copy) and the peak RSS of ls -R for `tool` (our kdbx or
    keepassxc-cli) on large_5000: figure key -> median of `repeats` runs. `label` names the copies."""
    if tool is None or not os.path.exists(LARGE):
        return {}
    ls, rss, mkdir = [], [], []
    for i in range(repeats):
        result = process([tool, "ls", "-R", LARGE], scratch)
        if result:
            ls.append(result[0])
            rss.append(result[1])
        copy = os.path.join(scratch, f"{label}-{i}.kdbx")
        shutil.copyfile(LARGE, copy)
        result = process([tool, "mkdir", copy, f"Added{i}"], scratch)
        if result:
            mkdir.append(result[0])
        os.remove(copy)
    values = {}
    for key, runs in (("ls", ls), ("mkdir", mkdir), ("rss", rss)):
        if runs:
            values[key] = statistics.median(runs)
    return values


def machine():
    model = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}"


def load():
    try:
        return open("/proc/loadavg").read().split()[:3]
    except OSError:
        return ["?", "?", "?"]


def print_plain(header, rows, started, load_before, load_after, rounds):
    date = started.strftime("%Y-%m-%d %H:%M UTC")
    print(f"# {date}; {machine()}; load average {' '.join(load_before)} before, {' '.join(load_after)} after; "
          f"{rounds} rounds")
    widths = [max(len(r[i]) for r in rows + [header]) for i in range(len(header))]
    for row in [header] + rows:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
    sys.stdout.flush()


def main():
    args = sys.argv[1:]
    bench = os.path.join(REPO, ".build", "release", "kdbx-bench")
    kdbx = None
    baseline = None
    rounds, markdown, only, readme, every_line = 3, False, [], None, False
    while args:
        a = args.pop(0)
        if a == "--bench":
            bench = args.pop(0)
        elif a == "--kdbx":
            kdbx = args.pop(0)
        elif a == "--baseline":
            baseline = args.pop(0)
        elif a == "--all":
            every_line = True
        elif a == "--rounds":
            rounds = max(1, int(args.pop(0)))
        elif a == "--markdown":
            markdown = True
        elif a == "--write-readme":
            markdown, readme = True, args.pop(0)
        elif a == "--only":
            only.append(args.pop(0).lower())
        else:
            print(__doc__)
            return 0 if a in ("-h", "--help") else 2
    if not os.access(bench, os.X_OK):
        print(f"compare.py: {bench} not found; build it with: swift build -c release --product kdbx-bench")
        return 1
    if kdbx is None:
        kdbx = os.path.join(os.path.dirname(bench), "kdbx")
    kdbx = kdbx if os.access(kdbx, os.X_OK) else None
    before_bench = before_kdbx = None
    if baseline:
        before_bench = os.path.join(baseline, "kdbx-bench")
        before_kdbx = os.path.join(baseline, "kdbx")
        before_bench = before_bench if os.access(before_bench, os.X_OK) else None
        before_kdbx = before_kdbx if os.access(before_kdbx, os.X_OK) else None
        if before_bench is None and before_kdbx is None:
            print(f"compare.py: --baseline {baseline} holds neither kdbx-bench nor kdbx")
            return 1
    figures = [f for f in FIGURES if not only or any(s in f[0].lower() or s in f[1].lower()
                                                     or (f[3] and s in f[3].split(":")[0]) for s in only)]
    if every_line:
        known = {f[1] for f in figures}
        listed = run([bench, "--list"]).stdout.splitlines()
        for line in listed:
            fields = line.split("\t")
            if len(fields) == 2 and fields[0] not in known and (not only or any(s in fields[0].lower() for s in only)):
                kind = {"MiB/s": "rate", "rounds/s": "rounds", "sign/s": "ops", "verify/s": "ops"}.get(fields[1],
                                                                                                   "time")
                figures.append((fields[0], fields[0], kind, None, None, ""))
    bench_lines = [f[1] for f in figures if not f[1].startswith("process:")]
    wants_process = any(f[1].startswith("process:") for f in figures)
    keys = {f[3] for f in figures if f[3]}
    groups = {"sodium", "openssl", "gcrypt", "aeskdf", "xml", "zlib", "libdeflate", "gcrypt_sign", "openssl_sign"}
    groups = {g for g in groups if any(k.startswith(g + ":") for k in keys)}
    keepassxc = shutil.which("keepassxc-cli") if any(k.startswith("kpxc:") for k in keys) else None

    load_before = load()
    started = datetime.datetime.now(datetime.timezone.utc)
    with tempfile.TemporaryDirectory(prefix="kdbx-compare-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None) as scratch:
        anchors = Anchors(scratch)
        document = large = None
        if groups & {"xml", "zlib", "libdeflate"}:
            # The document our XML and inflate benchmarks use, so that both sides read the same bytes.
            document = os.path.join(scratch, "keepass.xml")
            with open(document, "wb") as f:
                if subprocess.run([bench, "--write-document"], stdout=f).returncode != 0:
                    document = None
        if groups & {"zlib", "libdeflate"}:
            # large_5000.kdbx's inner XML, which the *-large5000xml benchmarks compress.
            large = os.path.join(scratch, "large5000.xml")
            with open(large, "wb") as f:
                if subprocess.run([bench, "--write-large-document"], stdout=f).returncode != 0:
                    large = None
        ours_runs, before_runs, anchor_runs = {}, {}, {}

        def measure(label, tool_bench, tool_kdbx, into):
            print(f"round {r + 1}/{rounds}: {label}", file=sys.stderr, flush=True)
            if tool_bench and bench_lines:
                for k, v in ours(tool_bench, bench_lines).items():
                    into.setdefault(k, []).append(v)
            if wants_process:
                for k, v in whole_process(tool_kdbx, scratch, label).items():
                    into.setdefault("process:" + k, []).append(v)

        for r in range(rounds):
            if baseline:
                measure("before", before_bench, before_kdbx, before_runs)
            measure("ours", bench, kdbx, ours_runs)
            print(f"round {r + 1}/{rounds}: anchors", file=sys.stderr, flush=True)
            for g in sorted(groups):
                if g in ("zlib", "libdeflate"):
                    values = getattr(anchors, g)(document, large)
                else:
                    values = getattr(anchors, g)(document) if g == "xml" else getattr(anchors, g)()
                for k, v in values.items():
                    anchor_runs.setdefault(k, []).append(v)
            if keepassxc:
                for k, v in whole_process(keepassxc, scratch, "keepassxc").items():
                    anchor_runs.setdefault("kpxc:" + k, []).append(v)
        skipped = dict(anchors.skipped)
        if any(k.startswith("kpxc:") for k in keys):
            if keepassxc is None:
                skipped["kpxc"] = "keepassxc-cli not installed"
            elif not os.path.exists(LARGE):
                skipped["kpxc"] = "../shared/corpus/generated/large_5000.kdbx not found"
    load_after = load()

    cpus = os.cpu_count() or 1
    # This script keeps about one CPU busy itself, so the load average after a run on a quiet machine is about 1.
    loaded = (load_before[0] != "?" and float(load_before[0]) > 0.5 * cpus) or \
        (load_after[0] != "?" and float(load_after[0]) > 0.5 * cpus + 1)
    units = {"rate": "MB/s", "rounds": "rounds/s", "time": "ms", "memory": "MiB", "size": "B", "ops": "op/s"}
    lower_is_better = ("time", "memory", "size")

    def fmt(kind, v):
        if kind == "size":
            return f"{v:,.0f} B"
        if kind == "ops":
            return f"{v:,.0f} op/s"
        return f"{v / 1e6:.2f} M {units[kind]}" if kind == "rounds" else f"{v:.1f} {units[kind]}"

    def speed_ratio(kind, o, a):
        return (a / o if kind in lower_is_better else o / a) if o and a else None

    rows, readme_rows = [], []
    for name, line, kind, key, goal, note in figures:
        o = statistics.median(ours_runs[line]) if line in ours_runs else None
        b = statistics.median(before_runs[line]) if line in before_runs else None
        a = statistics.median(anchor_runs[key]) if key and key in anchor_runs else None
        ratio, ratio_before = speed_ratio(kind, o, a), speed_ratio(kind, b, a)
        ours_text = fmt(kind, o) if o else "not measured"
        if key is None:
            anchor_text = "-"
        elif a:
            anchor_text = f"{fmt(kind, a)} ({note})"
        else:
            group = key.split(":")[0]
            # The group's own entry first: "gcrypt" is also a part of "gcrypt_sign_bench".
            reason = skipped.get(group) or skipped.get(group + "_bench") or \
                next((v for k, v in skipped.items() if group in k), "no figure")
            anchor_text = f"skipped: {reason} ({note})"
        if goal is None:
            goal_text = note[len("goal: "):] if key is None and note.startswith("goal") else "-"
        elif kind in lower_is_better:
            what = kind
            goal_text = f">= {goal:.2f}x (at most {1 / goal:.2f}x the {what})"
        else:
            goal_text = f">= {goal:.1f}x"
        verdict = ""
        # On a loaded machine a goal is neither claimed nor refused: one noisy run cannot say.
        # Sizes do not depend on the load.
        if ratio is not None and goal is not None and (not loaded or kind == "size"):
            verdict = " (met)" if ratio >= goal + 1e-9 else " (not met)"
        ratio_text = f"{ratio:.2f}x{verdict}" if ratio is not None else "-"
        limit = re.match(r"goal: at most ([\d.]+) ms", note)
        if limit and o and kind == "time" and not loaded:
            ratio_text = "(met)" if o <= float(limit.group(1)) else "(not met)"
        if baseline:
            change = speed_ratio(kind, o, b)
            rows.append((name, fmt(kind, b) if b else "not measured", ours_text,
                         f"{change:.2f}x" if change else "-", anchor_text,
                         f"{ratio_before:.2f}x" if ratio_before else "-", ratio_text, goal_text))
        else:
            rows.append((name, ours_text, anchor_text, ratio_text, goal_text))
        if any(f[0] == name for f in FIGURES):
            # The README's section: the named figures only, ours against the anchors.
            readme_rows.append((name, ours_text, anchor_text, ratio_text, goal_text))

    if baseline:
        header = ("figure", "before", "after", "after vs before", "anchor", "ratio before", "ratio after", "goal")
    else:
        header = ("figure", "ours", "anchor", "ratio", "goal")
    if readme is not None:
        # The whole table (with --baseline and --all) goes to standard output; the README gets the figures.
        print_plain(header, rows, started, load_before, load_after, rounds)
        header, rows = ("figure", "ours", "anchor", "ratio", "goal"), readme_rows
    date = started.strftime("%Y-%m-%d %H:%M UTC")
    loadline = f"load average {' '.join(load_before)} before, {' '.join(load_after)} after"
    lines = []
    emit = lines.append
    if markdown:
        emit("<!-- generated by python3 Benchmarks/scripts/compare.py --write-readme README.md; do not edit by hand -->")
        alternation = "the baseline, ours and the anchors" if baseline else "ours and the anchors"
        emit(f"Measured {date} on {machine()}; {loadline}; {rounds} rounds, {alternation} alternately, "
              "medians; release build. Ratios are our speed over the anchor's (for time and memory: the anchor's "
              "figure over ours), so above 1 is better for us.")
        if loaded:
            emit("")
            emit(f"**The machine was loaded** (load average above {cpus / 2:g} on {cpus} CPUs) while this ran: "
                  "the figures are noisy; trust ratios over absolute numbers, and rerun on a quiet machine before "
                  "quoting a goal as met (met / not met is left out for that reason).")
        emit("")
        emit("| " + " | ".join(header) + " |")
        emit("|" + "---|" * len(header))
        for row in rows:
            emit("| " + " | ".join(row) + " |")
    else:
        print_plain(header, rows, started, load_before, load_after, rounds)
        return 0
    text = "\n".join(lines) + "\n"
    if readme is None:
        sys.stdout.write(text)
        return 0
    begin, end = "<!-- compare.py begin -->\n", "<!-- compare.py end -->"
    old = open(readme).read()
    if begin not in old or end not in old:
        print(f"compare.py: {readme} has no '{begin.strip()}' ... '{end}' section", file=sys.stderr)
        sys.stdout.write(text)
        return 1
    head, rest = old.split(begin, 1)
    tail = rest.split(end, 1)[1]
    with open(readme, "w") as f:
        f.write(head + begin + text + end + tail)
    print(f"compare.py: wrote the performance section of {readme}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
