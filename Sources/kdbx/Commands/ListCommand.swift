import KDBX

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

  static func run(_ raw: [String]) throws(CLIError) {
    var arguments = try Arguments(raw, options: command.options)
    let recursive = arguments.flag("-R", "--recursive")
    let flatten = arguments.flag("-f", "--flatten")
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments)
    try arguments.finish(maxPositionals: 2)
    let reference = arguments.positionals.count > 1 ? arguments.positionals[1] : ""
    let located = try vault.locateGroup(reference)
    let group = located.group
    let prefix = vault.groupPath(of: located.position)
    if json {
      Terminal.out(JSONValue.array(items(group, path: prefix, recursive: recursive)).rendered() + "\n")
      return
    }
    var out = ""
    print(group, path: [], depth: 0, recursive: recursive, flatten: flatten, into: &out)
    Terminal.out(out)
  }

  static func title(_ entry: Entry) -> String { entry[field: "Title"]?.reveal() ?? "" }

  static func print(_ group: Group, path: [String], depth: Int, recursive: Bool, flatten: Bool, into out: inout String)
  {
    let indent = flatten ? "" : String(repeating: "  ", count: depth)
    // Titles and names are escaped for the terminal (TerminalText), each on its own line.
    let here = flatten ? path.map { TerminalText.line($0) + "/" }.joined() : ""
    if group.entries.isEmpty && group.groups.isEmpty {
      if depth == 0 || !recursive { out += indent + "[empty]\n" }
      return
    }
    for entry in group.entries { out += indent + here + TerminalText.line(title(entry)) + "\n" }
    for child in group.groups {
      let name = child.name
      out += indent + here + TerminalText.line(name) + "/\n"
      if recursive {
        print(child, path: path + [name], depth: depth + 1, recursive: recursive, flatten: flatten, into: &out)
      }
    }
  }

  static func items(_ group: Group, path: [String], recursive: Bool) -> [JSONValue] {
    var out: [JSONValue] = []
    for entry in group.entries {
      out.append(
        .object([
          ("type", .string("entry")), ("uuid", .string(entry.uuid.description)), ("title", .string(title(entry))),
          ("groupPath", .array(path.map { .string($0) })),
        ]))
    }
    for child in group.groups {
      let childPath = path + [child.name]
      var members: [(String, JSONValue)] = [
        ("type", .string("group")), ("uuid", .string(child.uuid.description)), ("name", .string(child.name)),
        ("path", .array(childPath.map { .string($0) })),
      ]
      if recursive { members.append(("children", .array(items(child, path: childPath, recursive: true)))) }
      out.append(.object(members))
    }
    return out
  }
}
