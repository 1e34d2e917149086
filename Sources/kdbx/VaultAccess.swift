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
      if KDB1File.isKDB1(bytes) {  // KeePass 1.x: detected by its signature, read-only (KeePass1Access)
        return try KeePass1Access.openDatabase(bytes: bytes, key: key, progress: bar.isActive ? bar.update : nil)
      }
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
    try KeePass1Access.refuseChange(opened, path: path)
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

  /// Finds an entry by `Group/Sub/Title` (from the root's children) or by UUID.
  func entry(_ reference: String) throws(CLIError) -> Entry {
    if let uuid = VaultAccess.uuid(reference), let entry = database.entry(withUUID: uuid) { return entry }
    let parts = VaultAccess.split(reference)
    guard let title = parts.last else { throw .failure("no entry named '\(reference)'") }
    let groupPath = Array(parts.dropLast())
    let matches = database.flatEntries.filter {
      $0.groupPath == groupPath && ($0.entry[field: "Title"]?.reveal() ?? "") == title
    }
    guard let first = matches.first else { throw .failure("no entry named '\(reference)'") }
    if matches.count > 1 {
      throw .failure("'\(reference)' names \(matches.count) entries; use a UUID (\(first.entry.uuid), ...)")
    }
    return first.entry
  }

  /// Finds a group by path (empty or `/` for the root) or by UUID.
  func group(_ reference: String) throws(CLIError) -> Group {
    guard let root = database.root else { throw .failure("the database has no root group") }
    if let uuid = VaultAccess.uuid(reference), let group = database.group(withUUID: uuid) { return group }
    var current = root
    for name in VaultAccess.split(reference) {
      let children = current.groups.filter { ($0.name ?? "") == name }
      guard let next = children.first else { throw .failure("no group named '\(reference)'") }
      if children.count > 1 { throw .failure("'\(reference)' names \(children.count) groups; use a UUID") }
      current = next
    }
    return current
  }

  /// The names from the root's child down to `uuid` (root excluded); `nil` when the group is not in the tree.
  func groupPath(of uuid: KDBXUUID) -> [String]? {
    guard let root = database.root else { return nil }
    if root.uuid == uuid { return [] }
    func search(_ group: Group, _ path: [String]) -> [String]? {
      for child in group.groups {
        let here = path + [child.name ?? ""]
        if child.uuid == uuid { return here }
        if let found = search(child, here) { return found }
      }
      return nil
    }
    return search(root, [])
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
    Terminal.error("\r\(label) [\(bar)] \(percent)%")
    return true
  }

  func finish() {
    guard isActive, lastPercent >= 0 else { return }
    Terminal.error("\r" + String(repeating: " ", count: label.count + 40) + "\r")
    lastPercent = -1
  }
}
