import KDBX

/// KeePass 2's XML export (the `KeePassFile` document of a KDBX file, in clear): read with the open's own model
/// reader and limits, with values marked `ProtectInMemory="True"` (KeePass and keepassxc-cli exports) read as
/// protected values.
///
/// KeePass 2 gives an item whose UUID was already seen a new one when it opens such a file, and keeps one value per
/// field name; hand-edited exports break both. Here a repeated UUID gets a new one, a repeated field name of an
/// entry is renamed `NAME (2)`, and both are listed in the report, so the result passes `kdbx verify` and every
/// value is kept.
enum KeePassXMLImport {
  static func read(_ bytes: [UInt8], random: inout some RandomNumberGenerator) throws(ImportError) -> ImportedDatabase {
    var database: Database
    do throws(KDBXError) {
      var stream = PlaintextInnerStream()
      database = try DatabaseXMLReader.read(xml: bytes, stream: &stream, random: &random, gzip: NoGzipDecompressor())
    } catch {
      switch error {
      case .limitExceeded: throw .tooLarge(error.description)
      default: throw .malformed(error.description)
      }
    }
    database.meta.headerHash = nil
    var skipped: [String] = []
    var counts = (entries: 0, groups: 0)
    if var root = database.root {
      counts = repair(&root, skipped: &skipped, random: &random)
      database.root = root
    }
    return ImportedDatabase(
      format: .keePassXML, database: database, entryCount: counts.entries, groupCount: counts.groups,
      skipped: skipped)
  }

  /// Gives repeated UUIDs new ones and repeated field names a suffix, over the whole tree without recursion (the
  /// open's reader has capped the depth already, but the walk does not rely on it). Returns the entries and
  /// groups counted below the root.
  static func repair(
    _ root: inout Group, skipped: inout [String], random: inout some RandomNumberGenerator
  ) -> (entries: Int, groups: Int) {
    var seen: Set<KDBXUUID> = [root.uuid]
    var renamedUUIDs = 0
    var renamedFields: [String] = []
    var entries = 0
    var groups = 0
    // The tree taken apart into a flat list (each group's subgroups moved out after it, parents first), fixed,
    // and put back together from the end: linear, without recursion.
    var nodes: [Group] = [root]
    var children: [Range<Int>] = []
    var next = 0
    while next < nodes.count {
      let subgroups = nodes[next].groups
      nodes[next].groups = []
      children.append(nodes.count..<(nodes.count + subgroups.count))
      nodes += subgroups
      next += 1
    }
    for node in nodes.indices {
      if node > 0 {
        groups += 1
        if !seen.insert(nodes[node].uuid).inserted {
          nodes[node].uuid = .random(using: &random)
          seen.insert(nodes[node].uuid)
          renamedUUIDs += 1
        }
      }
      for index in nodes[node].entries.indices {
        entries += 1
        if !seen.insert(nodes[node].entries[index].uuid).inserted {
          let new = KDBXUUID.random(using: &random)
          seen.insert(new)
          nodes[node].entries[index].uuid = new
          // History items carry their entry's UUID.
          if let count = nodes[node].entries[index].history?.count {
            for item in 0..<count { nodes[node].entries[index].history?[item].uuid = new }
          }
          renamedUUIDs += 1
        }
        if renameRepeatedFields(&nodes[node].entries[index]) {
          renamedFields.append(nodes[node].entries[index].title)
        }
      }
    }
    for node in nodes.indices.reversed() where !children[node].isEmpty {
      nodes[node].groups = Array(nodes[children[node]])
    }
    root = nodes[0]
    if renamedUUIDs > 0 {
      skipped.append("\(renamedUUIDs) UUID(s) used more than once in the file, given new ones (as KeePass 2 does)")
    }
    if !renamedFields.isEmpty {
      let names = renamedFields.prefix(3).map { "'\($0)'" }.joined(separator: ", ")
      skipped.append(
        "repeated field names in \(renamedFields.count) entr\(renamedFields.count == 1 ? "y" : "ies") (\(names)"
          + "\(renamedFields.count > 3 ? ", ..." : "")), renamed 'NAME (2)', ... to keep every value")
    }
    return (entries, groups)
  }

  /// Renames the second and later fields of one name to `NAME (2)`, `NAME (3)`, ... (names not used yet).
  /// Returns whether any field was renamed.
  static func renameRepeatedFields(_ entry: inout Entry) -> Bool {
    var names = Set<String>()
    var repeated: [Int] = []
    for (index, field) in entry.fields.enumerated() where !names.insert(field.key).inserted {
      repeated.append(index)
    }
    guard !repeated.isEmpty else { return false }
    var nextSuffix: [String: Int] = [:]
    for index in repeated {
      let base = entry.fields[index].key
      var suffix = nextSuffix[base] ?? 2
      while names.contains("\(base) (\(suffix))") { suffix += 1 }
      let name = "\(base) (\(suffix))"
      nextSuffix[base] = suffix + 1
      names.insert(name)
      entry.fields[index].key = name
    }
    return true
  }
}
