#!/usr/bin/env bash
# Unsafe code says why it is sound. Fails when a file under Sources/ uses unsafe pointers (or `Unmanaged`,
# `unsafeBitCast`, `nonisolated(unsafe)`, `@unchecked Sendable`) and carries no `// SAFETY:` note at all; also counts
# the uses with no note on their line or within WINDOW lines above (the kernels' convention: one note at the top of a
# `withUnsafe...` scope covers the lines inside it) and lists them with --uses.
#
#   bash .ci/safety-lint.sh                # CI: files without a note fail; per-use figures printed
#   bash .ci/safety-lint.sh --uses         # also list each use without a nearby note
#   WINDOW=12 bash .ci/safety-lint.sh
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "${WINDOW:-12}" "${1:-}" <<'PY'
import os, re, sys
window = int(sys.argv[1])
list_uses = sys.argv[2] == "--uses"
unsafe = re.compile(
    r"\bUnsafe(Mutable)?(Raw)?(Buffer)?Pointer\b|\bwithUnsafe\w*|\bunsafeBitCast\b|\bassumingMemoryBound\b|"
    r"\bbindMemory\b|\bwithMemoryRebound\b|\bunsafeUninitializedCapacity\b|\bUnmanaged\b|\.baseAddress\b|"
    r"\bwithContiguous(Mutable)?StorageIfAvailable\b|\bnonisolated\(unsafe\)|@unchecked Sendable")
files = uses = missing = 0
report = []
bare_files = []
for root, _, names in os.walk("Sources"):
    for name in sorted(names):
        if not name.endswith(".swift"):
            continue
        path = os.path.join(root, name)
        lines = open(path, encoding="utf-8").read().split("\n")
        count = bad = 0
        for i, line in enumerate(lines):
            code = line.split("//", 1)[0]
            if not unsafe.search(code):
                continue
            count += 1
            if not any("SAFETY:" in lines[j] for j in range(max(0, i - window), i + 1)):
                bad += 1
                report.append(f"{path}:{i + 1}: unsafe use without a SAFETY note within {window} lines: {line.strip()[:100]}")
        if count:
            files += 1
            uses += count
            missing += bad
            if not any("SAFETY:" in line for line in lines):
                bare_files.append(f"{path}: {count} unsafe use(s) and no SAFETY note")
if list_uses:
    for line in report:
        print(line)
for line in bare_files:
    print("FAIL " + line)
print(f"safety-lint: {uses} unsafe uses in {files} files; {len(bare_files)} file(s) without any SAFETY note; "
      f"{missing} use(s) with no note within {window} lines")
sys.exit(1 if bare_files else 0)
PY
