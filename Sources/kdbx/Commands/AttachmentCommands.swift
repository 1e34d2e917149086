import KDBX
import KDBXFileIO

/// `kdbx attachment-import FILE ENTRY NAME PATH [--force]`: attaches a file to an entry and saves.
enum AttachmentImportCommand {
  static let command = Command(
    name: "attachment-import", arguments: "FILE ENTRY NAME PATH",
    summary: "Attach a file to an entry (--force replaces).",
    section: .changing,
    details: """
      Attaches the file PATH to ENTRY under the name NAME (--force replaces an attachment of that name).
      The previous version of the entry is kept in its history.
      """,
    options: [OptionSpec(["-f", "--force"], "Replace an attachment of that name.")] + CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let force = arguments.flag("-f", "--force")
    try VaultAccess.change(&arguments, maxPositionals: 4) { vault, arguments throws(CLIError) in
      let reference = try arguments.positional(1, "ENTRY")
      let name = try arguments.positional(2, "NAME")
      try StorableText.check(name, as: "the attachment name")
      let path = try arguments.positional(3, "PATH")
      let located = try vault.locateEntry(reference)
      if !force && located.entry.attachments.contains(where: { $0.name == name }) {
        throw .failure("the entry already has an attachment named '\(name)' (use --force to replace it)")
      }
      let data = try VaultAccess.readInput(path)
      let attachment = vault.database.makeAttachment(name: name, data: data)
      vault.database.editEntry(at: located.position, clock: SystemClock()) { edited in
        edited.attachments.removeAll { $0.name == name }
        edited.attachments.append(attachment)
      }
      return VaultAccess.Change(message: "Attached \(path) to \(reference) as \(name) (\(data.count) bytes).\n")
    }
  }
}

/// `kdbx attachment-rm FILE ENTRY NAME`: removes an attachment from an entry and saves.
enum AttachmentRemoveCommand {
  static let command = Command(
    name: "attachment-rm", arguments: "FILE ENTRY NAME", summary: "Remove an attachment from an entry.",
    section: .changing,
    details: """
      Removes the attachment NAME from ENTRY. The previous version of the entry is kept in its history.
      """,
    options: CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    try VaultAccess.change(&arguments, maxPositionals: 3) { vault, arguments throws(CLIError) in
      let reference = try arguments.positional(1, "ENTRY")
      let name = try arguments.positional(2, "NAME")
      let located = try vault.locateEntry(reference)
      guard located.entry.attachments.contains(where: { $0.name == name }) else {
        throw .failure("the entry has no attachment named '\(name)'")
      }
      vault.database.editEntry(at: located.position, clock: SystemClock()) {
        $0.attachments.removeAll { $0.name == name }
      }
      return VaultAccess.Change(message: "Removed attachment \(name) from \(reference).\n")
    }
  }
}

/// `kdbx rmdir FILE GROUP`: moves a group to the recycle bin, or deletes it when it is there already.
enum RemoveGroupCommand {
  static let command = Command(
    name: "rmdir", arguments: "FILE GROUP",
    summary: "Move a group to the recycle bin (delete it if it is already there).",
    section: .changing,
    details: """
      Moves GROUP (with its content) to the recycle bin; deletes it for good when it is already in the bin,
      is the bin, or the bin is disabled. When the bin is inside GROUP, the bin first moves up to the root and
      GROUP then goes into it. The root cannot be removed.
      """,
    options: CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    try VaultAccess.change(&arguments, maxPositionals: 2) { vault, arguments throws(CLIError) in
      let reference = try arguments.positional(1, "GROUP")
      let group = try vault.locateGroup(reference)
      guard !group.position.indexPath.isEmpty else { throw .failure("the root group cannot be removed") }
      let binNote = vault.recycleBinNote()
      // The library moves a recycle bin that is inside the group up to the root first, so that the group's content
      // goes to the bin instead of being deleted for good (KeePass 2 deletes it for good after asking).
      let binInside =
        vault.database.isRecycleBinEnabled
        && (vault.database.recycleBinPosition.map { $0 != group.position && $0.isInside(group.position) } ?? false)
      var random = SystemRandomNumberGenerator()
      let outcome = vault.database.deleteGroup(at: group.position, clock: SystemClock(), random: &random)
      let moved =
        binInside
        ? "The recycle bin was inside \(reference); it now sits in the root group, with \(reference) in it.\n" : ""
      return try VaultAccess.deletion(outcome, of: "group", reference, binNote: binNote, movedNote: moved)
    }
  }
}
