#!/usr/bin/env bash
# Checks a release archive made by .ci/release.sh, as a user would meet it: unpacked in an empty directory and run
# with an empty environment (no Swift runtime on the library path), its checksums, its manual page and its
# completion scripts; and that release.sh refuses a binary whose self-test fails.
# Usage: bash .ci/release-check.sh ARCHIVE.tar.gz
set -uo pipefail
cd "$(dirname "$0")/.."
archive="${1:?usage: bash .ci/release-check.sh ARCHIVE.tar.gz}"
fails=0
passes=0
ok() { passes=$((passes + 1)); }
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
(cd "$(dirname "$archive")" && sha256sum -c --quiet "$(basename "$archive").sha256") && ok || fail "archive checksum"
tar -C "$dir" -xzf "$archive" || { echo "FAIL cannot unpack $archive"; exit 1; }
root="$(find "$dir" -mindepth 1 -maxdepth 1 -type d)"
for file in kdbx kdbx.1 completions/kdbx.bash completions/_kdbx completions/kdbx.fish README.md CHANGELOG.md LICENSE SHA256SUMS; do
  [ -f "$root/$file" ] && ok || fail "archive lacks $file"
done
(cd "$root" && sha256sum -c --quiet SHA256SUMS) && ok || fail "SHA256SUMS"

# The binary, from the unpacked directory, with nothing in its environment.
libraries="$(ldd "$root/kdbx" 2>&1)"
if grep -qiE 'libswift|libFoundation|libdispatch|not found' <<<"$libraries"; then
  fail "kdbx needs the Swift runtime or a missing library:"; echo "$libraries"
else
  ok; echo "release-check: kdbx links only $(awk '{print $1}' <<<"$libraries" | tr '\n' ' ')"
fi
version="$(cd "$root" && env -i LD_LIBRARY_PATH= ./kdbx --version 2>&1)"
if grep -qE '^kdbx [0-9]+\.[0-9]+\.[0-9]+[^ ]* \(commit [0-9a-f]{40}(\+modified)?\)$' <<<"$version"; then
  ok; echo "release-check: $version"
else
  fail "kdbx --version in an empty environment: $version"
fi
if selftest="$(cd "$root" && env -i LD_LIBRARY_PATH= ./kdbx selftest 2>&1)"; then
  ok; echo "release-check: selftest in an empty environment: $(grep -c '^ok ' <<<"$selftest") checks passed"
else
  fail "kdbx selftest in an empty environment"; tail -5 <<<"$selftest"
fi
demo="$(pwd)/Vectors/demo/demo.kdbx"
printf 'demo\n' | (cd "$root" && env -i LD_LIBRARY_PATH= ./kdbx ls "$demo") | grep -q '^Internet/$' \
  && ok || fail "kdbx ls of the demo vault"

# The manual page: groff's warnings, man-db's, and mandoc's lint where Debian has it.
warnings="$(groff -z -ww -man "$root/kdbx.1" 2>&1)"; [ -z "$warnings" ] && ok || fail "groff -ww: $warnings"
if command -v man >/dev/null; then
  warnings="$(MANWIDTH=80 man --warnings -l "$root/kdbx.1" 2>&1 >/dev/null)"; [ -z "$warnings" ] && ok || fail "man --warnings: $warnings"
fi
if command -v mandoc >/dev/null; then
  warnings="$(mandoc -T lint "$root/kdbx.1" 2>&1)"; [ -z "$warnings" ] && ok || fail "mandoc -T lint: $warnings"
else
  echo "release-check: SKIP mandoc -T lint (mandoc not installed)"
fi

# The completion scripts: each shell parses its own.
bash -n "$root/completions/kdbx.bash" && ok || fail "bash -n kdbx.bash"
for shell in zsh fish; do
  script="$root/completions/$([ "$shell" = zsh ] && echo _kdbx || echo kdbx.fish)"
  if command -v "$shell" >/dev/null; then "$shell" -n "$script" && ok || fail "$shell -n $script"
  else echo "release-check: SKIP $shell -n (not installed)"; fi
done

# A real interactive bash in tmux (its own server, on /dev/null), bash-completion loaded and the archive's script
# sourced: Tab completes `kdbx sh` to `kdbx show`, an option of `add`, and a value of `export --format`.
if command -v tmux >/dev/null && [ -f /usr/share/bash-completion/bash_completion ]; then
  printf '%s\n' "PS1='\$ '" "export PATH=$root:\$PATH" 'source /usr/share/bash-completion/bash_completion' \
    "source $root/completions/kdbx.bash" 'echo ready' > "$dir/bashrc"
  socket="kdbx-release-check-$$"
  t() { tmux -L "$socket" "$@"; }
  t new-session -d -s c -x 200 -y 50 bash --noprofile --rcfile "$dir/bashrc" </dev/null >/dev/null 2>&1
  pane() { # waits up to 5 s for the pane to show $1
    for _ in $(seq 50); do t capture-pane -p -t c | grep -qF -- "$1" && return 0; sleep 0.1; done
    t capture-pane -p -t c | grep -v '^$'; return 1
  }
  pane ready || fail "tmux: bash did not start"
  t send-keys -t c 'kdbx sh' Tab
  # (capture-pane drops the space that completion adds after the word)
  before=$fails
  pane '$ kdbx show' && ok || fail "tmux: Tab after 'kdbx sh' did not complete 'show'"
  t send-keys -t c C-u 'kdbx add vault.kdbx --gen' Tab
  pane '$ kdbx add vault.kdbx --generate' && ok || fail "tmux: Tab after 'kdbx add vault.kdbx --gen'"
  t send-keys -t c C-u 'kdbx export vault.kdbx --format c' Tab
  pane '$ kdbx export vault.kdbx --format csv' && ok || fail "tmux: Tab after '--format c'"
  t kill-server >/dev/null 2>&1
  [ "$fails" -eq "$before" ] && echo "release-check: bash in tmux completes kdbx sh<TAB>, add --gen<TAB> and --format c<TAB>"
else
  echo "release-check: SKIP the interactive bash completion check (tmux or bash-completion not installed)"
fi

# release.sh refuses a binary whose self-test fails, and packs nothing.
fake="$dir/fake-kdbx"
printf '#!/bin/sh\n[ "$1" = selftest ] && { echo "FAIL sha256 fake"; exit 1; }\necho "kdbx 9.9.9 (commit unknown)"\n' > "$fake"
chmod +x "$fake"
refused="$(bash .ci/release.sh --binary "$fake" --out "$dir/refused" 2>&1)"
if [ $? -ne 0 ] && grep -q 'REFUSED' <<<"$refused" && [ -z "$(ls -A "$dir/refused" 2>/dev/null)" ]; then ok
else fail "release.sh packed a binary whose self-test fails: $refused"; fi

# .spi.yml names every library product of Package.swift, and nothing else, for the Swift Package Index's docs.
products="$(grep -oE '\.library\(name: "[A-Za-z]+"' Package.swift | sed 's/.*"\(.*\)"/\1/' | sort)"
listed="$(sed -n 's/.*documentation_targets: \[\(.*\)\].*/\1/p' .spi.yml | tr ',' '\n' | tr -d ' ' | sort)"
[ -n "$products" ] && [ "$products" = "$listed" ] && ok \
  || fail ".spi.yml documentation_targets ($(echo $listed)) are not the library products ($(echo $products))"

echo "release-check: $passes passed, $fails failed"
[ "$fails" -eq 0 ]
