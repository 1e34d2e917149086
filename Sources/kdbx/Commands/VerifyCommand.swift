import KDBX

/// `kdbx verify FILE`: opens the file (which checks every integrity layer) and checks the tree's references.
enum VerifyCommand {
  static let help = """
    USAGE: kdbx verify FILE [--json] [--key-file PATH] [--no-password]
      Opens FILE, which checks the outer header, its hash or HMAC, the key, every block's hash or HMAC, the
      decompression and the XML. Then checks the tree: unique UUIDs, attachments that point at stored data,
      unused attachment data, history entries that carry their entry's UUID, and the recycle bin reference
      (a bin that is the root group is a problem: other apps would delete for good).
      Exit status 0 when everything is sound, 1 when a problem was found, 2 for a wrong password.
      A 'warning:' line names a harmless irregularity of another writer that was accepted once every block
      had verified (bytes after the compressed data, malformed final padding); a save removes it. Exit 0.
    """

  static func run(_ raw: [String]) throws(CLIError) {
    var arguments = try Arguments(raw, valueOptions: VaultAccess.valueOptions)
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments)
    try arguments.finish(maxPositionals: 1)
    let database = vault.database
    var problems: [String] = []
    var notes: [String] = []
    var seen: Set<KDBXUUID> = []
    var usedBinaries: Set<Int> = []
    func checkEntry(_ entry: Entry, path: String) {
      for attachment in entry.attachments {
        if database.binaries[attachment.binaryIndex] == nil {
          problems.append("\(path): attachment '\(attachment.name)' points at missing data #\(attachment.binaryIndex)")
        } else {
          usedBinaries.insert(attachment.binaryIndex)
        }
      }
    }
    func walk(_ group: Group, path: [String]) {
      if !seen.insert(group.uuid).inserted { problems.append("group UUID \(group.uuid) is used more than once") }
      for entry in group.entries {
        let entryPath = (path + [ListCommand.title(entry)]).joined(separator: "/")
        if !seen.insert(entry.uuid).inserted {
          problems.append("\(entryPath): UUID \(entry.uuid) is used more than once")
        }
        checkEntry(entry, path: entryPath)
        for (index, old) in (entry.history ?? []).enumerated() {
          if old.uuid != entry.uuid {
            problems.append("\(entryPath): history item \(index + 1) has another UUID (\(old.uuid))")
          }
          checkEntry(old, path: "\(entryPath) (history \(index + 1))")
        }
      }
      for child in group.groups { walk(child, path: path + [child.name ?? ""]) }
    }
    if let root = database.root {
      walk(root, path: [])
    } else {
      problems.append("the database has no root group")
    }
    let unused = (0..<database.binaries.count).filter { !usedBinaries.contains($0) }
    if !unused.isEmpty { notes.append("\(unused.count) stored attachment(s) are not used by any entry") }
    if let bin = database.meta.recycleBinUUID, !bin.isZero {
      if bin == database.root?.uuid {
        problems.append(
          "the recycle bin UUID \(bin) names the root group: KeePass would delete entries for good instead of "
            + "recycling them (kdbx makes a new bin at the next deletion)")
      } else if database.group(withUUID: bin) == nil {
        notes.append("the recycle bin UUID \(bin) names no group (a new bin will be made when needed)")
      }
    }
    let header = vault.opened.header
    var layers =
      header.version.isKDBX4
      ? "header SHA-256 and HMAC-SHA-256, key, HMAC block stream"
      : "header hash in Meta, key, stream start bytes, hashed blocks"
    if vault.opened.isKeePass1 { layers = "key, padding, content SHA-256, records" }
    if json {
      let value = JSONValue.object([
        ("ok", .bool(problems.isEmpty)), ("version", .string(Names.version(of: vault.opened))),
        ("checked", .string(layers)), ("problems", .array(problems.map { .string($0) })),
        ("notes", .array(notes.map { .string($0) })),
        ("warnings", .array(vault.opened.warnings.map { .string($0.description) })),
      ])
      Terminal.out(value.rendered() + "\n")
    } else {
      Terminal.out(
        vault.opened.isKeePass1
          ? "KeePass 1.x: integrity OK (\(layers))\n"
          : "KDBX \(Names.version(of: header)): integrity OK (\(layers), \(Names.compression(header.compression)), XML)\n"
      )
      Terminal.out("Tree: \(seen.count) groups and entries, \(database.binaries.count) stored attachment(s)\n")
      for warning in vault.opened.warnings { Terminal.out("warning: \(warning.description)\n") }
      for note in notes { Terminal.out("note: \(TerminalText.line(note))\n") }
      for problem in problems { Terminal.out("PROBLEM: \(TerminalText.line(problem))\n") }
      Terminal.out(problems.isEmpty ? "OK\n" : "\(problems.count) problem(s) found\n")
    }
    if !problems.isEmpty { throw .failure("\(problems.count) problem(s) found") }
  }
}
