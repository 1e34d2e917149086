#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer (debug build, its own build path .build-asan so the normal debug
# build is not clobbered). Called from .ci/run.
#
# CI (.ci/run) skips the peer-driven suites and the scale bounds (ASAN_SKIP there); by hand every suite runs (measured 2026-12-01
# 8-minute ASan build). If it grows too slow, skip the corpus/interop suites with
#   ASAN_SKIP='CorpusOpenTests|CorpusContentTests|CorpusFuzzTests|WriteInteropTests|MergeInteropTests' bash .ci/sanitizers.sh
# ThreadSanitizer is not run here (see the reliability notes): run it by hand with
#   swift test --sanitize=thread --build-path .build-tsan
set -euo pipefail
cd "$(dirname "$0")/.."
SKIP="${ASAN_SKIP:-}"
BUILD=(--sanitize=address --build-path .build-asan)
started=$(date +%s)
swift build --build-tests "${BUILD[@]}" 2>&1 | tail -1
args=()
[ -n "$SKIP" ] && args=(--skip "$SKIP")
set +e
# Leak detection is off: the Swift runtime keeps metadata caches alive on purpose, which LeakSanitizer reports.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}" SWIFT_BACKTRACE=enable=no \
  swift test --skip-build "${BUILD[@]}" "${args[@]}" >.ci/asan.log 2>&1
status=$?
set -e
grep -E '✘|ERROR: AddressSanitizer|SUMMARY: AddressSanitizer' .ci/asan.log | head -40 || true
grep -E 'Test run with|Executed [0-9]+ test' .ci/asan.log | tail -2
echo "ASan suite: exit $status, $(( $(date +%s) - started )) s (skipped: ${SKIP:-nothing})"
exit "$status"
