#!/usr/bin/env bash
# Fails if a library target imports anything but the standard library, Synchronization and the
# project's own modules. KDBXFileIO (file paths, atomic save) may also import the C library (Glibc, Musl, Bionic, Darwin);
# KDBXFoundation (the optional adapters) may import Foundation. No other module may import KDBXFoundation.
# Also fails on `@_silgen_name` (which can bind a declaration to any symbol, C included) outside the one file that
# names LLVM's prefetch intrinsic.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for dir in Sources/KDBX*; do
  [ -d "$dir" ] || continue
  allowed='Synchronization|KDBX[A-Za-z]*'
  [ "$(basename "$dir")" = KDBXFileIO ] && allowed="$allowed|Glibc|Musl|Bionic|Darwin"
  # The optional adapter module: Foundation (and nothing else) on top of the core; no core module may import it.
  [ "$(basename "$dir")" = KDBXFoundation ] && allowed="$allowed|Foundation|FoundationDarwinStandIn"
  # Matches plain, @_exported, @testable, attributed and kind-qualified imports (import struct X.Y).
  bad=$(grep -rEn '^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*import\s+' "$dir" --include='*.swift' \
    | grep -vE "import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?($allowed)(\.|\s|$)" || true)
  if [ -n "$bad" ]; then
    echo "import guard: $dir imports outside the standard library:"
    echo "$bad"
    status=1
  fi
  if [ "$(basename "$dir")" != KDBXFoundation ]; then
    foundation=$(grep -rEn '^\s*(@[A-Za-z_]+(\([^)]*\))?\s+)*import\s+((typealias|struct|class|enum|protocol|let|var|func)\s+)?KDBXFoundation(\.|\s|$)' \
      "$dir" --include='*.swift' || true)
    if [ -n "$foundation" ]; then
      echo "import guard: $dir imports the Foundation adapters:"
      echo "$foundation"
      status=1
    fi
  fi
  # `#if canImport(...)` would let a module compile differently where other libraries exist.
  found=$(grep -rEn '^\s*#(if|elseif).*canImport\(' "$dir" --include='*.swift' || true)
  if [ -n "$found" ] && [ "$(basename "$dir")" != KDBXFileIO ] && [ "$(basename "$dir")" != KDBXFoundation ]; then
    echo "import guard: $dir uses canImport:"
    echo "$found"
    status=1
  fi
  named=$(grep -rEn '@_silgen_name' "$dir" --include='*.swift' | grep -vE '^[^:]+:[0-9]+:\s*//' \
    | grep -vE '^Sources/KDBXCrypto/Support/Prefetch\.swift:[0-9]+:@_silgen_name\("llvm\.prefetch\.p0"\)$' || true)
  if [ -n "$named" ]; then
    echo "import guard: $dir binds a declaration to an outside symbol:"
    echo "$named"
    status=1
  fi
done
[ $status -eq 0 ] && echo "import guard: library targets import only the standard library and their own modules"
exit $status
