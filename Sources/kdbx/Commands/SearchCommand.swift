import KDBX
import KDBXBase

/// `kdbx search FILE TERM [--json]`: entries whose title, user name, URL, tags or notes contain TERM.
enum SearchCommand {
  static let command = Command(
    name: "search", arguments: "FILE TERM", summary: "Find entries by title, user name, URL, tags or notes.",
    section: .reading,
    details: """
      Prints the paths of the entries whose title, user name, URL, tags or notes contain TERM (case- and
      accent-insensitive, KeePass-style). --all-fields also searches custom fields and the UUID.
      """,
    options: [
      OptionSpec(["--all-fields"], "Also search custom fields and the UUID."),
      OptionSpec(["--include-recycle-bin"], "Also search the recycle bin."), CommandTable.json,
    ] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let allFields = arguments.flag("--all-fields")
    let includeBin = arguments.flag("--include-recycle-bin")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 2)
    let term = try arguments.positional(1, "TERM")
    var fields = EntrySearch.Fields.standard
    if allFields { fields.formUnion([.customFields, .uuid]) }
    let found = vault.database.displayedEntries(
      search: EntrySearch(text: term, fields: fields, includesRecycleBin: includeBin))
    if json {
      let items = found.map { item in
        JSONValue.object([
          ("uuid", .string(item.entry.uuid.description)),
          ("path", .string((item.groupPath + [ListCommand.title(item.entry)]).joined(separator: "/"))),
          ("groupPath", .array(item.groupPath.map { .string($0) })),
          ("title", .string(ListCommand.title(item.entry))),
          ("username", .string(item.entry[field: "UserName"]?.reveal() ?? "")),
          ("url", .string(item.entry[field: "URL"]?.reveal() ?? "")),
        ])
      }
      Terminal.out(JSONValue.array(items).rendered() + "\n")
      return
    }
    guard !found.isEmpty else { throw .failure("no entry matches '\(term)'") }
    for item in found {
      Terminal.out(TerminalText.line((item.groupPath + [ListCommand.title(item.entry)]).joined(separator: "/")) + "\n")
    }
  }
}
