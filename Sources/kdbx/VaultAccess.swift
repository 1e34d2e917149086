import KDBX
import KDBXBase
import KDBXCrypto
import KDBXFileIO
import KDBXImport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening a vault for a command: `FILE`, `--key-file PATH`, `--no-password`, the password prompt, the progress
/// bar, and finding entries and groups by path or UUID.
struct VaultAccess {
  /// How long a command that changes a vault waits for another one saving it (`--lock-timeout`), in seconds.
  static let defaultLockTimeoutSeconds = 20.0
  /// The option that lifts the key file size limit (``FileIO/defaultMaxKeyFileByteCount``).
  static let allowLargeKeyFileFlag = "--allow-large-key-file"

  var path: String
  var key: CompositeKey
  var opened: OpenedDatabase
  /// The version of the file that was opened: a save replaces the file only while it still holds these bytes.
  var version: FileVersion {
    get { pendingVersion.result() }
    set { pendingVersion = StartedWork(value: newValue) }
  }
  /// ``version``, whose SHA-256 a helper computes while the vault is decrypted and read.
  private var pendingVersion: StartedWork<FileVersion>
  /// The vault's lock, held from before the read to after the save, by commands that change the vault.
  var lock: VaultFileLock?
  /// The password and key file the vault was opened with, for `db-edit`, which keeps the ones it does not change.
  var credentials: Credentials?

  /// The components of ``key`` as the user gave them.
  struct Credentials {
    var password: String?
    var keyFile: KeyFile?
  }

  var database: Database {
    get { opened.database }
    set { opened.database = newValue }
  }

  /// Reads the credential options from `arguments` and opens positional 0 as the vault.
  ///
  /// With `forChange` (every command that saves the vault), the vault's lock (``VaultFileLock``) is taken before
  /// the file is read and held until the process ends, so that concurrent commands take turns (waiting up to
  /// `--lock-timeout` seconds, default 20), and ``save()`` replaces the file only if it still holds what was read.
  static func open(_ arguments: inout Arguments, forChange: Bool = false) throws(CLIError) -> VaultAccess {
    if let session = InteractiveSession.current { return try session.access(&arguments) }  // kdbx open
    let path = try arguments.positional(0, "FILE")
    let keyFilePath = arguments.value("--key-file", "-k")
    let noPassword = arguments.flag("--no-password")
    let allowsLargeKeyFile = arguments.flag(allowLargeKeyFileFlag)
    var lockTimeout: Double? = nil
    // Read whenever the command declares it (merge --dry-run takes it and changes nothing).
    let lockTimeoutText = arguments.declares("--lock-timeout") ? arguments.value("--lock-timeout") : nil
    if forChange {
      lockTimeout = defaultLockTimeoutSeconds
      if let text = lockTimeoutText {
        guard let seconds = Double(text), seconds >= 0, seconds <= 3600 else {
          throw .usage("--lock-timeout needs a number of seconds from 0 to 3600, not '\(text)'")
        }
        lockTimeout = seconds
      }
    }
    let maxKDFSeconds = try arguments.integer("--max-kdf-seconds", in: 1...31_536_000)
    return try open(
      path: path, keyFilePath: keyFilePath, noPassword: noPassword, allowsLargeKeyFile: allowsLargeKeyFile,
      lockTimeout: lockTimeout, maxKDFSeconds: maxKDFSeconds)
  }

  /// ``open(_:forChange:)``, then ``Arguments/finish(maxPositionals:)``: for a command whose own options are all read
  /// (and checked) before the vault is opened.
  static func open(_ arguments: inout Arguments, forChange: Bool = false, maxPositionals: Int) throws(CLIError)
    -> VaultAccess
  {
    let vault = try open(&arguments, forChange: forChange)
    try arguments.finish(maxPositionals: maxPositionals)
    return vault
  }

  /// What a command that changed the vault prints once the change is saved: `message` on standard output, then
  /// `note`, if any, on standard error.
  struct Change {
    var message: String
    var note: String? = nil
  }

  /// The frame of every command that makes one change to a vault: opens FILE for change (under its lock; at most
  /// `maxPositionals` arguments), lets `change` change it, saves it (``save(key:settings:)``) and prints what
  /// `change` returned. When `change` returns `nil` (nothing to change), nothing is saved.
  static func change(
    _ arguments: inout Arguments, maxPositionals: Int,
    _ change: (inout VaultAccess, Arguments) throws(CLIError) -> Change?
  ) throws(CLIError) {
    var vault = try open(&arguments, forChange: true, maxPositionals: maxPositionals)
    guard let done = try change(&vault, arguments) else { return }
    try vault.save()
    Terminal.out(done.message)
    if let note = done.note { Terminal.error(note) }
  }

  /// Opens the vault at `path`; with a `lockTimeout`, under the vault's lock (see ``open(_:forChange:)``). The
  /// key derivation's memory and work are checked before the password is asked for (`KDFCosts`).
  static func open(
    path: String, keyFilePath: String?, noPassword: Bool, allowsLargeKeyFile: Bool = false,
    lockTimeout: Double? = nil, maxKDFSeconds: Int? = nil
  ) throws(CLIError) -> VaultAccess {
    // With a lock, the file is read again under it below and only that read's version is kept: the first read
    // needs no version (a SHA-256 of the whole file).
    var bytes: [UInt8]
    var version: StartedWork<FileVersion>?
    if lockTimeout == nil {
      // A command that only reads the vault never saves it: the version is hashed only if asked for.
      (bytes, version) = try reading { () throws(FileIOError) in try FileIO.readFileDeferringVersion(atPath: path) }
    } else {
      bytes = try readFile(path)
      version = nil
    }
    var options = try KDFCosts.loadOptions(for: bytes, maxSeconds: maxKDFSeconds)
    let firstRead = bytes
    let (password, keyFile) = try readCredentials(
      keyFilePath: keyFilePath, allowsLargeKeyFile: allowsLargeKeyFile, noPassword: noPassword,
      prompt: "Enter password to unlock \(path): ",
      missing: "no password given (pipe it on standard input, or use --no-password)")
    var lock: VaultFileLock? = nil
    if let lockTimeout {
      // Locked after the password prompt, so that a person typing does not hold up other commands; the file is
      // read again under the lock, and that version is the one opened, changed and replaced.
      lock = try acquireLock(path, timeout: lockTimeout)
      (bytes, version) = try reading { () throws(FileIOError) in
        if let lock { return try lock.readStartingVersion() }
        return try FileIO.readFileStartingVersion(atPath: path)
      }
      if !ByteComparison.equal(bytes, firstRead) {
        options = try KDFCosts.loadOptions(for: bytes, maxSeconds: maxKDFSeconds)
      }
    }
    let key = CompositeKey(password: password, keyFile: keyFile)
    guard let version else { throw .failure("\(path): the file was not read under its lock") }
    let opened = try openBytes(bytes, key: key, options: options)
    return VaultAccess(
      path: path, key: key, opened: opened, pendingVersion: version, lock: lock,
      credentials: Credentials(password: password, keyFile: keyFile))
  }

  /// The vault's lock, waiting up to `timeout` seconds for another holder (and saying so on a terminal); `nil`
  /// when the file system cannot lock, with a note: the save's version check still refuses to overwrite.
  static func acquireLock(_ path: String, timeout: Double) throws(CLIError) -> VaultFileLock? {
    do {
      return try VaultFileLock.acquire(path, timeoutSeconds: timeout) { holder in
        guard Terminal.standardErrorIsTerminal else { return }
        let who = holder.map { " (\($0.description))" } ?? ""
        Terminal.error("Waiting for another program\(who) that is changing \(path)...\n")
      }
    } catch .lockFailed(_, let code) {
      Terminal.error(
        "kdbx: note: cannot lock \(path) (\(FileIO.describe(errno: code))); "
          + "saving only if nobody else saved it meanwhile\n")
      return nil
    } catch .lockTimeout(_, let seconds, let holder) {
      let who = holder.map { " (\($0.description))" } ?? ""
      let wait = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
      throw .failure(
        "\(path) is locked by another program\(who) that is changing it; gave up after \(wait) s "
          + "(--lock-timeout SECONDS waits longer); nothing was saved")
    } catch {
      throw .failure(error.description)
    }
  }

  /// The key file at `path`, or `nil` without one: read with bounded memory, regular files only, and at most
  /// 64 MiB unless `allowsLarge` (``FileIO/readKeyFile(atPath:maxByteCount:)``).
  static func readKeyFile(_ path: String?, allowsLarge: Bool = false) throws(CLIError) -> KeyFile? {
    guard let path else { return nil }
    do {
      return try FileIO.readKeyFile(atPath: path, maxByteCount: allowsLarge ? nil : FileIO.defaultMaxKeyFileByteCount)
    } catch .notRegularFile(_, let kind) {
      throw .failure("key file \(path) is \(kind), not a regular file")
    } catch .tooLarge(_, let count, let limit) {
      let size = "\(count >> 20) MiB"
      guard allowsLarge else {
        throw .failure(
          "key file \(path) is \(size), larger than any real key file (limit \(limit >> 20) MiB); "
            + "pass \(allowLargeKeyFileFlag) to use it anyway")
      }
      throw .failure(
        "key file \(path) is \(size) and starts like an XML key file; XML key files over \(limit >> 20) MiB are not read"
      )
    } catch {
      throw .failure(error.description)
    }
  }

  /// The key file at `keyFilePath`, then the password (``readPassword(prompt:missing:)``) unless `noPassword`.
  static func readCredentials(
    keyFilePath: String?, allowsLargeKeyFile: Bool, noPassword: Bool, prompt: String, missing: String
  ) throws(CLIError) -> (password: String?, keyFile: KeyFile?) {
    let keyFile = try readKeyFile(keyFilePath, allowsLarge: allowsLargeKeyFile)
    let password = noPassword ? nil : try readPassword(prompt: prompt, missing: missing)
    return (password, keyFile)
  }

  /// The password: prompted with echo off on a terminal, otherwise the next line of standard input.
  static func readPassword(prompt: String, missing: String) throws(CLIError) -> String {
    guard let line = Terminal.readSecret(prompt: prompt) else { throw .failure(missing) }
    return line
  }

  /// `body`'s result; a file error becomes a failure with its description (which names the file).
  static func reading<T>(_ body: () throws(FileIOError) -> T) throws(CLIError) -> T {
    do {
      return try body()
    } catch {
      throw .failure(error.description)
    }
  }

  static func readFile(_ path: String) throws(CLIError) -> [UInt8] {
    try reading { () throws(FileIOError) in try FileIO.readFile(atPath: path) }
  }

  /// Content the user names by path (a file to attach or import): a regular file, or a pipe, FIFO or character
  /// device read to its end (``FileIO/readInput(atPath:maxByteCount:)``).
  static func readInput(_ path: String) throws(CLIError) -> [UInt8] {
    try reading { () throws(FileIOError) in try FileIO.readInput(atPath: path) }
  }

  static func readFileAndVersion(_ path: String) throws(CLIError) -> (bytes: [UInt8], version: FileVersion) {
    try reading { () throws(FileIOError) in try FileIO.readFileAndVersion(atPath: path) }
  }

  /// Opens `bytes`, showing a progress bar on standard error when it is a terminal. Without `options`, a KDBX
  /// file's KDF memory and work are checked first with the defaults (`KDFCosts.loadOptions`).
  static func openBytes(_ bytes: [UInt8], key: CompositeKey, options: LoadOptions? = nil) throws(CLIError)
    -> OpenedDatabase
  {
    var checked = LoadOptions.default
    if let options {
      checked = options
    } else if !KDB1File.isKDB1(bytes) {
      checked = try KDFCosts.loadOptions(for: bytes, maxSeconds: nil)
    }
    let bar = ProgressBar(label: "Deriving key")
    defer { bar.finish() }
    do {
      if KDB1File.isKDB1(bytes) {  // KeePass 1.x: detected by its signature, read-only (KeePass1Access)
        return try KeePass1Access.openDatabase(bytes: bytes, key: key, progress: bar.isActive ? bar.update : nil)
      }
      return try KDFTuning.open(bytes: bytes, key: key, options: checked, progress: bar.isActive ? bar.update : nil)
    } catch .invalidCredentials {
      throw .invalidCredentials
    } catch {
      throw .failure(error.description)
    }
  }

  /// Saves the database atomically: writes a temporary file beside the real vault (symbolic links are followed),
  /// reads it back and verifies it (the bytes written, every integrity layer, the XML compared with the document
  /// the save checked to be well-formed: `KDBXFile.verifyReadBack`), checks that the vault on disk still holds the
  /// bytes that were opened (SHA-256), then renames the new file over it.
  /// `db-edit` passes a new `key` and `settings`; other commands keep the ones the vault was opened with.
  func save(key newKey: CompositeKey? = nil, settings: SaveSettings? = nil) throws(CLIError) {
    try KeePass1Access.refuseChange(opened, path: path)
    // `kdbx open`: the change is kept in the session until its 'save'.
    if let session = InteractiveSession.current, session.keep(opened.database) { return }
    let saved: SavedFile
    let bar = ProgressBar(label: "Saving")
    do {
      saved = try KDFTuning.write(
        opened.database, key: newKey ?? key, settings: settings ?? SaveSettings(keeping: opened),
        progress: bar.isActive ? bar.update : nil)
    } catch {
      bar.finish()
      throw .failure("cannot save: \(error.description)")
    }
    bar.finish()
    // The read-back check: the bytes on disk are the bytes written, every integrity layer opens with the key the
    // file was just written with (no second KDF), and the XML inside is the document the save checked.
    let verify: ([UInt8]) -> String? = { written in KDFTuning.problem(readingBack: written, of: saved) }
    // A coordinated write (``FileVaultStorage/write(_:replacing:holding:verify:)``): under the lock this command
    // holds, and only over the version it opened.
    var storage = FileVaultStorage(path: path)
    do throws(VaultStorageError) {
      _ = try storage.write(saved.bytes, replacing: version, holding: lock, verify: verify)
    } catch {
      // The save's check of its document, which the read-back waits for, refused it: say what, as a save that
      // checks before it writes would.
      if let refusal = saved.pendingCheck?.result() { throw .failure("cannot save: \(refusal.description)") }
      switch error {
      case .changedSinceRead:
        throw .failure(
          "\(path) changed since it was read (another program saved it meanwhile); nothing was saved; "
            + "run the command again")
      case .writeFailed(_, let reason): throw .failure("cannot save: \(reason)")
      default: throw .failure("cannot save: \(error.description)")
      }
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
      if found.count > 1 { throw VaultAccess.shared(uuid, "entry", "entries", paths: found.map { pathText(of: $0) }) }
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
    if matches.count > 1 { throw VaultAccess.ambiguous(reference, "entries", uuids: matches.map { $0.entry.uuid }) }
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
      if found.count > 1 { throw VaultAccess.shared(uuid, "group", "groups", paths: found.map { pathText(of: $0) }) }
      if let position = found.first, let group = database.group(at: position) {
        return LocatedGroup(group: group, position: position)
      }
    }
    let matches = groups(named: VaultAccess.split(reference))
    guard let first = matches.first, let group = database.group(at: first) else {
      throw .failure("no group named '\(reference)'")
    }
    if matches.count > 1 {
      throw VaultAccess.ambiguous(reference, "groups", uuids: matches.compactMap { database.group(at: $0)?.uuid })
    }
    return LocatedGroup(group: group, position: first)
  }

  /// The error for a UUID that several objects share (which KDBX forbids), listing their `paths`.
  static func shared(_ uuid: KDBXUUID, _ kind: String, _ kinds: String, paths: [String]) -> CLIError {
    let list = paths.map { "'" + $0 + "'" }.joined(separator: ", ")
    return .failure(
      "the UUID \(uuid) names \(paths.count) \(kinds) (\(list)), which KDBX forbids; name the \(kind) by its path "
        + "('kdbx verify' lists the duplicates)")
  }

  /// The error for a path that names several objects, listing their UUIDs.
  static func ambiguous(_ reference: String, _ kinds: String, uuids: [KDBXUUID]) -> CLIError {
    let list = uuids.map { $0.description }.joined(separator: ", ")
    return .failure("'\(reference)' names \(uuids.count) \(kinds); use a UUID (\(list))")
  }

  /// The group that a new entry or group given as `PARENT/NAME` (`NAME` alone: the root) goes into, and the new
  /// name, checked to be storable (as `what`, for example `the title`); `noName` is the usage error for a path
  /// without a name.
  func locateParent(of path: String, noName: String, nameAs what: String) throws(CLIError)
    -> (parent: LocatedGroup, name: String)
  {
    let parts = VaultAccess.split(path)
    guard let name = parts.last else { throw .usage(noName) }
    try StorableText.check(name, as: what)
    return (try locateGroup(parts.dropLast().joined(separator: "/")), name)
  }

  /// The positions of the groups whose names from below the root are `names` (the root for no names).
  func groups(named names: [String]) -> [GroupPosition] {
    database.groupPositions(atPath: names)
  }

  /// The names from the root's child down to the group at `position` (root excluded).
  func groupPath(of position: GroupPosition) -> [String] {
    guard var group = database.root else { return [] }
    var names: [String] = []
    for index in position.indexPath where group.groups.indices.contains(index) {
      group = group.groups[index]
      names.append(group.name)
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
