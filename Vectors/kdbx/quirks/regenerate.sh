#!/usr/bin/env bash
# Writes the quirk fixtures of this folder again. They are built by hand, layer by layer, with the library's own
# primitives, by Tests/KDBXTests/Corpus/QuirkFixtures.swift (recipes in `QuirkFixtures.committed`); the test that writes
# them then checks that they open with their warning and hold the expected content.
set -euo pipefail
cd "$(dirname "$0")/../../.."
KDBX_WRITE_QUIRK_FIXTURES=1 swift test --filter 'QuirkFixtureTests/committedFixtureOpensWithItsWarning'
