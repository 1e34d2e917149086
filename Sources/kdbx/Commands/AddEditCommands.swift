import KDBX
import KDBXFileIO

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

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let options = try EntryFieldOptions(&arguments)
    try VaultAccess.change(&arguments, maxPositionals: 2) { vault, arguments throws(CLIError) in
      let path = try arguments.positional(1, "GROUP/TITLE")
      let (group, title) = try vault.locateParent(
        of: path, noName: "the entry path '\(path)' has no title", nameAs: "the title")
      if group.group.entries.contains(where: { $0.title == title }) {
        throw .failure("an entry '\(path)' already exists")
      }
      let password = try options.newPassword()
      var random = SystemRandomNumberGenerator()
      var entry = Entry.new(clock: SystemClock(), random: &random)
      entry[field: "Title"] = .plain(title)
      options.apply(to: &entry, password: password)
      guard vault.database.addEntry(entry, to: group.position) else { throw .failure("cannot add to '\(path)'") }
      return VaultAccess.Change(message: "Added entry \(path) (\(entry.uuid)).\n")
    }
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

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let options = try EntryFieldOptions(&arguments)
    try VaultAccess.change(&arguments, maxPositionals: 2) { vault, arguments throws(CLIError) in
      let reference = try arguments.positional(1, "ENTRY")
      let entry = try vault.locateEntry(reference)
      let password = try options.newPassword()
      let changed = vault.database.editEntry(at: entry.position, clock: SystemClock()) {
        options.apply(to: &$0, password: password)
      }
      guard changed else {
        Terminal.out("Nothing to change.\n")
        return nil
      }
      return VaultAccess.Change(message: "Edited entry \(reference).\n")
    }
  }
}
