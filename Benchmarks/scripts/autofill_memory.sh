#!/usr/bin/env bash
# The AutoFill extension's memory (issue #35, item 2): large_5000 re-saved as KDBX 4 with Argon2id 64 MiB (KeePassXC's
# default), opened with the cached key under a 50 MB budget, one URL matched, one password revealed, one change
# saved, in one process (`kdbx-bench --autofill`); its peak resident set against the process's own baseline.
#
#   bash Benchmarks/scripts/autofill_memory.sh [RUNS]      (release builds of kdbx and kdbx-bench first:
#                                                          swift build -c release --product kdbx --product kdbx-bench)
#
# Prints the median of RUNS (default 5) peaks and the baseline (the same process stopping at its first step, a
# missing vault), twice: with glibc's mmap threshold fixed at its starting value, 128 KiB
# (MALLOC_MMAP_THRESHOLD_=131072), and with glibc's default. By default glibc raises that threshold to the size of
# each large block freed (up to 32 MiB), so after the open frees its payload buffers the save's megabyte-sized
# buffers come from the heap and stay resident once freed; Apple's allocator, where the extension runs, returns
# large blocks when they are freed, as the fixed threshold does. Goal: at most 45 MiB.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}
bin=.build/release
corpus=../shared/corpus/generated/large_5000.kdbx
for tool in "$bin/kdbx" "$bin/kdbx-bench" /usr/bin/time; do
  [ -x "$tool" ] || { echo "autofill_memory: $tool is missing"; exit 1; }
done
[ -f "$corpus" ] || { echo "autofill_memory: $corpus is missing"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo bench | "$bin/kdbx" convert "$corpus" "$work/argon64.kdbx" --kdf argon2id --memory 64 --iterations 2 >/dev/null
"$bin/kdbx-bench" --cache-key "$work/argon64.kdbx" bench "$work/key" >/dev/null

peak() { # command... -> peak RSS in kB
  /usr/bin/time -f "%M" -o "$work/rss" "$@" >"$work/out" 2>&1 || { cat "$work/out"; exit 1; }
  cat "$work/rss"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
series() { # label, environment assignment or "-"
  local label=$1 env=$2 values=()
  for _ in $(seq "$runs"); do
    cp "$work/argon64.kdbx" "$work/vault.kdbx"
    if [ "$env" = - ]; then values+=("$(peak "$bin/kdbx-bench" --autofill "$work/vault.kdbx" "$work/key" xray.example.org)")
    else values+=("$(peak env "$env" "$bin/kdbx-bench" --autofill "$work/vault.kdbx" "$work/key" xray.example.org)"); fi
  done
  local m; m=$(printf '%s\n' "${values[@]}" | median)
  echo "autofill-peak-rss ($label): $(mib "$m") median of $runs (${values[*]} kB); $(grep autofill "$work/out")"
}
base=$(peak sh -c "'$bin/kdbx-bench' --autofill '$work/missing.kdbx' '$work/key' x.example || true")
echo "autofill-baseline-rss: $(mib "$base") (kdbx-bench stopping at a missing vault)"
series "glibc mmap threshold fixed at 128 KiB" MALLOC_MMAP_THRESHOLD_=131072
series "glibc's default, dynamic threshold" -
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); goal: peak at most 45 MiB"
