#!/usr/bin/env bash
# API baseline: the public surface of each library module, one line per public symbol (its path and declaration),
# kept in .ci/api/<Module>.txt. Fails with a diff when the surface built now differs from the committed listing, so
# that a public change is a deliberate one.
#
#   bash .ci/api-check.sh            # check (CI)
#   bash .ci/api-check.sh --update   # regenerate .ci/api/*.txt after a deliberate change, then commit them
#   bash .ci/api-check.sh --count    # print the number of public symbols per module
#
# It also type-checks the documentation's Swift examples as a client of the public API (.ci/doc-snippets.py), and
# checks that every public type of KDBX has a compiled example in its own doc comment (doc-snippets.py --coverage).
#
# The listing comes from the toolchain's swift-symbolgraph-extract (public symbols only: `package`, internal and
# `@_spi` declarations are left out; members synthesized from protocol default implementations are left out too).
set -euo pipefail
cd "$(dirname "$0")/.."
MODULES=(KDBXBase KDBXCrypto KDBXCompression KDBXXML KDBX KDBXAutoFill KDBXPasswords KDBXImport KDBXPasskeys KDBXFileIO KDBXFoundation)
BASELINE=.ci/api
OUT=${API_OUT:-.ci/out/api}
mode=${1:-check}

# Builds every library module (KDBXFoundation depends on the codec's; KDBXAutoFill, KDBXPasswords, KDBXImport on KDBX); the
# compiler output only when that fails.
for target in KDBXFoundation KDBXAutoFill KDBXPasswords KDBXImport KDBXPasskeys; do
  if ! built=$(swift build --target "$target" 2>&1); then echo "$built" | grep -E "error" | head -40; exit 1; fi
done
bin=$(swift build --show-bin-path)
modules="$bin/Modules"
[ -d "$modules" ] || modules="$bin" # toolchains before 6.0 put the .swiftmodule files beside the objects
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

# Symbol graph JSON -> sorted "path<TAB>declaration" lines.
listing() { # directory of one module's symbol graphs
  python3 - "$1" <<'PY'
import json, os, sys
lines = []
for name in sorted(os.listdir(sys.argv[1])):
    if not name.endswith(".symbols.json"):
        continue
    with open(os.path.join(sys.argv[1], name)) as f:
        graph = json.load(f)
    for symbol in graph["symbols"]:
        path = ".".join(symbol["pathComponents"])
        declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
        lines.append(path + "\t" + " ".join(declaration.split()))
for line in sorted(lines):
    print(line)
PY
}

rm -rf "$OUT"
mkdir -p "$OUT" "$BASELINE"
status=0
for module in "${MODULES[@]}"; do
  mkdir -p "$OUT/$module"
  swift-symbolgraph-extract -module-name "$module" -I "$modules" -target "$triple" \
    -minimum-access-level public -skip-synthesized-members -output-dir "$OUT/$module" >/dev/null
  listing "$OUT/$module" >"$OUT/$module.txt"
  case "$mode" in
    --update) cp "$OUT/$module.txt" "$BASELINE/$module.txt" ;;
    --count) ;;
    *)
      if ! diff -u --label "$BASELINE/$module.txt (committed)" --label "$module (built now)" \
        "$BASELINE/$module.txt" "$OUT/$module.txt"; then
        status=1
      fi
      ;;
  esac
  echo "api: $module: $(wc -l <"$OUT/$module.txt") public symbols"
done
# What an app writes must compile against the public API alone: the app scenario and the README's quick starts are
# type-checked here as a module outside this package (no -package-name, so `package` declarations are hidden).
app_files=(Tests/KDBXTests/App/AppScenarioTests.swift Tests/KDBXTests/App/ReadmeQuickStartTests.swift
  Tests/KDBXTests/App/ReadmeAsyncQuickStartTests.swift Tests/KDBXTests/App/DocExampleTests.swift
  Tests/KDBXFoundationTests/ReadmeFoundationExampleTests.swift)
if [ "$mode" != --count ]; then
  if swiftc -typecheck -swift-version 6 -module-name AppSurfaceCheck -I "$modules" "${app_files[@]}" Tests/Fuzz/Support/SplitMix64.swift \
    2>"$OUT/app.log"; then
    echo "api: the app scenario and README examples compile against the public API alone"
  else
    grep -E "error:" "$OUT/app.log" | head -40
    echo "api: the app scenario or a README example needs a declaration that is not public"
    status=1
  fi
fi
# Every Swift example of the documentation (README.md, the DocC articles, doc comments) compiles against the public
# API as a client module, with the names each example takes as given in .ci/snippets/; and the check can fail.
if [ "$mode" != --count ]; then
  python3 .ci/doc-snippets.py "$modules" || status=1
  if python3 .ci/doc-snippets.py "$modules" --only .ci/snippets/failing-example.md >"$OUT/failing-example.log" 2>&1 \
    || ! grep -q "failing-example.md:10: no calls to throwing functions" "$OUT/failing-example.log"; then
    cat "$OUT/failing-example.log"
    echo "api: .ci/snippets/failing-example.md should fail the documentation check at its lines 9 and 10"
    status=1
  fi
fi
# Every public type of KDBX (nested ones too) shows its use in an example of its own doc comment, compiled above.
if [ "$mode" != --count ]; then
  python3 .ci/doc-snippets.py --coverage KDBX "$OUT/KDBX" --missing || status=1
fi
# No sync/async trap: in top-level code (an executable's main.swift) `try await KDBXFile.open(...)` must reach the
# `async` form. Had a blocking overload of the same name been picked, the compiler's "no 'async' operations occur
# within 'await' expression" warning fails this check (warnings as errors).
if [ "$mode" != --count ]; then
  if swiftc -typecheck -swift-version 6 -warnings-as-errors -module-name TopLevelAsyncClient -I "$modules" \
    .ci/clients/top-level-async/main.swift 2>"$OUT/top-level.log"; then
    echo "api: top-level code's try await reaches the async open and save"
  else
    grep -E "error:" "$OUT/top-level.log" | head -20
    echo "api: the top-level client (.ci/clients/top-level-async/main.swift) does not compile without warnings"
    status=1
  fi
fi
if [ $status -ne 0 ]; then
  echo "api: the public surface changed (lines with - were public, + are new). If that is intended, run"
  echo "     bash .ci/api-check.sh --update and commit .ci/api/ with the change."
fi
exit $status
