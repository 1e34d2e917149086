#!/usr/bin/env bash
# Fails if library code uses an API that Apple systems have only from macOS 15 / iOS 18 / tvOS 18 / watchOS 11 /
# visionOS 2 on (or later) outside an availability guard, since Package.swift promises macOS 13 / iOS 16 (issue
# #25). A use is guarded when a scope around it opens under `@available(...)` or `if #available(...)`, or follows a
# `guard #available(...)` in its scope, naming every one of macOS >= 15, iOS >= 18, tvOS >= 18, watchOS >= 11 and
# visionOS >= 2.
#
# The APIs: what the standard library marks `@available(SwiftStdlib 6.0, *)` (macOS 15 / iOS 18) or later and a
# library might use: Synchronization (Atomic, Mutex, AtomicLazyReference, WordPair), Int128/UInt128, RangeSet,
# String(validating:), task executors; and SwiftStdlib 6.2 (macOS 26): Span and its kin, InlineArray,
# Task.immediate. Add a name here when the library starts using another newer API.
#
# Usage: availability-check.sh [DIR...] (default: Sources/KDBX*). Then it checks itself on
# .ci/fixtures/availability, which must fail with exactly the uses marked `// UNGUARDED` there.
set -euo pipefail
cd "$(dirname "$0")/.."

check() { # files... ; prints "file:line: name" for each unguarded use
  awk '
    BEGIN {
      api = "(Atomic|AtomicLazyReference|Mutex|WordPair|Int128|UInt128|RangeSet|DiscontiguousSlice|TaskExecutor|" \
        "withTaskExecutorPreference|globalConcurrentExecutor|Span|RawSpan|MutableSpan|MutableRawSpan|OutputSpan|" \
        "InlineArray|UTF8Span)"
    }
    # Whether an @available/#available names all five systems at the versions of SwiftStdlib 6.0 or later.
    function guards(text,   ok) {
      if (text !~ /[@#]available\(/) return 0
      ok = match(text, /macOS[[:space:]]+(1[5-9]|[2-9][0-9])/) && match(text, /iOS[[:space:]]+(1[89]|[2-9][0-9])/) \
        && match(text, /tvOS[[:space:]]+(1[89]|[2-9][0-9])/) && match(text, /watchOS[[:space:]]+(1[1-9]|[2-9][0-9])/) \
        && match(text, /visionOS[[:space:]]+([2-9]|[1-9][0-9])/)
      return ok
    }
    FNR == 1 { depth = 0; guarded[0] = 0; pending = 0; inblock = 0 }
    {
      line = $0
      # Block comments, line comments and string literals cannot open scopes or use APIs.
      if (inblock) { if (line ~ /\*\//) { sub(/^.*\*\//, "", line); inblock = 0 } else next }
      gsub(/\/\*.*\*\//, "", line)
      if (line ~ /\/\*/) { sub(/\/\*.*$/, "", line); inblock = 1 }
      gsub(/"([^"\\]|\\.)*"/, "\"\"", line)
      sub(/\/\/.*$/, "", line)
      here = guarded[depth] || pending || guards(line)
      if (line ~ /^[[:space:]]*import[[:space:]]/) next
      rest = line
      while (match(rest, "(^|[^A-Za-z0-9_.])" api "([^A-Za-z0-9_]|$)")) {
        name = substr(rest, RSTART, RLENGTH); gsub(/[^A-Za-z0-9_]/, "", name)
        if (name == "Span" && substr(rest, RSTART, 1) == ".") { rest = substr(rest, RSTART + RLENGTH); continue }
        if (!here) printf "%s:%d: %s\n", FILENAME, FNR, name
        rest = substr(rest, RSTART + RLENGTH)
      }
      if (line ~ /^[[:space:]]*@available\(/ && guards(line) && line !~ /\{/) { pending = 1; next }
      isguard = line ~ /guard[[:space:]].*#available\(/ && guards(line)
      # The braces in order: the first opened on a line with a qualifying @available/if #available is guarded
      # (not an `else` branch, nor the else block of a `guard`), the others inherit the state of their parent.
      first = 1
      for (c = 1; c <= length(line); c++) {
        ch = substr(line, c, 1)
        if (ch == "{") {
          before = substr(line, 1, c)
          scope = guarded[depth] || pending
          if (first && !isguard && guards(line) && before !~ /else[[:space:]]*\{$/) scope = 1
          first = 0
          depth++; guarded[depth] = scope
        } else if (ch == "}" && depth > 0) depth--
      }
      if (isguard) guarded[depth] = 1
      if (line ~ /[^[:space:]]/ && line !~ /^[[:space:]]*@/) pending = 0
    }
  ' "$@"
}

[ $# -gt 0 ] || set -- Sources/KDBX*
mapfile -d '' files < <(find "$@" -name '*.swift' -print0 | sort -z)
found=$(check "${files[@]}")
status=0
if [ -n "$found" ]; then
  echo "availability check: uses of macOS 15 / iOS 18 API without an @available or #available guard:"
  echo "$found"
  status=1
fi

# Self-test: the fixture's unguarded uses must be reported, and only those.
fixture=.ci/fixtures/availability/Uses.swift
expected=$(grep -n '// UNGUARDED' "$fixture" | cut -d: -f1 | sort -n | tr '\n' ' ')
reported=$(check "$fixture" | cut -d: -f2 | sort -n | uniq | tr '\n' ' ')
if [ "$expected" != "$reported" ]; then
  echo "availability check: self-test failed on $fixture: expected lines [$expected], reported [$reported]"
  status=1
fi
[ $status -eq 0 ] && echo "availability check: every macOS 15 / iOS 18 API use in ${*} is guarded (fixture: lines ${expected}reported)"
exit $status
