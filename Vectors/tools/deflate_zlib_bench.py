#!/usr/bin/env python3
"""Times zlib (through Python's zlib module) on a file, for comparison with kdbx-bench.

Usage: swift run -c release kdbx-bench --write-document > /dev/shm/doc.xml
       python3 Vectors/tools/deflate_zlib_bench.py /dev/shm/doc.xml [runs]
Prints MiB/s (like kdbx-bench) and MB/s (1e6 B, like the anchors) for compression at levels 1, 6
and 9 (MiB/s of input), raw inflate (wbits=-15; MiB/s of output), gzip inflate (wbits=31, with
its CRC-32 check) and zlib.crc32, each the median of `runs` runs, plus the compressed sizes.
"""
import statistics
import sys
import time
import zlib

path = sys.argv[1]
runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
data = open(path, "rb").read()
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
