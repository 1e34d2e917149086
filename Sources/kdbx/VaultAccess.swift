import Glibc
import KDBX
import KDBXFileIO

/// Opening a vault for a command: `FILE`, `--key-file PATH`, `--no-password`, the password prompt, the progress
/// bar, and finding entries and groups by path or UUID.
struct VaultAccess {
  /// The value options every vault command accepts.
  static let valueOptions: Set<String> = ["--key-file", "-k"]

  var path: String
  var key: CompositeKey
  var opened: OpenedDatabase

  var database: Database {
    get { opened.database }
    set { opened.database = newValue }
  }

  /// Reads the credential options from `arguments` and opens positional 0 as the vault.
  static func open(_ arguments: inout Arguments) throws(CLIError) -> VaultAccess {
    let path = try arguments.positional(0, "FILE")
    let keyFilePath = arguments.value("--key-file", "-k")
    let noPassword = arguments.flag("--no-password")
    return try open(path: path, keyFilePath: keyFilePath, noPassword: noPassword)
  }

  static func open(path: String, keyFilePath: String?, noPassword: Bool) throws(CLIError) -> VaultAccess {
    let bytes = try readFile(path)
    let keyFile = try readKeyFile(keyFilePath)
    let password =
      noPassword
      ? nil
      : try readPassword(
        prompt: "Enter password to unlock \(path): ",
        missing: "no password given (pipe it on standard input, or use --no-password)")
    let key = CompositeKey(password: password, keyFile: keyFile)
    let opened = try openBytes(bytes, key: key)
    ProcessLifetime.keep(opened)
    return VaultAccess(path: path, key: key, opened: opened)
  }

  /// The key file at `path`, or `nil` without one.
  static func readKeyFile(_ path: String?) throws(CLIError) -> KeyFile? {
    guard let path else { return nil }
    let contents = try readFile(path)
    do {
      return try KeyFile(contents: contents)
    } catch {
      throw .failure("key file \(path): \(error.description)")
    }
  }

  /// The password: prompted with echo off on a terminal, otherwise the next line of standard input.
  static func readPassword(prompt: String, missing: String) throws(CLIError) -> String {
    guard let line = Terminal.readSecret(prompt: prompt) else { throw .failure(missing) }
    return line
  }

  static func readFile(_ path: String) throws(CLIError) -> [UInt8] {
    do {
      return try FileIO.readFile(atPath: path)
    } catch {
      throw .failure(error.description)
    }
  }

  /// Opens `bytes`, showing a progress bar on standard error when it is a terminal.
  static func openBytes(_ bytes: [UInt8], key: CompositeKey) throws(CLIError) -> OpenedDatabase {
    let bar = ProgressBar(label: "Deriving key")
    defer { bar.finish() }
    do {
      return try KDFTuning.open(bytes: bytes, key: key, progress: bar.isActive ? bar.update : nil)
    } catch .invalidCredentials {
      throw .invalidCredentials
    } catch {
      throw .failure(error.description)
    }
  }

  /// Saves the database atomically: writes a temporary file, reads it back and verifies every integrity layer
  /// and the XML, then renames it over the original.
  func save() throws(CLIError) {
    let saved: SavedFile
    let bar = ProgressBar(label: "Saving")
    do {
      saved = try KDFTuning.write(
        opened.database, key: key, settings: SaveSettings(keeping: opened), progress: bar.isActive ? bar.update : nil)
    } catch {
      bar.finish()
      throw .failure("cannot save: \(error.description)")
    }
    bar.finish()
    // The read-back check runs every integrity layer with the key the file was just written with (no second KDF).
    let transformedKey = saved.transformedKey
    let verify: ([UInt8]) -> String? = { written in
      KDFTuning.problem(verifying: written, transformedKey: transformedKey)
    }
    do {
      try FileIO.atomicWrite(saved.bytes, toPath: path, verify: verify)
    } catch {
      throw .failure("cannot save: \(error.description)")
    }
  }

  /// Why `bytes` do not open with `key`, or `nil` when they do.
  static func problem(opening bytes: [UInt8], key: CompositeKey) -> String? {
    do throws(KDBXError) {
      _ = try KDFTuning.open(bytes: bytes, key: key)
      return nil
    } catch {
      return error.description
    }
  }

  // MARK: Finding things
  //
  // A reference resolves to a position in the tree, and commands act on that position: in a file where two objects
  // share a UUID (which KDBX forbids, but damaged files have), acting "on the UUID" could change the other one.

  /// An entry found from a command-line reference, with where it is.
  struct LocatedEntry {
    var entry: Entry
    var position: EntryPosition
  }

  /// A group found from a command-line reference, with where it is.
  struct LocatedGroup {
    var group: Group
    var position: GroupPosition
  }

  /// Finds an entry by `Group/Sub/Title` (from the root's children) or by UUID.
  func entry(_ reference: String) throws(CLIError) -> Entry {
    try locateEntry(reference).entry
  }

  /// Finds an entry by `Group/Sub/Title` (from the root's children) or by UUID; refuses a reference that names
  /// several entries, listing them.
  func locateEntry(_ reference: String) throws(CLIError) -> LocatedEntry {
    if let uuid = VaultAccess.uuid(reference) {
      let found = database.positions(ofEntry: uuid)
      if found.count > 1 {
        let paths = found.map { "'" + pathText(of: $0) + "'" }.joined(separator: ", ")
        throw .failure(
          "the UUID \(uuid) names \(found.count) entries (\(paths)), which KDBX forbids; name the entry by its path "
            + "('kdbx verify' lists the duplicates)")
      }
      if let position = found.first, let entry = database.entry(at: position) {
        return LocatedEntry(entry: entry, position: position)
      }
    }
    let parts = VaultAccess.split(reference)
    guard let title = parts.last else { throw .failure("no entry named '\(reference)'") }
    var matches: [LocatedEntry] = []
    for groupPosition in groups(named: Array(parts.dropLast())) {
      guard let group = database.group(at: groupPosition) else { continue }
      for (index, entry) in group.entries.enumerated() where ListCommand.title(entry) == title {
        matches.append(LocatedEntry(entry: entry, position: EntryPosition(group: groupPosition, index: index)))
      }
    }
    guard let first = matches.first else { throw .failure("no entry named '\(reference)'") }
    if matches.count > 1 {
      let uuids = matches.map { $0.entry.uuid.description }.joined(separator: ", ")
      throw .failure("'\(reference)' names \(matches.count) entries; use a UUID (\(uuids))")
    }
    return first
  }

  /// Finds a group by path (empty or `/` for the root) or by UUID.
  func group(_ reference: String) throws(CLIError) -> Group {
    try locateGroup(reference).group
  }

  /// Finds a group by path (empty or `/` for the root) or by UUID; refuses a reference that names several groups,
  /// listing them.
  func locateGroup(_ reference: String) throws(CLIError) -> LocatedGroup {
    guard database.root != nil else { throw .failure("the database has no root group") }
    if let uuid = VaultAccess.uuid(reference) {
      let found = database.positions(ofGroup: uuid)
      if found.count > 1 {
        let paths = found.map { "'" + pathText(of: $0) + "'" }.joined(separator: ", ")
        throw .failure(
          "the UUID \(uuid) names \(found.count) groups (\(paths)), which KDBX forbids; name the group by its path "
            + "('kdbx verify' lists the duplicates)")
      }
      if let position = found.first, let group = database.group(at: position) {
        return LocatedGroup(group: group, position: position)
      }
    }
    let matches = groups(named: VaultAccess.split(reference))
    guard let first = matches.first, let group = database.group(at: first) else {
      throw .failure("no group named '\(reference)'")
    }
    if matches.count > 1 {
      let uuids = matches.compactMap { database.group(at: $0)?.uuid.description }.joined(separator: ", ")
      throw .failure("'\(reference)' names \(matches.count) groups; use a UUID (\(uuids))")
    }
    return LocatedGroup(group: group, position: first)
  }

  /// The positions of the groups whose names from below the root are `names` (the root for no names).
  func groups(named names: [String]) -> [GroupPosition] {
    var current: [GroupPosition] = database.root == nil ? [] : [.root]
    for name in names {
      var next: [GroupPosition] = []
      for position in current {
        guard let group = database.group(at: position) else { continue }
        for (index, child) in group.groups.enumerated() where (child.name ?? "") == name {
          next.append(GroupPosition(indexPath: position.indexPath + [index]))
        }
      }
      current = next
    }
    return current
  }

  /// The names from the root's child down to the group at `position` (root excluded).
  func groupPath(of position: GroupPosition) -> [String] {
    guard var group = database.root else { return [] }
    var names: [String] = []
    for index in position.indexPath where group.groups.indices.contains(index) {
      group = group.groups[index]
      names.append(group.name ?? "")
    }
    return names
  }

  /// The group at `position` as a path for a message ('/' for the root), escaped for the terminal.
  func pathText(of position: GroupPosition) -> String {
    let names = groupPath(of: position)
    return names.isEmpty ? "/" : TerminalText.line(names.joined(separator: "/"))
  }

  /// The entry at `position` as `Group/Title` for a message, escaped for the terminal.
  func pathText(of position: EntryPosition) -> String {
    let title = database.entry(at: position).map(ListCommand.title) ?? ""
    return TerminalText.line((groupPath(of: position.group) + [title]).joined(separator: "/"))
  }

  static func split(_ path: String) -> [String] {
    path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
  }

  /// A UUID in canonical 8-4-4-4-12 form or as 32 hex digits.
  static func uuid(_ text: String) -> KDBXUUID? {
    guard text.utf8.count == 36 || text.utf8.count == 32 else { return nil }
    return KDBXUUID(string: text)
  }
}

/// A one-line progress bar on standard error, drawn only when standard error is a terminal.
final class ProgressBar {
  let label: String
  let isActive: Bool
  private var lastPercent = -1

  init(label: String) {
    self.label = label
    isActive = Terminal.standardErrorIsTerminal
  }

  func update(_ fraction: Double) -> Bool {
    guard isActive else { return true }
    let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
    guard percent != lastPercent else { return true }
    lastPercent = percent
    let filled = percent * 30 / 100
    let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
    Terminal.write("\r\(label) [\(bar)] \(percent)%", to: 2)
    return true
  }

  func finish() {
    guard isActive, lastPercent >= 0 else { return }
    Terminal.write("\r" + String(repeating: " ", count: label.count + 40) + "\r", to: 2)
    lastPercent = -1
  }
}
