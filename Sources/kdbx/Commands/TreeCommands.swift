import KDBX
import KDBXFileIO

/// `kdbx rm FILE ENTRY`: moves the entry to the recycle bin, or deletes it when it is already there (or the bin is
/// disabled).
enum RemoveCommand {
  static let command = Command(
    name: "rm", arguments: "FILE ENTRY",
    summary: "Move an entry to the recycle bin (delete it if it is already there).",
    section: .changing,
    details: """
      Moves ENTRY to the recycle bin; deletes it for good when it is already in the bin or the bin is disabled.
      """,
    options: CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    try VaultAccess.change(&arguments, maxPositionals: 2) { vault, arguments throws(CLIError) in
      let reference = try arguments.positional(1, "ENTRY")
      let located = try vault.locateEntry(reference)
      let binNote = vault.recycleBinNote()
      var random = SystemRandomNumberGenerator()
      let outcome = vault.database.deleteEntry(at: located.position, clock: SystemClock(), random: &random)
      return try VaultAccess.deletion(outcome, of: "entry", reference, binNote: binNote)
    }
  }
}

/// `kdbx mv FILE ENTRY GROUP`: moves an entry into another group.
enum MoveCommand {
  static let command = Command(
    name: "mv", arguments: "FILE ENTRY GROUP", summary: "Move an entry to another group.",
    section: .changing,
    details: """
      Moves ENTRY (a path or UUID) into GROUP (a path, '/' for the root, or a UUID).
      """,
    options: CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    try VaultAccess.change(&arguments, maxPositionals: 3) { vault, arguments throws(CLIError) in
      let reference = try arguments.positional(1, "ENTRY")
      let target = try arguments.positional(2, "GROUP")
      let entry = try vault.locateEntry(reference)
      let group = try vault.locateGroup(target)
      guard vault.database.moveEntry(at: entry.position, to: group.position, clock: SystemClock()) else {
        throw .failure("cannot move '\(reference)' to '\(target)'")
      }
      return VaultAccess.Change(message: "Moved entry \(reference) to \(target).\n")
    }
  }
}

/// `kdbx mkdir FILE GROUP`: adds a group under an existing parent.
enum MakeGroupCommand {
  static let command = Command(
    name: "mkdir", arguments: "FILE PARENT/NAME", summary: "Add a group.",
    section: .changing,
    details: """
      Adds a group NAME inside the existing group PARENT (omit PARENT/ for the root).
      """,
    options: CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    try VaultAccess.change(&arguments, maxPositionals: 2) { vault, arguments throws(CLIError) in
      let path = try arguments.positional(1, "GROUP")
      let (parent, name) = try vault.locateParent(
        of: path, noName: "the group path '\(path)' has no name", nameAs: "the group name")
      if parent.group.groups.contains(where: { $0.name == name }) {
        throw .failure("the group '\(path)' already exists")
      }
      var random = SystemRandomNumberGenerator()
      let group = Group.new(name: name, clock: SystemClock(), random: &random)
      guard vault.database.addGroup(group, to: parent.position) else { throw .failure("cannot add '\(path)'") }
      return VaultAccess.Change(message: "Added group \(path).\n")
    }
  }
}

/// `kdbx attachment-export FILE ENTRY NAME PATH`: writes an attachment to a file (or standard output).
enum AttachmentExportCommand {
  static let command = Command(
    name: "attachment-export", arguments: "FILE ENTRY NAME [PATH]",
    summary: "Write an attachment to a new file (or --stdout).",
    section: .reading,
    details: """
      Writes the attachment NAME of ENTRY to PATH (a new file, mode 0600), or to standard output with --stdout.
      """,
    options: [OptionSpec(["--stdout"], "Write to standard output instead of PATH.")] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let toStandardOutput = arguments.flag("--stdout")
    let vault = try VaultAccess.open(&arguments, maxPositionals: toStandardOutput ? 3 : 4)
    let entry = try vault.entry(try arguments.positional(1, "ENTRY"))
    let name = try arguments.positional(2, "NAME")
    guard let attachment = entry.attachments.first(where: { $0.name == name }),
      let data = vault.database.contents(of: attachment)
    else { throw .failure("the entry has no attachment named '\(name)'") }
    if toStandardOutput {
      Terminal.writeBytes(data, to: 1)
      return
    }
    let path = try arguments.positional(3, "PATH")
    try Terminal.createFile(path, contents: data)
    Terminal.out("Wrote \(data.count) bytes to \(path).\n")
  }
}
