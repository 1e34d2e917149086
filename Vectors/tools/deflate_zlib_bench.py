#!/usr/bin/env python3
"""Times zlib (through Python's zlib module) on a file, for comparison with kdbx-bench.

Usage: swift run -c release kdbx-bench --write-document > /dev/shm/doc.xml
       python3 Vectors/tools/deflate_zlib_bench.py /dev/shm/doc.xml [runs]
       python3 Vectors/tools/deflate_zlib_bench.py --random-text [runs]   (the 16 MiB text benchmark input)
Prints MiB/s (like kdbx-bench) and MB/s (1e6 B, like the anchors) for compression at levels 1, 6
and 9 (MiB/s of input), raw inflate (wbits=-15; MiB/s of output), gzip inflate (wbits=31, with
its CRC-32 check) and zlib.crc32, each the median of `runs` runs, plus the compressed sizes.
"""
import statistics
import sys
import time
import zlib

def benchmark_random_text(count):
    """The same bytes as benchmarkRandomText(_:) in Benchmarks/kdbx-bench/CompressionBenchmarks.swift."""
    state = 0x7E47
    mask = (1 << 64) - 1
    def next_value():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)
    words = [w.encode() for w in ["the", "of", "and", "password", "entry", "group", "value", "server", "login",
                                  "backup", "notes", "title", "url", "admin", "recovery", "account", "key", "time",
                                  "string", "user"]]
    out = bytearray()
    while len(out) < count:
        choice = next_value() % 32
        if choice < len(words):
            out += words[choice]
        else:
            for _ in range(2 + next_value() % 6):
                out.append(0x61 + next_value() % 26)
        out.append(0x0A if next_value() % 10 == 0 else 0x20)
    return bytes(out[:count])

path = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
data = benchmark_random_text(16 << 20) if path == "--random-text" else open(path, "rb").read()
n = len(data)

def timed(fn):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)

def report(name, seconds, size=None):
    extra = f"\tsize={size}" if size is not None else ""
    print(f"zlib-{name}\t{n / seconds / 1048576:.1f} MiB/s\t{n / seconds / 1e6:.1f} MB/s{extra}")

print(f"# zlib {zlib.ZLIB_RUNTIME_VERSION}, {n} B input, median of {runs} runs")
for level in (1, 6, 9):
    def compress():
        c = zlib.compressobj(level, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush()
    size = len(compress())
    report(f"deflate-l{level}", timed(compress), size)
c = zlib.compressobj(6, zlib.DEFLATED, -15)
raw = c.compress(data) + c.flush()
report("inflate-raw", timed(lambda: zlib.decompress(raw, -15)))
c = zlib.compressobj(6, zlib.DEFLATED, 31)
gz = c.compress(data) + c.flush()
report("inflate-gzip", timed(lambda: zlib.decompress(gz, 31)))
report("crc32", timed(lambda: zlib.crc32(data)))
