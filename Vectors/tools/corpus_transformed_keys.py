#!/usr/bin/env python3
"""Writes Vectors/kdbx/corpus-transformed-keys.vec: for every valid KDBX 3.x/4.x file in ../shared/corpus
(MANIFEST.tsv), the transformed key that pykeepass 4.2.0 computes when it opens the file with the listed
credentials (`PyKeePass(...).transformed_key`: the KDF output, before the master seed is mixed in).

The corpus files themselves stay outside the repository; these keys let the debug-mode test suite open them
without re-running expensive KDFs (some use 128 MiB x 16 passes of Argon2). Our own KDF is checked separately
against RFC/NIST/argon2-cffi vectors, and against these keys for the cheap files.
Usage: python3 Vectors/tools/corpus_transformed_keys.py [CORPUS_DIR]
"""
import csv
import os
import sys

from pykeepass import PyKeePass

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "shared", "corpus")
OUT = os.path.join(HERE, "..", "kdbx", "corpus-transformed-keys.vec")

rows = []
with open(os.path.join(CORPUS, "MANIFEST.tsv"), newline="") as f:
    for row in csv.DictReader(f, delimiter="\t"):
        if not (row["format_guess"].startswith("KDBX3") or row["format_guess"].startswith("KDBX4")):
            continue
        if row["negative"] != "no" or not row["file"].endswith(".kdbx"):
            continue
        password = None if row["password"] == "-" else row["password"]
        keyfile = None if row["keyfile"] == "-" else os.path.join(CORPUS, row["keyfile"])
        try:
            kp = PyKeePass(os.path.join(CORPUS, row["file"]), password, keyfile)
        except Exception as error:  # challenge-response or files pykeepass cannot read
            print("skip", row["file"], type(error).__name__, file=sys.stderr)
            continue
        rows.append((row["file"], row["cipher_kdf"], kp.transformed_key.hex()))

with open(OUT, "w") as f:
    f.write("# Transformed keys (KDF output) of the valid KDBX files in ../shared/corpus, as computed by pykeepass\n")
    f.write("# 4.2.0 with the MANIFEST.tsv credentials; written by Vectors/tools/corpus_transformed_keys.py.\n")
    for path, settings, key in rows:
        f.write(f'\n# {settings}\nfile = "{path}"\nkey = {key}\n')
print("wrote", len(rows), "keys to", OUT)
