#!/usr/bin/env bash
# Counts how much of the KDBX module's `package` surface its in-repo clients use: the CLI (Sources/kdbx),
# KDBXFileIO and the wasm module (Sources/KDBXWasm), each and in total (issue #36, "a narrow codec seam").
#
#   bash .ci/package-uses.sh            # the counts per client and in total
#   bash .ci/package-uses.sh --list     # also the symbols each client uses
#   bash .ci/package-uses.sh --check    # fails unless the uses match .ci/package-interface.txt (run by .ci/run),
#                                       # then checks that it fails on a doctored copy of the list
#   bash .ci/package-uses.sh --check FILE   # the same against FILE, without the self-test
#
# Method (by name, from the source text; no compiler involved):
# 1. Declarations: every declaration in Sources/KDBX with the `package` modifier (`public package(set)` is public
#    and is skipped): types (struct, enum, class, actor, protocol, typealias) by their qualified name (`Outer.Inner`
#    for a nested one); members (func, var, let; subscripts are skipped) as `Type.name`, where Type is the enclosing
#    type or extension, found by indentation (swift-format's two-space indentation); `package init`s as
#    `Type(label:)` with the first argument label; the cases of a `package enum` as `Enum.case`.
# 2. Uses, in each client's sources with `//` comments removed: a type when its qualified name occurs as a word, not
#    after a dot; a member or a case when `.name` occurs (member access, or an implicit member) and the outermost
#    type of its owner is named somewhere in the client; an init when `Type(label:` or `Type.init(label:` occurs
#    (`Type(` not followed by a label for an unlabelled init).
# Limits: names, not symbols. A member or case is counted when any `.name` occurs in a client that names its owner,
# so a client's own member of the same name counts too (the --list output shows what matched; members, cases and
# inits whose name or first label is also declared non-`package` in KDBX, as `KeyFile(contents:)` is, are marked
# `~`, as the likeliest false matches). Unqualified uses inside a client's extension of a KDBX type, `.init(...)`
# with an inferred type, and members reached through a protocol default are missed. Distinct symbols are counted:
# two members of the same name in different types are two symbols, both counted when the name is used.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 - "${1:-}" "${2:-.ci/package-interface.txt}" <<'PY'
import os, re, sys

listing = sys.argv[1] == "--list"
checking = sys.argv[1] == "--check"

def swift_files(root):
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)

def strip_comment(line):
    # Drops a `//` comment (not inside a string literal on the same line, roughly: an even count of quotes before).
    index = 0
    while True:
        index = line.find("//", index)
        if index < 0:
            return line
        if line[:index].count('"') % 2 == 0:
            return line[:index]
        index += 2

PACKAGE = re.compile(r"(^|\s)package(?!\s*\()\s+")
DECL = re.compile(
    r"(?:(?:static|class|final|mutating|nonmutating|nonisolated|override|convenience|indirect|lazy|weak|"
    r"required|dynamic|@[A-Za-z_]+(?:\([^)]*\))?)\s+)*"
    r"(struct|enum|class|actor|protocol|typealias|func|var|let|init|subscript|case)\b\s*([A-Za-z_`][A-Za-z0-9_`]*)?")
SCOPE = re.compile(
    r"(?:(?:@[A-Za-z_]+(?:\([^)]*\))?|public|package|internal|private|fileprivate|open|final|indirect)\s+)*"
    r"(struct|enum|class|actor|protocol|extension)\s+([A-Za-z_][A-Za-z0-9_.]*)")
CASE = re.compile(r"^\s*case\s+(.*)$")
OTHER_ACCESS = re.compile(r"(^|\s)(public|open|internal|private|fileprivate)\s+((static|final|mutating|override)\s+)*"
                          r"(func|var|let|case)\s+([A-Za-z_][A-Za-z0-9_]*)")

types, members, inits, cases = set(), set(), set(), set()
other_names = set()  # member names also declared without `package` in KDBX
other_inits = set()  # (type, first label) of inits declared without `package`
for path in swift_files("Sources/KDBX"):
    scopes = []  # (indent, type name, is a package enum)
    for raw in open(path, encoding="utf-8"):
        line = strip_comment(raw.rstrip("\n"))
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        stripped = line.strip()
        if not stripped.startswith(("where ", "{")):
            while scopes and indent <= scopes[-1][0]:
                scopes.pop()
        enclosing = scopes[-1][1] if scopes else None
        other = OTHER_ACCESS.search(line)
        if other:
            other_names.add(other.group(6))
        other_init = re.search(r"(^|\s)(public|open|internal|private|fileprivate)\s+(convenience\s+)?init[?!]?\s*\(\s*"
                               r"([A-Za-z_][A-Za-z0-9_]*)?", line)
        if other_init and enclosing:
            other_inits.add((enclosing, other_init.group(4) or "_"))
        # Enum cases of a package enum: one level inside it, not a `switch` case (those end with `:`).
        if scopes and scopes[-1][2] and indent == scopes[-1][0] + 2:
            match = CASE.match(line)
            if match and not line.rstrip().endswith(":"):
                depth, part = 0, ""
                for char in match.group(1):
                    depth += (char in "([") - (char in ")]")
                    part += "\n" if char == "," and depth == 0 else char
                for item in part.split("\n"):
                    name = re.match(r"\s*`?([A-Za-z_][A-Za-z0-9_]*)", item)
                    if name:
                        cases.add((enclosing, name.group(1)))
        package = PACKAGE.search(line)
        scope = SCOPE.match(stripped)
        if scope:
            kind, name = scope.groups()
            qualified = name if kind == "extension" or not scopes else f"{scopes[-1][1]}.{name}"
            scopes.append((indent, qualified, kind == "enum" and bool(package)))
        if not package:
            continue
        rest = line[package.end():]
        decl = DECL.match(rest)
        if not decl:
            continue
        kind, name = decl.groups()
        name = (name or "").strip("`")
        if kind in ("struct", "enum", "class", "actor", "protocol", "typealias"):
            types.add(f"{enclosing}.{name}" if enclosing else name)
        elif kind in ("func", "var", "let") and name:
            members.add((enclosing, name))
        elif kind == "init" and enclosing:
            label = re.match(r"\s*[?!]?\s*(?:<[^>]*>)?\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)?", rest[decl.end():])
            first = label.group(1) if label and label.group(1) else "_"
            if first != "_" and re.match(r"\s*\(\s*" + first + r"\s+[A-Za-z_]", rest[decl.end():]) is None and \
                    re.match(r"\s*\(\s*" + first + r"\s*:", rest[decl.end():]) is None:
                first = "_"
            if re.match(r"\s*\(\s*\)", rest[decl.end():]):
                first = ""
            inits.add((enclosing, first))

# A package init whose first label a non-package init of the same type shares: its uses are ambiguous.
ambiguous_inits = {f"{owner}({label}:)" for owner, label in inits if (owner, label or "_") in other_inits}
clients = {"kdbx (CLI)": "Sources/kdbx", "KDBXFileIO": "Sources/KDBXFileIO", "KDBXWasm": "Sources/KDBXWasm"}

def interface(path):
    # The committed interface: per client, the listed symbols ("kind Symbol"), those marked `not` (name matches that
    # are no package use), and the owners that have a reason.
    listed, not_uses, reasons, problems = {}, {}, {}, []
    client = None
    for number, raw in enumerate(open(path, encoding="utf-8"), 1):
        line = raw.rstrip("\n")
        section = re.match(r"\[(.+)\]$", line)
        if section:
            client = section.group(1)
            listed[client], not_uses[client], reasons[client] = set(), set(), set()
            continue
        if client is None or not line.strip():
            continue
        if line.startswith("#"):
            reason = re.match(r"# (\w+):\s*(\S.*)$", line)
            if reason:
                reasons[client].add(reason.group(1))
            continue
        entry = re.match(r"(not )?(type|member|init|case) (\S+)(\s+# .+)?$", line)
        if not entry or (entry.group(1) and not entry.group(4)):
            problems.append(f"{path}:{number}: not `kind Symbol` (or `not kind Symbol  # what it is`): {line}")
            continue
        symbol = (entry.group(2), entry.group(3))
        listed[client].add(symbol)
        if entry.group(1):
            not_uses[client].add(symbol)
        owner = re.split(r"[.(]", entry.group(3))[0]
        if owner not in reasons[client]:
            problems.append(f"{path}:{number}: {entry.group(3)} has no `# {owner}: reason` line before it")
    return listed, not_uses, problems

if checking:
    listed, not_uses, problems = interface(sys.argv[2])
total = set()
real_total = set()
print(f"KDBX package declarations: {len(types)} types, {len(members)} members, {len(inits)} inits, "
      f"{len(cases)} cases")
for client, root in clients.items():
    text = "\n".join(strip_comment(raw) for path in swift_files(root) for raw in open(path, encoding="utf-8"))
    used = set()
    for name in types:
        if re.search(r"(?<![.\w])" + re.escape(name) + r"\b", text):
            used.add(("type", name))
    for owner, name in members | cases:
        if owner and re.search(r"\b" + re.escape(owner.split(".")[0]) + r"\b", text) and \
                re.search(r"\." + re.escape(name) + r"\b", text):
            used.add(("case" if (owner, name) in cases else "member", f"{owner}.{name}"))
    for owner, label in inits:
        if label == "_":
            pattern = r"\b" + re.escape(owner) + r"(\.init)?\((?!\s*[A-Za-z_][A-Za-z0-9_]*\s*:)(?!\s*\))"
        elif label == "":
            pattern = r"\b" + re.escape(owner) + r"(\.init)?\(\s*\)"
        else:
            pattern = r"\b" + re.escape(owner) + r"(\.init)?\(\s*" + re.escape(label) + r"\s*:"
        if re.search(pattern, text):
            used.add(("init", f"{owner}({label}:)" if label else f"{owner}()"))
    total |= used
    counts = {kind: sum(1 for k, _ in used if k == kind) for kind in ("type", "member", "init", "case")}
    ambiguous_names = {name for kind, name in used if kind in ("member", "case") and name.split(".")[-1] in other_names}
    ambiguous_names |= {name for kind, name in used if kind == "init" and name in ambiguous_inits}
    ambiguous = len(ambiguous_names)
    print(f"{client}: {len(used)} package symbols ({counts['type']} types, {counts['member']} members, "
          f"{counts['init']} inits, {counts['case']} cases; {ambiguous} of them by a name also declared "
          f"non-package, marked ~ in --list)")
    if checking:
        section = client.split()[0]  # the list's section: the client's name without "(CLI)"
        for kind, name in sorted(used - listed.get(section, set())):
            problems.append(f"{section}: uses package {kind} {name}, not in {sys.argv[2]} (use the public "
                            f"API, or add it there under its owner with the reason)")
        for kind, name in sorted(listed.get(section, set()) - used):
            problems.append(f"{section}: {sys.argv[2]} lists {kind} {name}, which it no longer uses "
                            f"(remove the line)")
        real = used - not_uses.get(section, set())
        real_total |= real
        print(f"  {len(real)} of them package uses by the committed interface ({len(used) - len(real)} name matches "
              f"marked `not`)")
    if listing:
        for kind, name in sorted(used):
            mark = "~" if name in ambiguous_names else " "
            print(f"  {mark} {kind:6} {name}")
print(f"total (distinct over the three): {len(total)}")
if checking:
    print(f"package uses by the committed interface, distinct over the three: {len(real_total)}")
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"package interface: matches {sys.argv[2]}")
PY

# Self-test of --check (only when it checked the committed list): a copy without the CLI's first listed use, with a
# symbol no client uses and a symbol whose owner has no reason must fail with exactly four errors (the use not
# listed, the two symbols listed but not used, the owner without a reason).
if [ "${1:-}" = "--check" ] && [ -z "${2:-}" ]; then
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  # The first listed use of the CLI's section (a line that is a symbol, not a comment or a `not` line).
  dropped=$(awk '/^\[/ { section = $0 } section == "[kdbx]" && /^(type|member|init|case) / { print; exit }' \
    .ci/package-interface.txt)
  awk -v dropped="$dropped" '$0 == dropped && !done { done = 1; next } { print }' .ci/package-interface.txt \
    > "$scratch/list.txt"
  printf '# Meta: a reason\nmember Meta.noSuchMember\nmember Unreasoned.member\n' >> "$scratch/list.txt"
  if bash .ci/package-uses.sh --check "$scratch/list.txt" > /dev/null 2> "$scratch/errors.txt"; then
    echo "package-uses self-test: a doctored list passed the check" >&2
    exit 1
  fi
  for expected in "uses package $dropped, not in" "lists member Meta.noSuchMember, which it no longer uses" \
    "Unreasoned.member has no \`# Unreasoned: reason\` line"; do
    if ! grep -qF "$expected" "$scratch/errors.txt"; then
      echo "package-uses self-test: expected an error containing: $expected" >&2
      cat "$scratch/errors.txt" >&2
      exit 1
    fi
  done
  if [ "$(wc -l < "$scratch/errors.txt")" -ne 4 ]; then
    echo "package-uses self-test: expected 4 errors, got:" >&2
    cat "$scratch/errors.txt" >&2
    exit 1
  fi
  echo "package-uses self-test: a doctored list fails with the expected errors"
fi
