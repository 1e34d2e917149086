import KDBX
import KDBXBase

/// `kdbx ls FILE [GROUP] [-R] [--flatten] [--json]`: lists a group's entries and subgroups, as keepassxc-cli does
/// (entries first, then groups, which end with `/`).
enum ListCommand {
  static let command = Command(
    name: "ls", arguments: "FILE [GROUP]",
    summary: "List a group's entries and subgroups (-R recursive, --flatten full paths).",
    section: .reading,
    details: """
      Lists the entries, then the subgroups (ending with '/'), of GROUP (a path like 'Internet' or a UUID;
      default: the root). -R lists subgroups recursively, indented; --flatten prints full paths instead.
      """,
    options: [
      OptionSpec(["-R", "--recursive"], "List subgroups recursively, indented."),
      OptionSpec(["-f", "--flatten"], "Print full paths instead of indenting."), CommandTable.json,
    ] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let recursive = arguments.flag("-R", "--recursive")
    let flatten = arguments.flag("-f", "--flatten")
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 2)
    let reference = arguments.positionals.count > 1 ? arguments.positionals[1] : ""
    let located = try vault.locateGroup(reference)
    let group = located.group
    let prefix = vault.groupPath(of: located.position)
    if json {
      var document = JSONValue.array(items(group, path: prefix, recursive: recursive))
      Terminal.out(document.rendered() + "\n")
      // Released a level at a time: `-R` nests it as deep as the groups.
      JSONValue.release(&document)
      return
    }
    var out = ""
    print(group, recursive: recursive, flatten: flatten, into: &out)
    Terminal.out(out)
  }

  static func title(_ entry: Entry) -> String { entry[field: "Title"]?.reveal() ?? "" }

  /// The listing of `group`: its entries, then its subgroups (ending with `/`), each subgroup followed by its own
  /// listing, indented, when `recursive`. The tree is walked with an explicit stack (``GroupWalk``), not by
  /// recursion, so the depth of a vault's groups never decides how deep the call stack goes.
  static func print(_ group: Group, recursive: Bool, flatten: Bool, into out: inout String) {
    // Titles and names are escaped for the terminal (TerminalText), each on its own line.
    if group.entries.isEmpty && group.groups.isEmpty {
      out += "[empty]\n"
      return
    }
    /// The prefix of the lines inside a group `depth` levels below `group`, whose path from it is `names`.
    func prefix(depth: Int, names: [String]) -> String {
      flatten ? names.map { $0 + "/" }.joined() : String(repeating: "  ", count: depth)
    }
    for entry in group.entries { out += TerminalText.line(title(entry)) + "\n" }
    guard recursive else {
      for child in group.groups { out += TerminalText.line(child.name) + "/\n" }
      return
    }
    // The escaped names from `group` down to the group entered last, and the prefix of the lines inside each.
    var names: [String] = []
    var prefixes = [""]
    var walk = GroupWalk(below: group)
    while let step = walk.next() {
      switch step {
      case .enter(let child, _):
        let name = TerminalText.line(child.name)
        out += prefixes[prefixes.count - 1] + name + "/\n"
        names.append(name)
        let here = prefix(depth: names.count, names: names)
        prefixes.append(here)
        for entry in child.entries { out += here + TerminalText.line(title(entry)) + "\n" }
      case .leave:
        names.removeLast()
        prefixes.removeLast()
      }
    }
  }

  /// The `--json` items of `group`, whose path is `path`: its entries, then its subgroups, each with its own items
  /// as `children` when `recursive`. Built bottom up with an explicit stack (``GroupWalk``), not by recursion.
  static func items(_ group: Group, path: [String], recursive: Bool) -> [JSONValue] {
    func entries(_ group: Group, path: [String]) -> [JSONValue] {
      group.entries.map { entry in
        .object([
          ("type", .string("entry")), ("uuid", .string(entry.uuid.description)), ("title", .string(title(entry))),
          ("groupPath", .array(path.map { .string($0) })),
        ])
      }
    }
    func members(_ child: Group, path: [String]) -> [(String, JSONValue)] {
      [
        ("type", .string("group")), ("uuid", .string(child.uuid.description)), ("name", .string(child.name)),
        ("path", .array(path.map { .string($0) })),
      ]
    }
    guard recursive else {
      return entries(group, path: path) + group.groups.map { .object(members($0, path: path + [$0.name])) }
    }
    // The groups entered and not yet left (`group` first): each one's path, members and items so far.
    var open: [(path: [String], members: [(String, JSONValue)], items: [JSONValue])] = [
      (path, [], entries(group, path: path))
    ]
    var walk = GroupWalk(below: group)
    while let step = walk.next() {
      switch step {
      case .enter(let child, _):
        let childPath = open[open.count - 1].path + [child.name]
        open.append((childPath, members(child, path: childPath), entries(child, path: childPath)))
      case .leave:
        guard let done = open.popLast(), let parent = open.indices.last else { continue }
        open[parent].items.append(.object(done.members + [("children", .array(done.items))]))
      }
    }
    return open.first?.items ?? []
  }
}
