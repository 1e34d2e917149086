#!/usr/bin/env python3
"""Links an executable of a SwiftPM build again with the Swift runtime linked in (-static-stdlib).

Usage: python3 .ci/relink-static.py MANIFEST EXECUTABLE OUTPUT

MANIFEST is SwiftPM's build manifest of the configuration (`.build/release.yaml`), EXECUTABLE the path SwiftPM links
(`.build/x86_64-unknown-linux-gnu/release/kdbx`), OUTPUT where the static copy goes. The link command is the one
SwiftPM ran: the `args` of the manifest command whose only output is EXECUTABLE and which emits an executable (the
same objects, flags, entry point and link file list), with `-o OUTPUT` and `-static-stdlib` (what
`swift build --static-swift-stdlib` adds to a link; its one compile flag, `-use-static-resource-dir`, picks the same
Swift modules). Read from the manifest and not from a verbose build: `-v` reaches every compile command, and SwiftPM
then compiles everything again.

The manifest is llbuild YAML; each command's `outputs:` and `args:` are one line holding a JSON array, which is all
this reads. Exits 1 with a message when no such command is found.
"""
import json
import os
import sys


def link_command(manifest: str, executable: str):
    outputs = None
    with open(manifest, encoding="utf-8") as lines:
        for line in lines:
            stripped = line.strip()
            if line.startswith("  ") and not line.startswith("    ") and stripped.endswith(":"):
                outputs = None  # a new command
            elif stripped.startswith("outputs: "):
                outputs = json.loads(stripped[len("outputs: "):])
            elif stripped.startswith("args: ") and outputs == [executable]:
                args = json.loads(stripped[len("args: "):])
                if "-emit-executable" in args and "-o" in args:
                    return args
    return None


def main() -> int:
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    manifest, executable, output = sys.argv[1:]
    args = link_command(manifest, executable)
    if args is None:
        print(f"relink-static: no link of {executable} in {manifest}", file=sys.stderr)
        return 1
    index = args.index("-o")
    args[index + 1] = output
    args.append("-static-stdlib")
    os.execvp(args[0], args)


if __name__ == "__main__":
    sys.exit(main())
