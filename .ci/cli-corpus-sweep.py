#!/usr/bin/env python3
"""Runs every kdbx command on every valid KDBX file of ../shared/corpus and on the demo vault, and reports each
unexpected exit status. Not part of .ci/run (about 1,900 runs; 10-20 minutes with a release build, because the
heavy Argon2 files derive their key on every run). Issue #8 acceptance: "every command works on the demo vault and
on the ../shared/corpus files".

Usage: python3 .ci/cli-corpus-sweep.py [path/to/kdbx] [substring of file paths to select ...]
       (default binary: .build/release/kdbx)

Expected, not counted as failures:
- files whose key needs a hardware challenge-response (the CLI has no option for one): exit 2 is checked once;
- `search` exits 1 when nothing matches (as keepassxc-cli does);
- an entry with an empty title or a '/' in it has no path; it is shown by UUID only.
"""
import json, os, shutil, subprocess, sys, tempfile

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo, ".build/release/kdbx")
only = sys.argv[2:]
root = next((c for c in (os.path.join(repo, "../shared/corpus"), os.path.join(repo, "../../shared/corpus"))
             if os.path.exists(os.path.join(c, "MANIFEST.tsv"))), None)
if root is None:
    print("cli-corpus-sweep: SKIPPED, ../shared/corpus is absent")
    sys.exit(0)
HARDWARE = {"keepass-rs/test_db_with_challenge_response_key.kdbx", "keepassxc/YubiKeyProtectedPasswords.kdbx"}

files = []
for line in open(os.path.join(root, "MANIFEST.tsv"), encoding="utf-8").read().splitlines()[1:]:
    c = line.split("\t")
    if len(c) > 8 and c[4].startswith("KDBX") and c[8] == "no":
        files.append((c[0], None if c[5] == "-" else c[5], None if c[6] == "-" else os.path.join(root, c[6])))
files.append((os.path.join(repo, "Vectors/demo/demo.kdbx"), "demo", None))

runs = fails = 0
for name, password, key_file in files:
    if only and not any(o in name for o in only):
        continue
    path = os.path.join(root, name)
    credentials = (["--no-password"] if password is None else []) + (["--key-file", key_file] if key_file else [])

    def run(args, expect=0, extra=""):
        global runs, fails
        stdin = ("" if password is None else password + "\n") + extra
        r = subprocess.run([K] + args + credentials, input=stdin, capture_output=True, text=True)
        runs += 1
        if r.returncode != expect:
            fails += 1
            print(f"FAIL {name}: kdbx {args[0]} {' '.join(args[2:4])}: exit {r.returncode}, expected {expect}: "
                  f"{r.stderr.strip()[:200]}")
        return r

    if name in HARDWARE:
        run(["info", path], expect=2)
        continue
    exported = run(["export", path, "--format", "json"])
    if exported.returncode != 0:
        continue
    document = json.loads(exported.stdout)
    entries = document["entries"]
    for args in (["info", path], ["info", path, "--json"], ["ls", path, "-R"], ["ls", path, "-R", "--flatten", "--json"],
                 ["export", path, "--format", "xml"], ["export", path, "--format", "csv"], ["verify", path]):
        run(args)
    run(["search", path, "e"], expect=0 if any("e" in (e["title"] + e["username"] + e["url"] + e["notes"] + " ".join(e["tags"])).lower()
                                                   for e in entries) else 1)
    for entry in entries[:3]:
        run(["show", path, entry["uuid"], "-s", "--json"])
        if entry["title"] and "/" not in entry["title"]:
            same = [e for e in entries if e["groupPath"] == entry["groupPath"] and e["title"] == entry["title"]]
            run(["show", path, "/".join(entry["groupPath"] + [entry["title"]])], expect=0 if len(same) == 1 else 1)
    for entry in entries:
        if any(f in entry["fields"] for f in ("otp", "TOTP Seed", "TimeOtp-Secret-Base32")):
            run(["totp", path, entry["uuid"]])
            break
    scratch = tempfile.mkdtemp()
    try:
        vault = os.path.join(scratch, "v.kdbx")
        shutil.copy(path, vault)
        os.chmod(vault, 0o600)
        with open(os.path.join(scratch, "a.txt"), "w") as handle:
            handle.write("attach\n")
        run(["mkdir", vault, "Sweep"])
        run(["add", vault, "Sweep/Entry", "--username", "u", "-g"])
        run(["edit", vault, "Sweep/Entry", "--url", "https://x.example"])
        run(["attachment-import", vault, "Sweep/Entry", "a.txt", os.path.join(scratch, "a.txt")])
        run(["attachment-export", vault, "Sweep/Entry", "a.txt", os.path.join(scratch, "b.txt")])
        run(["attachment-rm", vault, "Sweep/Entry", "a.txt"])
        if entries:
            run(["mv", vault, entries[0]["uuid"], "Sweep"])
        run(["rm", vault, "Sweep/Entry"])
        run(["rmdir", vault, "Sweep"])
        run(["merge", vault, path, "--same-credentials"])
        converted = os.path.join(scratch, "c.kdbx")
        run(["convert", vault, converted, "--format", "4.1", "--kdf", "aes-kdf", "--rounds", "1000", "--accept-loss"])
        run(["verify", converted])
    finally:
        shutil.rmtree(scratch)
print(f"cli-corpus-sweep: {runs} runs, {fails} unexpected exit statuses")
sys.exit(1 if fails else 0)
