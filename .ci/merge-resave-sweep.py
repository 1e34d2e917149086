#!/usr/bin/env python3
"""Issue #26 acceptance: merging each valid KDBX file of ../shared/corpus with its own re-save by KeePass 2
(KeePassLib under mono, ../shared/peers/kp2dump.sh --resave), by keepassxc-cli (`db-edit` setting the same
password or key file again, which rewrites the file and changes no entry) and by pykeepass (`PyKeePass.save()`)
must change nothing: `kdbx merge` reports "0 change(s), 0 conflict(s)" and the history counts stay equal.

Not part of .ci/run: the heavy Argon2 files derive their key in every peer (KeePass 2's managed Argon2 takes
minutes on the largest); the Swift test MergeResaveTests runs the light files in CI. A peer that cannot open or
write a file (KeePass 2.47 has no Twofish and writes KDBX 4.0; pykeepass reads no KDBX 2.x) is listed as skipped.

Usage: python3 .ci/merge-resave-sweep.py [path/to/kdbx] [substring of file paths to select ...]
       (default binary: .build/release/kdbx)
"""
import json, os, shutil, subprocess, sys, tempfile

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
K = sys.argv[1] if len(sys.argv) > 1 else os.path.join(repo, ".build/release/kdbx")
only = sys.argv[2:]
shared = next((c for c in (os.path.join(repo, "../shared"), os.path.join(repo, "../../shared"))
               if os.path.exists(os.path.join(c, "corpus/MANIFEST.tsv"))), None)
if shared is None:
    print("merge-resave-sweep: SKIPPED, ../shared/corpus is absent")
    sys.exit(0)
root = os.path.join(shared, "corpus")
kp2dump = os.path.join(shared, "peers/kp2dump.sh")
HARDWARE = {"keepass-rs/test_db_with_challenge_response_key.kdbx", "keepassxc/YubiKeyProtectedPasswords.kdbx"}
# Re-saves that really change content, so that the merge must report it (and keeps both versions).
CHANGED = {
    ("keepass-rs/test_db_kdbx3_with_chacha20_protected_fields.kdbx", "keepassxc-cli"):
        "keepassxc-cli 2.7.4 decodes this KDBX 3.1 file's ChaCha20 inner stream wrongly (MANIFEST: 'admin' vs a "
        "garbled password), so its re-save holds another password with the same modification time: a conflict",
}

files = []
for line in open(os.path.join(root, "MANIFEST.tsv"), encoding="utf-8").read().splitlines()[1:]:
    c = line.split("\t")
    if len(c) > 8 and c[4].startswith("KDBX") and c[8] == "no" and c[0] not in HARDWARE:
        files.append((c[0], None if c[5] == "-" else c[5], None if c[6] == "-" else os.path.join(root, c[6])))


def kdbx(args, password, key_file, stdin_extra=""):
    credentials = (["--no-password"] if password is None else []) + (["--key-file", key_file] if key_file else [])
    stdin = ("" if password is None else password + "\n") + stdin_extra
    return subprocess.run([K] + args + credentials, input=stdin, capture_output=True, text=True)


def history_counts(path, password, key_file):
    r = kdbx(["export", path, "--format", "json"], password, key_file)
    if r.returncode != 0:
        return None
    return sum(e["historyCount"] for e in json.loads(r.stdout)["entries"])


def resave_keepass2(path, password, key_file, out):
    if not os.path.exists(kp2dump) or shutil.which("mono") is None or not os.path.exists("/usr/lib/keepass2/KeePass.exe"):
        return "mono or keepass2 missing"
    args = ["bash", kp2dump, path, "--resave", out]
    if password is not None:
        args += ["--password", password]
    if key_file:
        args += ["--keyfile", key_file]
    r = subprocess.run(args, capture_output=True, text=True)
    return None if r.returncode == 0 and os.path.exists(out) else "KeePass 2: " + (r.stderr.strip() or r.stdout.strip())[:120]


def resave_keepassxc(path, password, key_file, out):
    if shutil.which("keepassxc-cli") is None:
        return "keepassxc-cli missing"
    shutil.copy(path, out)
    os.chmod(out, 0o600)
    args = ["keepassxc-cli", "db-edit", "-q"] + (["-k", key_file] if key_file else [])
    if password is None:
        args += ["--no-password", "--set-key-file", key_file, out]
        stdin = ""
    elif password == "":
        # An empty password that is part of the key: `-p` cannot set it (an empty answer removes the password).
        if key_file:
            args += ["--set-key-file", key_file, out]
        else:
            # Edit an entry's title to the title it has: keepassxc-cli rewrites the file and changes nothing.
            listed = subprocess.run(["keepassxc-cli", "ls", "-q", "-R", "-f", out], input="\n", capture_output=True,
                                    text=True)
            entries = [line for line in listed.stdout.splitlines() if line and not line.endswith("/")]
            if not entries:
                return "keepassxc-cli cannot re-save an empty-password vault without entries"
            args = ["keepassxc-cli", "edit", "-q", out, entries[0], "-t", entries[0].split("/")[-1]]
        stdin = "\n"
    else:
        args += ["-p", out]
        stdin = f"{password}\n{password}\n{password}\n"
    r = subprocess.run(args, input=stdin, capture_output=True, text=True)
    return None if r.returncode == 0 else "keepassxc-cli: " + (r.stderr.strip() or r.stdout.strip())[:120]


def resave_pykeepass(path, password, key_file, out):
    script = ("import sys; from pykeepass import PyKeePass\n"
              "p = sys.argv[2][1:] if sys.argv[2] else None; k = sys.argv[3] or None\n"
              "PyKeePass(sys.argv[1], password=p, keyfile=k).save(sys.argv[4])\n")
    r = subprocess.run([sys.executable, "-c", script, path, "" if password is None else "=" + password, key_file or "", out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        last = (r.stderr.strip().splitlines() or ["?"])[-1]
        return "pykeepass: " + last[:120]
    return None


PEERS = [("KeePass 2", resave_keepass2), ("keepassxc-cli", resave_keepassxc), ("pykeepass", resave_pykeepass)]
checked = failed = skipped = 0
for name, password, key_file in files:
    if only and not any(o in name for o in only):
        continue
    path = os.path.join(root, name)
    before = history_counts(path, password, key_file)
    if before is None:
        print(f"SKIP {name}: kdbx cannot export it")
        skipped += 1
        continue
    scratch = tempfile.mkdtemp()
    try:
        for peer, resave in PEERS:
            other = os.path.join(scratch, "resave.kdbx")
            if os.path.exists(other):
                os.remove(other)
            why = resave(path, password, key_file, other)
            if why:
                print(f"SKIP {name} / {peer}: {why}")
                skipped += 1
                continue
            readable = kdbx(["info", other], password, key_file)
            if readable.returncode != 0:
                print(f"SKIP {name} / {peer}: kdbx cannot open the re-save: {readable.stderr.strip()[:120]}")
                skipped += 1
                continue
            vault = os.path.join(scratch, "v.kdbx")
            shutil.copy(path, vault)
            os.chmod(vault, 0o600)
            dry = kdbx(["merge", vault, other, "--same-credentials", "--dry-run", "--json"], password, key_file)
            merged = kdbx(["merge", vault, other, "--same-credentials"], password, key_file)
            after = history_counts(vault, password, key_file)
            first = merged.stdout.splitlines()[0] if merged.stdout else merged.stderr.strip()
            ok = merged.returncode == 0 and ": 0 change(s), 0 conflict(s)" in first and after == before
            known = CHANGED.get((name, peer))
            if known:
                ok = merged.returncode == 0 and " 1 conflict(s)" in first
            checked += 1
            if not ok:
                failed += 1
            label = ("ok  " if ok else "FAIL") if not known else ("kept" if ok else "FAIL")
            print(f"{label} {name} / {peer}: {first.split(': ', 1)[-1]}; history {before} -> {after}"
                  + (f" (expected: {known})" if known else ""))
            if not ok and dry.returncode == 0:
                for line in dry.stdout.splitlines()[:12]:
                    print("       " + line)
    finally:
        shutil.rmtree(scratch)
print(f"merge-resave-sweep: {checked} merges, {failed} not a no-op, {skipped} skipped")
sys.exit(1 if failed else 0)
