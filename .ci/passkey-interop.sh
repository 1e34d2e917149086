#!/usr/bin/env bash
# Passkeys against relying parties and vault readers nobody here wrote (issue #37): python-fido2's Fido2Server and
# py_webauthn verify `kdbx passkey register` and `assert` (ES256, EdDSA); a KeePassXC-style passkey entry made by
# pykeepass opens, lists and signs; our vault opens in keepassxc-cli and pykeepass with every attribute intact.
# Missing packages or peers are reported as SKIP, never as a pass. Usage: .ci/passkey-interop.sh [path/to/kdbx]
set -uo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/release/kdbx}
if ! command -v python3 >/dev/null; then echo "SKIP: passkey interop: python3 is missing"; exit 0; fi
[ -x "$binary" ] || { echo "passkey interop: $binary is missing (swift build first)"; exit 1; }
python3 .ci/passkey-interop.py "$binary"
