#!/usr/bin/env bash
# #23: builds Web/kdbx.wasm (Web/build.sh) and runs it in Node against the native release build
# (Web/test/node-test.mjs): the library self-test inside the module, the demo vault's JSON against
# `kdbx export --format json`, the wrong-key and damage codes, TOTP, an edit saved and opened by the native CLI and
# keepassxc-cli (SKIP when missing). Then, when Chromium is installed, drives the page in headless Chromium
# (Web/test/browser-check.mjs); without it, a SKIP line says the page was not checked.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null; then
  echo "SKIP node is not installed (apt-get install nodejs): the WebAssembly module was not run"
  exit 0
fi
bash Web/build.sh
KDBX_BIN=${KDBX_BIN:-.build/release/kdbx} node Web/test/node-test.mjs
KDBX_BIN=${KDBX_BIN:-.build/release/kdbx} node Web/test/browser-check.mjs
