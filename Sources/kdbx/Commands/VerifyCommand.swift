import KDBX
import KDBXBase

/// `kdbx verify FILE`: opens the file (which checks every integrity layer) and checks the tree's references.
enum VerifyCommand {
  static let command = Command(
    name: "verify", arguments: "FILE", summary: "Check every integrity layer and the tree's references, and explain.",
    section: .whole,
    details: """
      Opens FILE, which checks the outer header, its hash or HMAC, the key, every block's hash or HMAC, the
      decompression and the XML. Then checks the tree: unique UUIDs, attachments that point at stored data,
      unused attachment data, history entries that carry their entry's UUID, and the recycle bin reference
      (a bin that is the root group is a problem: other apps would delete for good).
      Warns when a KDBX 3.x file has no Meta/HeaderHash (its header is then not authenticated) and when
      protected values are not valid UTF-8 (kept as they are; 'show' prints such bytes as \\xNN).
      Exit status 0 when everything is sound, 1 when a problem was found, 2 for a wrong password.
      A 'warning:' line names a harmless irregularity of another writer that was accepted once every block
      had verified (bytes after the compressed data, malformed final padding); a save removes it. Exit 0.
      """,
    options: [CommandTable.json] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 1)
    let database = vault.database
    var problems: [String] = []
    var notes: [String] = []
    var seen: Set<KDBXUUID> = []
    var usedBinaries: Set<Int> = []
    var notUTF8: [String] = []
    func checkEntry(_ entry: Entry, path: String) {
      for field in entry.fields where !field.value.isValidUTF8 { notUTF8.append("\(path): \(field.key)") }
      for attachment in entry.attachments {
        if database.binaries[attachment.binaryIndex] == nil {
          let reference = attachment.missingReference ?? "#\(attachment.binaryIndex)"
          problems.append("\(path): attachment '\(attachment.name)' points at missing data (reference \(reference))")
        } else {
          usedBinaries.insert(attachment.binaryIndex)
        }
      }
    }
    func check(_ group: Group, path: [String]) {
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
    }
    if let root = database.root {
      // Pre-order with an explicit stack, as every tree walk (the tree's depth is the file's).
      check(root, path: [])
      var path: [String] = []
      var walk = GroupWalk(below: root)
      while let step = walk.next() {
        switch step {
        case .enter(let group, _):
          path.append(group.name)
          check(group, path: path)
        case .leave: path.removeLast()
        }
      }
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
    // What the file lets us check: KDBX 3.x authenticates its header only through Meta/HeaderHash (KeePass 2.20+).
    var headerAuthenticated = true
    let layers: String
    if vault.opened.isKeePass1 {
      layers = "key, padding, content SHA-256, records"
    } else {
      let report = try integrity(vault)
      headerAuthenticated = header.version.isKDBX4 || report.checkedHeaderHash
      layers =
        header.version.isKDBX4
        ? "header SHA-256 and HMAC-SHA-256, key, HMAC block stream"
        : report.checkedHeaderHash
          ? "header hash in Meta, key, stream start bytes, hashed blocks" : "key, stream start bytes, hashed blocks"
    }
    var warnings = vault.opened.warnings.map { $0.description }
    if !headerAuthenticated {
      warnings.append(
        "header not authenticated (no HeaderHash in this KDBX 3.x file); content verified by block hashes")
    }
    if !notUTF8.isEmpty {
      let listed = notUTF8.prefix(5).joined(separator: ", ") + (notUTF8.count > 5 ? ", ..." : "")
      warnings.append(
        "\(notUTF8.count) protected value(s) are not valid UTF-8 (\(listed)); they are kept as they are and 'show' "
          + "prints the bytes as \\xNN"
          + (headerAuthenticated ? "" : "; with an unauthenticated header, a damaged ProtectedStreamKey does this"))
    }
    if json {
      let value = JSONValue.object([
        ("ok", .bool(problems.isEmpty)), ("version", .string(Names.version(of: vault.opened))),
        ("checked", .string(layers)), ("headerAuthenticated", .bool(headerAuthenticated)),
        ("problems", .array(problems.map { .string($0) })), ("warnings", .array(warnings.map { .string($0) })),
        ("notes", .array(notes.map { .string($0) })),
      ])
      Terminal.out(value.rendered() + "\n")
    } else {
      Terminal.out(
        vault.opened.isKeePass1
          ? "KeePass 1.x: integrity OK (\(layers))\n"
          : "KDBX \(Names.version(of: header)): integrity OK (\(layers), \(Names.compression(header.compression)), XML)\n"
      )
      for warning in warnings { Terminal.out("warning: \(TerminalText.line(warning))\n") }
      Terminal.out("Tree: \(seen.count) groups and entries, \(database.binaries.count) stored attachment(s)\n")
      for note in notes { Terminal.out("note: \(TerminalText.line(note))\n") }
      for problem in problems { Terminal.out("PROBLEM: \(TerminalText.line(problem))\n") }
      Terminal.out(problems.isEmpty ? "OK\n" : "\(problems.count) problem(s) found\n")
    }
    if !problems.isEmpty { throw .failure("\(problems.count) problem(s) found") }
  }

  /// The container-level check of the file as read again with the key already derived (no second KDF run).
  static func integrity(_ vault: VaultAccess) throws(CLIError) -> IntegrityReport {
    let bytes = try VaultAccess.readFile(vault.path)
    do {
      return try KDBXFile.verifyIntegrity(
        bytes: bytes, key: CompositeKey(transformedSecret: vault.opened.transformedKey),
        primitives: StandardPrimitives())
    } catch {
      throw .failure("\(vault.path) changed or is damaged: \(error.description)")
    }
  }
}
