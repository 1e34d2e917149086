#!/usr/bin/env bash
# Builds every library module in Embedded Swift mode, for x86_64 Linux and for wasm32, then links
# and runs a small embedded program natively that checks SHA-256 and HMAC vectors.
# Any library code that is not Embedded-compatible fails this script.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${EMBEDDED_OUT:-.ci/out/embedded}
rm -rf "$OUT"
mkdir -p "$OUT"
# -package-name: the modules share `package` declarations, as SwiftPM builds them.
# EMBEDDED_OPT: the optimisation level (default -Osize, what a firmware build uses). CI checks x86_64 at -Onone (about
# a quarter of the compile time: Embedded's restrictions are diagnosed by the mandatory passes either way, and the
# vectors run on the result), beside the wasm32 build of Web/build.sh, which compiles the same modules at -Osize.
FLAGS=(-enable-experimental-feature Embedded -wmo -parse-as-library "${EMBEDDED_OPT:--Osize}" -swift-version 6
  -package-name swift_kdbx)
MODULES=(KDBXBase KDBXCrypto KDBXCompression KDBXXML KDBX KDBXAutoFill KDBXPasswords KDBXImport KDBXPasskeys)

build_module() { # target module
  local target=$1 module=$2 dir="$OUT/$1"
  mkdir -p "$dir"
  local sources
  mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
  [ ${#sources[@]} -gt 0 ] || return 0
  swiftc "${FLAGS[@]}" -target "$target" -module-name "$module" -I "$dir" \
    -emit-module -emit-module-path "$dir/$module.swiftmodule" -c -o "$dir/$module.o" "${sources[@]}"
  echo "embedded: $module builds for $target"
}

# EMBEDDED_TARGETS: the targets to build (default both). CI builds x86_64 here and wasm32 through Web/build.sh,
# which compiles the same modules in Embedded mode for wasm32, at the same time.
read -r -a TARGETS <<< "${EMBEDDED_TARGETS:-x86_64-unknown-linux-gnu wasm32-unknown-none-wasm}"
for target in "${TARGETS[@]}"; do
  for module in "${MODULES[@]}"; do
    build_module "$target" "$module"
  done
done

# A native embedded program that checks vectors through the library.
dir="$OUT/x86_64-unknown-linux-gnu"
swiftc "${FLAGS[@]}" -enable-experimental-feature Extern -target x86_64-unknown-linux-gnu -module-name EmbeddedCheck -I "$dir" \
  -c -o "$dir/check.o" .ci/embedded/main.swift
objects=()
for module in "${MODULES[@]}"; do [ -f "$dir/$module.o" ] && objects+=("$dir/$module.o"); done
# String comparison and Character need the stdlib's Unicode tables, shipped as a static library.
runtime="$(dirname "$(readlink -f "$(command -v swiftc)")")/../lib/swift/embedded/x86_64-unknown-linux-gnu"
gcc -o "$dir/embedded-check" "$dir/check.o" "${objects[@]}" -L"$runtime" -lswiftUnicodeDataTables -lm
"$dir/embedded-check"
