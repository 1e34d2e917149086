#!/usr/bin/env bash
# Fails if a Swift file imports a C library module (Glibc, Musl, Bionic, Darwin) other than inside its own
# `#if canImport(X)` / `#elseif canImport(X)` branch of a chain that also has Glibc, Musl and Darwin branches:
#   #if canImport(Glibc)
#     import Glibc
#   #elseif canImport(Musl)
#     import Musl
#   #elseif canImport(Darwin)
#     import Darwin
#   #endif
# so that every target builds with each C library (issue #20). Usage: libc-imports.sh [DIR...] (default: Sources
# Tests Benchmarks).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- Sources Tests Benchmarks
status=0
while IFS= read -r -d '' file; do
  awk -v file="$file" '
    function fail(line, why) { printf "%s:%d: %s\n", file, line, why; bad = 1 }
    # The module a `#if`/`#elseif` condition names, when it is exactly canImport(M).
    function condition_module(text) {
      if (match(text, /^[[:space:]]*#(if|elseif)[[:space:]]+canImport\([A-Za-z_]+\)[[:space:]]*(\/\/.*)?$/)) {
        sub(/^[[:space:]]*#(if|elseif)[[:space:]]+canImport\(/, "", text); sub(/\).*/, "", text); return text
      }
      return ""
    }
    /^[[:space:]]*#if[[:space:]]/ {
      depth++; branch[depth] = condition_module($0); chain[depth] = " " branch[depth] " "; pending[depth] = ""; next
    }
    /^[[:space:]]*#elseif[[:space:]]/ {
      branch[depth] = condition_module($0); chain[depth] = chain[depth] branch[depth] " "; next
    }
    /^[[:space:]]*#else([[:space:]]|$)/ { branch[depth] = ""; next }
    /^[[:space:]]*#endif/ {
      if (pending[depth] != "") {
        if (chain[depth] !~ / Glibc / || chain[depth] !~ / Musl / || chain[depth] !~ / Darwin /) {
          split(pending[depth], lines, " ")
          for (i in lines) if (lines[i] != "") fail(lines[i], "C library import in a chain without Glibc, Musl and Darwin branches")
        }
      }
      depth--; next
    }
    /^[[:space:]]*(@[A-Za-z_]+(\([^)]*\))?[[:space:]]+)*import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?(Glibc|Musl|Bionic|Darwin)([.[:space:]]|$)/ {
      module = $0; sub(/^.*import[[:space:]]+((typealias|struct|class|enum|protocol|let|var|func)[[:space:]]+)?/, "", module)
      sub(/[.[:space:]].*$/, "", module)
      if (depth == 0) { fail(NR, "imports " module " outside an #if canImport(" module ") branch"); next }
      if (branch[depth] != module) { fail(NR, "imports " module " outside its own #if canImport(" module ") branch"); next }
      pending[depth] = pending[depth] " " NR
    }
    END { exit bad }
  ' "$file" || status=1
done < <(find "$@" -name '*.swift' -print0 | sort -z)
[ $status -eq 0 ] && echo "libc imports: every C library import sits in a Glibc/Musl/Darwin #if canImport chain"
exit $status
