#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer, in its own build path (.build-asan) so the normal builds are not
# clobbered.
#
#   bash .ci/sanitizers.sh                # CI: the suite of `swift test` (end-to-end suites skipped), optimised
#   bash .ci/sanitizers.sh --onone        # the same suite unoptimised (as `swift test` builds it): slower
#   bash .ci/sanitizers.sh --release-e2e  # the same build, the whole suite with KDBX_E2E=1 KDBX_HEAVY_TESTS=1
#
# The CI run compiles the release configuration (whole-module -O; `swift test -c release` keeps testable imports):
# ASan instruments the code the optimiser leaves, as OSS-Fuzz's builds do, and every bounds check Swift keeps at -O
# is still there. What the release configuration drops is `assert` (two uses, in the CLI's option table, which the
# unsanitised `swift test` checks). Measured on this 2-core machine from scratch, idle (2026-12-05): the release
# configuration's build 282 s (515 s of CPU) and its run of 952 tests 61 s (116 s of CPU), against 308 s (592 s)
# and 63 s (122 s) for the debug configuration with -O that CI built before (batch mode, per-file optimisation).
# Earlier, on 919de52, unoptimised: 675 s for the run in CI, about 1,100 s of CPU.
#
# --release-e2e is the README's end-to-end command under ASan: every unit, vector, corpus and model test, the `kdbx`
# binary end to end (the kdbx of this build, instrumented too), the peers, the Python cross-checks, the scale bounds
# and the heavy corpus files.
# ThreadSanitizer is not run here (see the reliability notes): run it by hand with
#   swift test --sanitize=thread --build-path .build-tsan
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=(-c release)
BUILD_PATH=.build-asan
case "${1:-}" in
  --onone) CONFIG=(-c debug); BUILD_PATH=.build-asan-onone ;;
  --release-e2e) export KDBX_E2E=1 KDBX_HEAVY_TESTS=1 ;;
  "") ;;
  *) echo "sanitizers.sh: unknown argument $1 (usage: bash .ci/sanitizers.sh [--onone | --release-e2e])" >&2; exit 2 ;;
esac
BUILD=("${CONFIG[@]}" --sanitize=address --build-path "$BUILD_PATH")
started=$(date +%s)
set +e
# Leak detection is off: the Swift runtime keeps metadata caches alive on purpose, which LeakSanitizer reports. The
# options reach the instrumented kdbx that the end-to-end suites start, too.
ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}" SWIFT_BACKTRACE=enable=no \
  swift test "${BUILD[@]}" >.ci/asan.log 2>&1
status=$?
set -e
grep -E '✘|ERROR: AddressSanitizer|SUMMARY: AddressSanitizer|error:' .ci/asan.log | head -40 || true
grep -E 'SKIP|skipped' .ci/asan.log | sort | uniq -c | head -20 || true
grep -E 'Test run with|Executed [0-9]+ test' .ci/asan.log | tail -2
echo "ASan suite (${CONFIG[*]}${KDBX_E2E:+, KDBX_E2E=1 KDBX_HEAVY_TESTS=1}): exit $status, $(( $(date +%s) - started )) s"
[ "$status" -eq 0 ] || tail -60 .ci/asan.log
exit "$status"
