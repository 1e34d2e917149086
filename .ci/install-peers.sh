#!/usr/bin/env bash
# Installs what the interop tests need: keepassxc-cli, pykeepass, and KeePass 2 (KeePassLib on mono, driven by
# ../shared/peers/kp2dump.sh) for the peer matrix (Tests/KDBXEndToEndTests/PeerMatrixTests.swift). Tests that find a
# peer missing report a skip; they never pass silently.
set -uo pipefail
need_apt=()
command -v gzip >/dev/null || need_apt+=(gzip)
command -v python3 >/dev/null || need_apt+=(python3)
command -v keepassxc-cli >/dev/null || need_apt+=(keepassxc)
[ -f /usr/lib/keepass2/KeePass.exe ] || need_apt+=(keepass2)
command -v mcs >/dev/null || need_apt+=(mono-mcs)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "apt-get install ${need_apt[*]}"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}") >/dev/null 2>&1 \
    || echo "warning: apt-get install ${need_apt[*]} failed; tests that need them will report skips"
fi
# #23: Node runs the WebAssembly module, headless Chromium checks the page; installed on their own, so that a
# failure here leaves the peers above alone (.ci/wasm-node.sh then reports a SKIP, never a pass).
web_apt=()
command -v node >/dev/null || web_apt+=(nodejs)
command -v chromium >/dev/null || web_apt+=(chromium)
if [ ${#web_apt[@]} -gt 0 ]; then
  echo "apt-get install ${web_apt[*]}"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${web_apt[@]}") >/dev/null 2>&1 \
    || echo "warning: apt-get install ${web_apt[*]} failed; the WebAssembly checks that need them will report skips"
fi
# #40: tmux and bash-completion drive the interactive completion test, zsh and fish check their completion scripts,
# mandoc lints the manual page (groff and man-db are in the base system); each check reports a SKIP without them.
shell_apt=()
command -v tmux >/dev/null || shell_apt+=(tmux)
[ -f /usr/share/bash-completion/bash_completion ] || shell_apt+=(bash-completion)
command -v mandoc >/dev/null || shell_apt+=(mandoc)
command -v zsh >/dev/null || shell_apt+=(zsh)
command -v fish >/dev/null || shell_apt+=(fish)
command -v groff >/dev/null || shell_apt+=(groff-base)
if [ ${#shell_apt[@]} -gt 0 ]; then
  echo "apt-get install ${shell_apt[*]}"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${shell_apt[@]}") >/dev/null 2>&1 \
    || echo "warning: apt-get install ${shell_apt[*]} failed; the completion and manual page checks that need them will report skips"
fi
pip_need=()
python3 -c 'import pykeepass' 2>/dev/null || pip_need+=(pykeepass)
python3 -c 'import lxml' 2>/dev/null || pip_need+=(lxml)
python3 -c 'import zxcvbn' 2>/dev/null || pip_need+=(zxcvbn)
# #37: relying parties (python-fido2, py_webauthn) and signatures (cryptography) for the passkey checks.
python3 -c 'import fido2' 2>/dev/null || pip_need+=(fido2)
python3 -c 'import webauthn' 2>/dev/null || pip_need+=(webauthn)
python3 -c 'import cryptography' 2>/dev/null || pip_need+=(cryptography)
if [ ${#pip_need[@]} -gt 0 ]; then
  echo "pip install ${pip_need[*]}"
  python3 -m pip install -q "${pip_need[@]}" >/dev/null 2>&1 \
    || echo "warning: pip install ${pip_need[*]} failed; tests that need them will report skips"
fi
for tool in gzip python3 keepassxc-cli mono mcs node chromium tmux mandoc zsh fish; do
  printf '%-14s %s\n' "$tool" "$(command -v "$tool" || echo missing)"
done
python3 -c 'import pykeepass; print("pykeepass     ", pykeepass.__version__)' 2>/dev/null || echo "pykeepass      missing"
printf '%-14s %s\n' "KeePass 2" "$( [ -f /usr/lib/keepass2/KeePass.exe ] && echo /usr/lib/keepass2/KeePass.exe || echo missing)"
exit 0
