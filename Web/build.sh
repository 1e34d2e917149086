#!/usr/bin/env bash
# Builds Web/kdbx.wasm: the library modules and Sources/KDBXWasm in Embedded Swift for wasm32-unknown-none-wasm,
# linked with wasm-ld from the Swift toolchain. No WASI, no C library: the module imports five functions from its
# JavaScript host (Web/kdbx-wasm.mjs) and exports the C ABI of Sources/KDBXWasm/Exports.swift.
#
#   bash Web/build.sh            # about 4 minutes of CPU the first time; modules are rebuilt only when
#                                # their sources changed
#   WASM_OPT=-O bash Web/build.sh       # faster (Argon2 about 13% less time), larger (1.7 MB against 1.45 MB)
#
# Output: Web/kdbx.wasm (not committed). Needs only the Swift toolchain (tested with 6.3.1, which ships wasm-ld and
# the Embedded stdlib for wasm32).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${WASM_OUT:-.build/wasm}
OPT=${WASM_OPT:--Osize}
TARGET=wasm32-unknown-none-wasm
mkdir -p "$OUT"
toolchain="$(dirname "$(readlink -f "$(command -v swiftc)")")"
# No stack protector: WebAssembly keeps return addresses off linear memory, so a canary guards nothing there, and
# the module has no C library to provide __stack_chk_guard.
FLAGS=(-enable-experimental-feature Embedded -enable-experimental-feature Extern -wmo -parse-as-library "$OPT"
  -swift-version 6 -package-name swift_kdbx -target "$TARGET" -Xfrontend -disable-stack-protector)
stamp="$OUT/flags"
echo "${FLAGS[*]}" | cmp -s - "$stamp" 2>/dev/null || { rm -f "$OUT"/*.o; echo "${FLAGS[*]}" > "$stamp"; }

build_module() { # module, its source folder, then the modules it imports
  local module=$1 folder=$2 sources newer
  shift 2
  mapfile -t sources < <(find "$folder" -name '*.swift' | sort)
  # Rebuilt when one of its sources, or a module it imports, is newer than its object.
  newer=$(find "$folder" -name '*.swift' -newer "$OUT/$module.o" -print -quit 2>/dev/null || echo missing)
  for dependency in "$@"; do
    [ -z "$newer" ] && [ "$OUT/$dependency.swiftmodule" -nt "$OUT/$module.o" ] && newer=$dependency
  done
  if [ -f "$OUT/$module.o" ] && [ -z "$newer" ]; then return 0; fi
  local start=$SECONDS
  swiftc "${FLAGS[@]}" -module-name "$module" -I "$OUT" \
    -emit-module -emit-module-path "$OUT/$module.swiftmodule" -c -o "$OUT/$module.o" "${sources[@]}"
  echo "wasm: built $module in $((SECONDS - start)) s"
}

build_module KDBXBase Sources/KDBXBase
build_module KDBXCrypto Sources/KDBXCrypto KDBXBase
build_module KDBXCompression Sources/KDBXCompression KDBXBase
build_module KDBXXML Sources/KDBXXML KDBXBase
build_module KDBX Sources/KDBX KDBXBase KDBXCrypto KDBXCompression KDBXXML
build_module KDBXImport Sources/KDBXImport KDBX KDBXBase KDBXCrypto KDBXCompression
build_module KDBXWasm Sources/KDBXWasm KDBX KDBXImport KDBXBase KDBXCrypto KDBXCompression KDBXXML

# --wrap=free: the runtime's calls to free go to __wrap_free (Sources/KDBXWasm/WasmHeap.swift). The stack comes first, so that an overflow runs off the start of memory and traps instead of writing over data;
# 4 MiB leaves room for the deepest recursion the load limits allow (XML depth 512).
"$toolchain/wasm-ld" --no-entry --stack-first --wrap=free -z stack-size=4194304 --gc-sections --strip-all \
  -o Web/kdbx.wasm "$OUT"/KDBXWasm.o "$OUT"/KDBXImport.o "$OUT"/KDBX.o "$OUT"/KDBXXML.o "$OUT"/KDBXCompression.o \
  "$OUT"/KDBXCrypto.o "$OUT"/KDBXBase.o \
  "$toolchain/../lib/swift/embedded/$TARGET/libswiftUnicodeDataTables.a"
echo "wasm: Web/kdbx.wasm, $(wc -c < Web/kdbx.wasm) bytes"
