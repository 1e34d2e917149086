#!/usr/bin/env bash
# Builds the DocC documentation of the KDBX module (Sources/KDBX/KDBX.docc plus the doc comments of every public
# symbol) with the toolchain's own `docc`, from symbol graphs made by `swift-symbolgraph-extract`: no plugin
# package. Warnings are errors (an unresolved ``Symbol`` link, a misspelt parameter, a missing article).
#
#   bash .ci/docc-check.sh        # check (CI); the archive is left in .ci/out/docc/KDBX.doccarchive
#
# To read the result locally: docc preview Sources/KDBX/KDBX.docc --additional-symbol-graph-dir .ci/out/docc/graphs
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${DOCC_OUT:-.ci/out/docc}
docc=$(dirname "$(readlink -f "$(command -v swift)")")/docc
[ -x "$docc" ] || docc=$(command -v docc)

if ! built=$(swift build --target KDBX 2>&1); then echo "$built" | grep -E "error" | head -40; exit 1; fi
bin=$(swift build --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin"
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

rm -rf "$OUT"
mkdir -p "$OUT/graphs"
swift-symbolgraph-extract -module-name KDBX -I "$modules" -target "$triple" \
  -minimum-access-level public -skip-synthesized-members -skip-inherited-docs -output-dir "$OUT/graphs" >/dev/null
# Only the KDBX module's own symbols (KDBX.symbols.json), not its extensions of Swift's types: their pages would
# link to standard-library symbols this build has no graphs for.
find "$OUT/graphs" -name 'KDBX@*.symbols.json' -delete

"$docc" convert Sources/KDBX/KDBX.docc --additional-symbol-graph-dir "$OUT/graphs" \
  --fallback-display-name KDBX --fallback-bundle-identifier org.swift-kdbx.KDBX \
  --output-path "$OUT/KDBX.doccarchive" --warnings-as-errors
echo "docc: KDBX documentation builds without warnings ($(find "$OUT/KDBX.doccarchive/data/documentation" -name '*.json' | wc -l) pages)"
