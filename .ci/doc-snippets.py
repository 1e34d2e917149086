#!/usr/bin/env python3
"""Type-checks every Swift code block of the documentation as a client of the public API.

Usage: doc-snippets.py MODULES_DIR [--list] [--only FILE.md]
       doc-snippets.py --coverage MODULE [SYMBOL_GRAPH_DIR] [--missing]

  MODULES_DIR  the directory with the built .swiftmodule files (`$(swift build --show-bin-path)/Modules`; .ci/api-check.sh
               passes it after building every library module)
  --list       print the blocks found, one line each, and compile nothing
  --only F.md  check the ```swift blocks of that one Markdown file (as README's are: KDBX and KDBXFileIO imported,
               README's context); .ci/api-check.sh runs it on .ci/snippets/failing-example.md, which must fail
  --coverage M lists every public type of module M (structs, enums, classes, actors, protocols, nested ones by their
               path, `Outer.Inner`) and whether its own doc comment (the `///` lines directly above its declaration)
               holds a block this script compiles; fails when one has none and prints "M: N public types, N with a
               compiled example". The types are read from the declarations under Sources/M (the symbol graph leaves
               some out: swift-symbolgraph-extract 6.3 omits `KDBXVersion`); with SYMBOL_GRAPH_DIR (the output of
               swift-symbolgraph-extract, .ci/api-check.sh's .ci/out/api/M) a type of the graph that the scan of the
               sources does not find fails the check too. --missing prints only the types without an example.

What is compiled: every ```swift block of README.md and of the DocC articles (Sources/*/*.docc/*.md), and every
``` or ```swift block in a `///` doc comment under Sources. Blocks are grouped by where they are read: README.md, each
article, and each module's doc comments; each group is one client module (no -package-name, so `package`
declarations are out of reach), type-checked with `swiftc -typecheck -swift-version 6`.

How a block becomes code:
  - `import` lines go to the top of its file;
  - a block whose every top-level statement is a declaration (func, class, struct, enum, extension, actor, an
    attribute) is compiled as it is, at file scope;
  - any other block is the body of its own `func ...() throws` (`async throws` when it awaits: an example without
    `await` is for synchronous code), so statements and `try` work and names it declares do not clash with other
    blocks;
  - a Package.swift fragment (`.product(...)`, `.package(...)`) is checked against PackageDescription as an element
    of the manifest's array.
Names a block uses without declaring them (the vault's bytes, a clock, the app's keychain) come from the group's
context file, .ci/snippets/<Module>.swift: declarations with the types an app would have there, never run.

A block that is not Swift to compile (a byte layout, a URI) is fenced without a language in a doc comment only when
it is Swift; anything else takes a language name (```text) and is left alone. The output names each failing block by
its file and line, with the compiler's message.
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

REPO = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DECLARATION = re.compile(
    r"^(@|(public |private |fileprivate |internal |final |nonisolated )*"
    r"(func|class|struct|enum|extension|actor|protocol|typealias|let|var)\b)"
)


# Warnings that say the example misleads its reader (a `try` or `await` on a call that neither throws nor
# suspends, a deprecated or renamed API) fail the check; unused names in an example do not.
FATAL_WARNING = re.compile(r"no calls to throwing functions|no 'async' operations|deprecated|renamed")


class Block:
    def __init__(self, origin, line, code, group):
        self.origin, self.line, self.code, self.group = origin, line, code, group


def markdown_blocks(path, group):
    blocks, current, start = [], None, 0
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        stripped = line.strip()
        if current is None and stripped == "```swift":
            current, start = [], number + 1
        elif current is not None and stripped == "```":
            blocks.append(Block(path, start, current, group))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def doc_comment_blocks(path, group):
    blocks, current, start, indent, other = [], None, 0, 0, False
    for number, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        stripped = line.strip()
        if not stripped.startswith("///"):
            current, other = None, False
            continue
        text = stripped[3:]
        fence = text.strip()
        if other:  # inside a block in another language (```text): its closing fence opens nothing
            other = fence != "```"
        elif current is None and fence.startswith("```") and fence not in ("```", "```swift"):
            other = True
        elif current is None and fence in ("```", "```swift"):
            current, start, indent = [], number + 1, len(text) - len(text.lstrip())
        elif current is not None and fence == "```":
            blocks.append(Block(path, start, current, group))
            current = None
        elif current is not None:
            current.append(text[indent:] if text[:indent].strip() == "" else text.lstrip())
    return blocks


def collect():
    blocks = markdown_blocks(os.path.join(REPO, "README.md"), "README")
    for article in sorted(glob.glob(os.path.join(REPO, "Sources", "*", "*.docc", "*.md"))):
        module = os.path.basename(os.path.dirname(os.path.dirname(article)))
        blocks += markdown_blocks(article, module + "-" + os.path.splitext(os.path.basename(article))[0])
    for source in sorted(glob.glob(os.path.join(REPO, "Sources", "**", "*.swift"), recursive=True)):
        module = os.path.relpath(source, os.path.join(REPO, "Sources")).split(os.sep)[0]
        blocks += doc_comment_blocks(source, module)
    return blocks


TYPE_DECLARATION = re.compile(
    r"^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|private|fileprivate|final|nonisolated|open|"
    r"indirect)\s+)*)(struct|enum|class|protocol|actor|extension)\s+([\w.]+)"
)


def public_types(module):
    """[(path, file, line of the declaration)] of the public types declared under Sources/<module>, nested ones
    with their enclosing types' names (from the enclosing type or extension)."""
    found = []
    for source in sorted(glob.glob(os.path.join(REPO, "Sources", module, "**", "*.swift"), recursive=True)):
        depth, stack, pending = 0, [], None  # stack: (name, depth inside its braces)
        for number, line in enumerate(open(source, encoding="utf-8").read().split("\n"), 1):
            code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
            match = TYPE_DECLARATION.match(code)
            if match:
                name = match.group(3)
                if match.group(2) != "extension":
                    path = ".".join([entry[0] for entry in stack] + [name])
                    if "public" in match.group(1).split():
                        found.append((path, source, number))
                pending = name
            for character in code:
                if character == "{":
                    depth += 1
                    if pending is not None:
                        stack.append((pending, depth))
                        pending = None
                elif character == "}":
                    while stack and stack[-1][1] == depth:
                        stack.pop()
                    depth -= 1
    return found


def coverage(arguments):
    """The --coverage mode: 0 when every public type of the module has a compiled example in its own doc comment."""
    module = arguments[0]
    graph_types = None
    if len(arguments) > 1 and arguments[1] != "--missing":
        import json

        graph_types = set()
        for name in sorted(os.listdir(arguments[1])):
            if name.endswith(".symbols.json"):
                with open(os.path.join(arguments[1], name), encoding="utf-8") as handle:
                    for symbol in json.load(handle)["symbols"]:
                        kind = symbol["kind"]["identifier"]
                        if kind in ("swift.struct", "swift.enum", "swift.class", "swift.actor", "swift.protocol"):
                            graph_types.add(".".join(symbol["pathComponents"]))
    blocks = {}
    for source in sorted(glob.glob(os.path.join(REPO, "Sources", module, "**", "*.swift"), recursive=True)):
        for block in doc_comment_blocks(source, module):
            blocks.setdefault(source, []).append(block.line)
    types = public_types(module)
    with_example = 0
    problems = 0
    for path, source, number in types:
        lines = open(source, encoding="utf-8").read().split("\n")
        first = number - 1  # the doc comment and attributes directly above the declaration (1-based line numbers)
        while first > 1 and lines[first - 2].strip().startswith(("///", "@")):
            first -= 1
        examples = [line for line in blocks.get(source, []) if first <= line < number]
        where = "%s:%d" % (os.path.relpath(source, REPO), number)
        if examples:
            with_example += 1
        else:
            problems += 1
        if not examples or "--missing" not in arguments:
            print("doc coverage: %s: %s (%s): %s" % (module, path, where,
                                                     "example" if examples else "NO compiled example"))
    if graph_types is not None:
        for path in sorted(graph_types - {path for path, _, _ in types}):
            problems += 1
            print("doc coverage: %s: %s is in the symbol graph but its declaration was not found under Sources/%s"
                  % (module, path, module))
    print("%s: %d public types, %d with a compiled example" % (module, len(types), with_example))
    return 1 if problems else 0


def context_module(group):
    """The context file's module: an article's or README's is KDBX's (they document it)."""
    if group == "README":
        return "README"
    return group.split("-")[0]


def top_level_statements(lines):
    """The first line of each statement at brace and parenthesis depth 0 (comments and strings roughly skipped)."""
    depth, starts = 0, []
    for line in lines:
        code = re.sub(r'"(\\.|[^"\\])*"', '""', line.split("//")[0])
        if depth == 0 and code.strip() and not code.strip().startswith((".", "}", ")", "]", "catch", "else")):
            starts.append(code.strip())
        depth += code.count("{") + code.count("(") + code.count("[")
        depth -= code.count("}") + code.count(")") + code.count("]")
    return starts


def render(block, index):
    """(file text, line offset of the block's first line in it, kind)."""
    imports = [line for line in block.code if line.startswith("import ")]
    # A doc comment's or an article's example is read inside its module: that module is imported.
    # README's examples continue one another: those without imports read KDBX and KDBXFileIO, as its first ones say.
    module = block.group.split("-")[0]
    for name in ["KDBX", "KDBXFileIO"] if module == "README" else [module]:
        if "import %s" % name not in imports:
            imports.insert(0, "import %s" % name)
    body = [line if not line.startswith("import ") else "" for line in block.code]
    first = next((line.strip() for line in body if line.strip() and not line.strip().startswith("//")), "")
    header = "// %s:%d\n" % (os.path.relpath(block.origin, REPO), block.line)
    if first.startswith((".product(", ".package(", ".target(", ".library(")):
        kind = {".product(": "Target.Dependency", ".package(": "Package.Dependency", ".target(": "Target",
                ".library(": "Product"}[first[: first.index("(") + 1]]
        text = header + "import PackageDescription\nlet manifest%d: [%s] = [\n" % (index, kind)
        return text + "\n".join(body) + "\n]\n", text.count("\n"), "manifest"
    statements = top_level_statements(body)
    prefix = header + "\n".join(imports) + "\n"
    if statements and all(DECLARATION.match(s) and not s.startswith(("let ", "var ")) for s in statements):
        return prefix + "\n".join(body) + "\n", prefix.count("\n"), "swift"
    # `async` only when the example awaits: one without `await` is written for synchronous code, where the blocking
    # forms are the ones a call reaches.
    effects = "async throws" if any(re.search(r"\bawait\b", line.split("//")[0]) for line in body) else "throws"
    opening = prefix + "func snippet%d() %s {\n" % (index, effects)
    return opening + "\n".join(body) + "\n}\n", opening.count("\n"), "swift"


def main():
    arguments = sys.argv[1:]
    if arguments and arguments[0] == "--coverage" and len(arguments) > 1:
        return coverage(arguments[1:])
    if "--only" in arguments:
        at = arguments.index("--only")
        blocks = markdown_blocks(os.path.abspath(arguments[at + 1]), "README")
        del arguments[at:at + 2]
    else:
        blocks = collect()
    if "--list" in arguments:
        for block in blocks:
            print("%s:%d %s (%d lines)" % (os.path.relpath(block.origin, REPO), block.line, block.group, len(block.code)))
        return 0
    if len(arguments) != 1:
        print(__doc__.split("\n\n")[1])
        return 2
    modules = arguments[0]
    manifest_api = os.path.join(
        os.path.dirname(os.path.realpath(subprocess.check_output(["which", "swiftc"], text=True).strip())),
        "..", "lib", "swift", "pm", "ManifestAPI")
    groups = {}
    for block in blocks:
        groups.setdefault(block.group, []).append(block)
    failures = 0
    with tempfile.TemporaryDirectory() as work:
        jobs = []
        for group, members in sorted(groups.items()):
            folder = os.path.join(work, group)
            os.makedirs(folder)
            files = {"swift": [], "manifest": []}
            origins = {}
            for index, block in enumerate(members):
                text, offset, kind = render(block, index)
                name = os.path.join(folder, "snippet%d.swift" % index)
                open(name, "w", encoding="utf-8").write(text)
                files[kind].append(name)
                origins[name] = (block, offset)
            context = os.path.join(REPO, ".ci", "snippets", context_module(group) + ".swift")
            if files["swift"]:
                command = ["swiftc", "-typecheck", "-swift-version", "6", "-module-name", "DocSnippets",
                           "-I", modules] + ([context] if os.path.exists(context) else []) + files["swift"]
                jobs.append((group, command, origins))
            for name in files["manifest"]:
                command = ["swiftc", "-typecheck", "-swift-version", "6", "-I", manifest_api, name]
                jobs.append((group + " (manifest)", command, origins))
        running = []
        results = []
        for job in jobs:  # two compilers at a time: the machine has two cores
            running.append((job, subprocess.Popen(job[1], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)))
            if len(running) == 2:
                results.append((running[0][0], running[0][1].communicate()[0], running[0][1].returncode))
                running.pop(0)
        for job, process in running:
            results.append((job, process.communicate()[0], process.returncode))
        for (group, command, origins), output, status in results:
            count = sum(1 for name in origins if name in command)
            fatal = [line for line in output.split("\n") if re.search(r": error: ", line)
                     or (re.search(r": warning: ", line) and FATAL_WARNING.search(line))]
            if status == 0 and not fatal:
                print("doc snippets: %s: %d block(s) compile" % (group, count))
                continue
            failures += 1
            print("doc snippets: %s: does not compile%s" % (group, "" if status else " without warnings"))
            for line in output.split("\n"):
                match = re.match(r"^(.*?):(\d+):(\d+): (error|warning): (.*)$", line)
                if not match or (match.group(4) != "error" and not FATAL_WARNING.search(match.group(5))):
                    continue
                name, number = match.group(1), int(match.group(2))
                if name in origins:
                    block, offset = origins[name]
                    print("  %s:%d: %s" % (os.path.relpath(block.origin, REPO), block.line + number - offset - 1,
                                           match.group(5)))
                else:
                    print("  %s:%s: %s" % (os.path.relpath(name, REPO) if name.startswith(REPO) else name, number,
                                           match.group(5)))
    total = len(blocks)
    print("doc snippets: %d blocks in %d groups, %d group(s) failing" % (total, len(groups), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
