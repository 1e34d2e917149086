#!/usr/bin/env bash
# Makes the release archive of the kdbx command-line tool for this machine:
#   kdbx-VERSION-OS-ARCH.tar.gz with kdbx (static Swift runtime), kdbx.1, completions/{kdbx.bash,_kdbx,kdbx.fish},
#   README.md, CHANGELOG.md, LICENSE and SHA256SUMS; and beside it
#   kdbx-VERSION-OS-ARCH.tar.gz.sha256.
#
# Usage: bash .ci/release.sh [--out DIR] [--binary PATH | --relink]
#   --out DIR      where the archive goes (default .build/dist)
#   --binary PATH  pack this kdbx instead of building one (it still has to pass its self-test)
#   --relink       (Linux; what CI does) instead of a second, static build of every module: build the release test
#                  build again (`swift test -c release` with a filter no test matches: only the kdbx module compiles
#                  again, with the commit) and run SwiftPM's own link of kdbx once more with the Swift runtime
#                  linked in (.ci/relink-static.py reads the link command from the build manifest). The objects are
#                  those of the release build the tests ran on.
#   RELEASE_BUILD_PATH=DIR (environment) builds in DIR instead of .build
#
# The binary names the commit it was built from: Sources/kdbx/BuildInfo.swift gets the commit (and its date, for
# the manual page) for the build and is put back afterwards, whatever happens. A work tree that differs from the
# commit gives "COMMIT+modified". A binary whose `kdbx selftest` fails is not packed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/dist
binary=""
relink=false
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    --relink) relink=true; shift ;;
    *) echo "release.sh: unknown argument $1 (usage: bash .ci/release.sh [--out DIR] [--binary PATH | --relink])" >&2; exit 2 ;;
  esac
done

if [ -z "$binary" ]; then
  info=Sources/kdbx/BuildInfo.swift
  commit="$(git rev-parse HEAD)"
  date="$(git log -1 --format=%cs HEAD)"
  # Ignored files (.build, logs) do not count; anything else that differs from the commit does.
  if [ -n "$(git status --porcelain --untracked-files=normal)" ]; then commit="$commit+modified"; fi
  saved="$(mktemp)"
  cp "$info" "$saved"
  restore() { cp "$saved" "$info"; rm -f "$saved"; }
  trap restore EXIT
  grep -q '^  static let commit: String? = nil$' "$info" && grep -q '^  static let commitDate: String? = nil$' "$info" \
    || { echo "release.sh: $info does not have the lines this script replaces" >&2; exit 1; }
  sed -i "s|^  static let commit: String? = nil\$|  static let commit: String? = \"$commit\"|; \
s|^  static let commitDate: String? = nil\$|  static let commitDate: String? = \"$date\"|" "$info"
  path="${RELEASE_BUILD_PATH:-.build}"
  if $relink; then
    echo "release.sh: building kdbx at $commit in the release test build, then linking the Swift runtime in"
    log="$(mktemp)"
    swift test -c release --build-path "$path" --filter '^NoTestHasThisName$' > "$log" 2>&1 \
      || { tail -40 "$log" >&2; rm -f "$log"; echo "release.sh: the release build failed" >&2; exit 1; }
    rm -f "$log"
    bin="$(realpath "$(swift build -c release --build-path "$path" --show-bin-path)")"
    linked="$(mktemp -d)"
    binary="$linked/kdbx"
    python3 .ci/relink-static.py "$path/release.yaml" "$bin/kdbx" "$binary"
  else
    echo "release.sh: building kdbx at $commit (static Swift runtime)"
    build=(swift build -c release --static-swift-stdlib --build-path "$path" --product kdbx)
    "${build[@]}"
    binary="$("${build[@]}" --show-bin-path)/kdbx"
  fi
  restore
  trap - EXIT
fi
[ -x "$binary" ] || { echo "release.sh: $binary is not an executable" >&2; exit 1; }

# The self-test decides: a binary that fails it is not packed.
if ! selftest="$("$binary" selftest 2>&1)"; then
  echo "$selftest" | grep -v '^ok ' | tail -20 >&2
  echo "release.sh: REFUSED: $binary failed 'kdbx selftest'; nothing was packed" >&2
  exit 1
fi
echo "release.sh: $(echo "$selftest" | grep -c '^ok ') self-test checks passed"

version="$("$binary" --version)"
number="$(echo "$version" | awk '{print $2}')"
os="$(uname -s | tr '[:upper:]' '[:lower:]')"
name="kdbx-$number-$os-$(uname -m)"
stage="$(mktemp -d)"
trap 'rm -rf "$stage" ${linked:+"$linked"}' EXIT
mkdir -p "$stage/$name/completions"
cp "$binary" "$stage/$name/kdbx"
"$binary" man > "$stage/$name/kdbx.1"
"$binary" completions bash > "$stage/$name/completions/kdbx.bash"
"$binary" completions zsh > "$stage/$name/completions/_kdbx"
"$binary" completions fish > "$stage/$name/completions/kdbx.fish"
cp README.md CHANGELOG.md "$stage/$name/"
cp LICENSE "$stage/$name/"
(cd "$stage/$name" && find . -type f ! -name SHA256SUMS | sed 's|^\./||' | sort | xargs sha256sum > SHA256SUMS)

mkdir -p "$out"
archive="$(cd "$out" && pwd)/$name.tar.gz"
tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$archive" "$name"
(cd "$out" && sha256sum "$name.tar.gz" > "$name.tar.gz.sha256")
echo "release.sh: $version"
echo "release.sh: $archive ($(du -k "$archive" | cut -f1) KiB)"
