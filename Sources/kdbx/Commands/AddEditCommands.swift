import KDBX

/// `kdbx add FILE GROUP/TITLE [options]`: adds an entry and saves the vault atomically.
enum AddCommand {
  static let command = Command(
    name: "add", arguments: "FILE GROUP/TITLE",
    summary: "Add an entry (--username, --url, --notes, --password-prompt or --generate).",
    section: .changing,
    details: """
      Adds an entry titled TITLE to the existing group GROUP (omit GROUP/ for the root) and saves the vault.
      The password is read with --password-prompt or made with --generate (and the generator options).
      """,
    options: CommandTable.entryFields + CommandTable.changingVault,
    run: run)

  static func run(_ raw: [String]) throws(CLIError) {
    var arguments = try Arguments(raw, options: command.options)
    let options = try EntryFieldOptions(&arguments)
    var vault = try VaultAccess.open(&arguments, forChange: true)
    try arguments.finish(maxPositionals: 2)
    let path = try arguments.positional(1, "GROUP/TITLE")
    let parts = VaultAccess.split(path)
    guard let title = parts.last else { throw .usage("the entry path '\(path)' has no title") }
    try StorableText.check(title, as: "the title")
    let group = try vault.locateGroup(parts.dropLast().joined(separator: "/"))
    if group.group.entries.contains(where: { $0[field: Entry.titleField]?.reveal() == title }) {
      throw .failure("an entry '\(path)' already exists")
    }
    let password = try options.newPassword()
    var random = SystemRandomNumberGenerator()
    var entry = Entry.new(clock: SystemClock(), random: &random)
    entry[field: Entry.titleField] = .plain(title)
    options.apply(to: &entry, password: password)
    guard vault.database.addEntry(entry, to: group.position) else { throw .failure("cannot add to '\(path)'") }
    try vault.save()
    Terminal.out("Added entry \(path) (\(entry.uuid)).\n")
  }
}

/// `kdbx edit FILE ENTRY [options]`: changes an entry (the old version goes to its history) and saves.
enum EditCommand {
  static let command = Command(
    name: "edit", arguments: "FILE ENTRY", summary: "Change an entry; the old version goes to its history.",
    section: .changing,
    details: """
      Changes the fields of ENTRY (a path or UUID). The previous version is kept in the entry's history.
      A new password is read with --password-prompt or made with --generate (and the generator options).
      """,
    options: CommandTable.entryFields + CommandTable.changingVault,
    run: run)

  static func run(_ raw: [String]) throws(CLIError) {
    var arguments = try Arguments(raw, options: command.options)
    let options = try EntryFieldOptions(&arguments)
    var vault = try VaultAccess.open(&arguments, forChange: true)
    try arguments.finish(maxPositionals: 2)
    let reference = try arguments.positional(1, "ENTRY")
    let entry = try vault.locateEntry(reference)
    let password = try options.newPassword()
    let changed = vault.database.editEntry(at: entry.position, clock: SystemClock()) {
      options.apply(to: &$0, password: password)
    }
    guard changed else {
      Terminal.out("Nothing to change.\n")
      return
    }
    try vault.save()
    Terminal.out("Edited entry \(reference).\n")
  }
}
