#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in this folder (see README.md).
#
#   Tests/Fuzz/run.sh [TARGET...] [--seconds N] [--build-only | --no-build]
#
# A target is one file, Tests/Fuzz/<target>.swift, defining LLVMFuzzerTestOneInput, compiled with the shared helpers
# in Tests/Fuzz/Support/ (SplitMix64). With no TARGET, all targets run
# one after another. Each runs for N seconds (default 600) on Tests/Fuzz/corpus/<target>/ (the committed seeds; new
# inputs go to a scratch copy under .build/fuzz/). Crashes are kept in Tests/Fuzz/crashes/<target>/ (gitignored).
# The library modules are compiled once, with coverage and ASan, straight from Sources/ (not through SwiftPM).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/.build/fuzz"
SECONDS_PER_TARGET=600
BUILD_ONLY=0
NO_BUILD=0
OPT="${FUZZ_OPT:--O}"
TARGETS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_PER_TARGET="$2"; shift 2 ;;
    --build-only) BUILD_ONLY=1; shift ;;
    --no-build) NO_BUILD=1; shift ;;
    -h|--help) sed -n 2,9p "$0"; exit 0 ;;
    *) TARGETS+=("$(basename "$1" .swift)"); shift ;;
  esac
done
if [ ${#TARGETS[@]} -eq 0 ]; then
  for f in "$HERE"/*.swift; do TARGETS+=("$(basename "$f" .swift)"); done
fi

# -package-name: the modules use `package` declarations (SwiftPM passes the package name; swiftc needs it given).
SAN=(-sanitize=fuzzer,address -parse-as-library "$OPT" -g -package-name swift_kdbx)
MODULES=(KDBXBase KDBXCrypto KDBXCompression KDBXXML KDBX KDBXAutoFill KDBXImport)   # in dependency order
mkdir -p "$OUT/modules"

# Compiles a library module to one object + .swiftmodule when any of its sources is newer than the object.
build_module() {
  local name="$1" obj="$OUT/modules/$1.o"
  local sources
  mapfile -t sources < <(find "$ROOT/Sources/$name" -name '*.swift' | sort)
  if [ -f "$obj" ] && [ -z "$(find "$ROOT/Sources/$name" -name '*.swift' -newer "$obj")" ]; then return; fi
  echo "== building module $name (${#sources[@]} files)"
  swiftc "${SAN[@]}" -wmo -module-name "$name" -I "$OUT/modules" \
    -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" -c "${sources[@]}" -o "$obj"
}
[ "$NO_BUILD" = 1 ] || for m in "${MODULES[@]}"; do build_module "$m"; done

build_target() {
  local t="$1" src="$HERE/$1.swift" bin="$OUT/bin/$1"
  [ -f "$src" ] || { echo "no such target: $t ($src)" >&2; return 1; }
  mkdir -p "$OUT/bin"
  if [ -f "$bin" ] && [ "$bin" -nt "$src" ] && [ -z "$(find "$OUT/modules" "$HERE/Support" -newer "$bin")" ]; then return; fi
  echo "== building target $t"
  swiftc "${SAN[@]}" -module-name "Fuzz_${t//-/_}" -I "$OUT/modules" "$src" "$HERE"/Support/*.swift "$OUT"/modules/*.o \
    -o "$bin" 2>&1 \
    | grep -v "Cannot export local symbol" || true
  [ -x "$bin" ]
}

SUMMARY=()
for t in "${TARGETS[@]}"; do
  [ "$NO_BUILD" = 1 ] || build_target "$t"
  [ "$BUILD_ONLY" = 1 ] && continue
  seeds="$HERE/corpus/$t" work="$OUT/corpus/$t" crashes="$HERE/crashes/$t" log="$OUT/logs/$t.log"
  mkdir -p "$seeds" "$work" "$crashes" "$(dirname "$log")"
  echo "== running $t for ${SECONDS_PER_TARGET}s (log: $log)"
  set +e
  started=$(date +%s)
  SWIFT_BACKTRACE="${SWIFT_BACKTRACE:-enable=no}" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$OUT/bin/$t" "$work" "$seeds" \
    -max_total_time="$SECONDS_PER_TARGET" -timeout="${FUZZ_TIMEOUT:-10}" -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" \
    -print_final_stats=1 -artifact_prefix="$crashes/" -fork=0 >"$log" 2>&1
  rc=$?
  set -e
  elapsed=$(( $(date +%s) - started ))
  execs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | tail -1)
  ncrash=$(find "$crashes" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \) | wc -l)
  line="$t: exit=$rc executions=${execs:-?} seconds=$elapsed crash_files=$ncrash"
  echo "$line"
  echo "$(date -u +%FT%TZ) $line" >>"$OUT/results.txt"
  SUMMARY+=("$line")
done
[ "$BUILD_ONLY" = 1 ] || { echo "== summary"; printf '%s\n' "${SUMMARY[@]}"; }
