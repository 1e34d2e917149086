#!/usr/bin/env bash
# Type-checks the Darwin branches (`#if canImport(Darwin)`, `os(iOS)`, ...) of the code that touches the C library,
# on a machine that has no Apple SDK: the sources are compiled for arm64-apple-ios (the Apple target whose standard
# library the toolchain ships, in Embedded mode) against a stand-in `Darwin` module (.ci/darwin-standin: a C header
# with the SDK's declarations of what we call, and the Swift overlay's wrappers). Glibc, Musl and Bionic are not
# there, so every `#if canImport(...)` takes its Darwin branch and `os(Linux)` is false.
#
# What it catches: a Darwin branch that names something Darwin does not have, or uses it with Linux types (mode_t,
# st_mtim, the Glibc rlimit enum, an unconditional `import Glibc`). What it does not: behaviour, and APIs the stand-in
# or the Embedded standard library lack (.ci/darwin-standin/StandardLibraryGaps.swift fills the latter).
#
# Checked: KDBXFileIO (the library target that touches the C library). The CLI, the benchmarks and the test support
# use Foundation-free but non-Embedded Swift (existentials, untyped throws), which the Embedded compiler refuses;
# their Darwin branches are kept to the same small platform files, and the import check below covers them.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${DARWIN_CHECK_OUT:-.ci/out/darwin}
# The package's floor (iOS 16): the compiler then checks every use of newer API against its availability
# annotations. The Embedded standard library says iOS 18; -disable-target-os-checking lets it load at iOS 16.
TARGET=arm64-apple-ios16.0
rm -rf "$OUT"
mkdir -p "$OUT"
FLAGS=(-enable-experimental-feature Embedded -wmo -parse-as-library -swift-version 6 -package-name swift_kdbx
  -target "$TARGET" -Xfrontend -disable-target-os-checking -I "$OUT" -I .ci/darwin-standin)

# The stand-in: the Swift overlay over the C header, and the standard library's missing pieces.
swiftc "${FLAGS[@]}" -module-name StandardLibraryGaps -emit-module -emit-module-path "$OUT/StandardLibraryGaps.swiftmodule" \
  .ci/darwin-standin/StandardLibraryGaps.swift
swiftc "${FLAGS[@]}" -module-name Darwin -emit-module -emit-module-path "$OUT/Darwin.swiftmodule" \
  .ci/darwin-standin/Darwin.swift

# The library modules KDBXFileIO depends on (standard library only), as interfaces to check against.
for module in KDBXBase KDBXCrypto KDBXCompression KDBXXML KDBX; do
  mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
  swiftc "${FLAGS[@]}" -module-name "$module" -emit-module -emit-module-path "$OUT/$module.swiftmodule" "${sources[@]}"
done

mapfile -t sources < <(find Sources/KDBXFileIO -name '*.swift' | sort)
swiftc "${FLAGS[@]}" -Xfrontend -import-module -Xfrontend StandardLibraryGaps -module-name KDBXFileIO -typecheck \
  "${sources[@]}"
echo "darwin check: KDBXFileIO and the library modules type-check for $TARGET against the Darwin stand-in"

# KDBXFoundation's Apple branch (NSFileCoordinator, security-scoped URLs): type-checked on Linux against the real
# swift-corelibs-foundation plus a stand-in for the Apple-only declarations (.ci/darwin-standin/Foundation), with the
# branch switched on by KDBX_FOUNDATION_STANDIN. It needs the package's modules, built here if missing.
swift build --target KDBXFoundation >/dev/null
MODULES=$(swift build --show-bin-path)/Modules
mkdir -p "$OUT/foundation"
swiftc -module-name FoundationDarwinStandIn -emit-module -emit-module-path "$OUT/foundation/FoundationDarwinStandIn.swiftmodule" \
  -parse-as-library .ci/darwin-standin/Foundation/FoundationDarwinStandIn.swift
mapfile -t sources < <(find Sources/KDBXFoundation -name '*.swift' | sort)
swiftc -typecheck -swift-version 6 -package-name swift_kdbx -D KDBX_FOUNDATION_STANDIN -I "$OUT/foundation" -I "$MODULES" \
  -module-name KDBXFoundation "${sources[@]}"
echo "darwin check: KDBXFoundation's file coordination type-checks against the Foundation stand-in"
