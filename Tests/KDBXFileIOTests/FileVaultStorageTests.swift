import KDBX
import KDBXFileIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``FileVaultStorage`` under a ``SynchronousVaultSession`` on real temporary files: another writer replacing the file between
/// open and save is detected, and overwrite, merge and backups behave on disk.
@Suite struct FileVaultStorageTests {
  static let key = CompositeKey(password: "file vault")
  static let clock = FixedClock(Timestamp(unixSeconds: 1_772_366_400))
  static let later = FixedClock(Timestamp(unixSeconds: 1_772_452_800))
  /// A cheap KDF so that debug-mode tests stay fast.
  static let settings = SaveSettings(
    version: .v4_0, cipher: .aes256, kdf: .aesKDF(AESKDFParameters(rounds: 200, seed: [UInt8](repeating: 1, count: 32)))
  )

  /// Writes a vault with entries "Alpha" and "Beta" to `path`; returns their UUIDs.
  static func writeVault(to path: String) throws -> (alpha: KDBXUUID, beta: KDBXUUID) {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Files", clock: clock, random: &random)
    let root = try #require(database.root?.uuid)
    var alpha = Entry.new(clock: clock, random: &random)
    alpha[field: Entry.titleField] = .plain("Alpha")
    var beta = Entry.new(clock: clock, random: &random)
    beta[field: Entry.titleField] = .plain("Beta")
    database.addEntry(alpha, to: root)
    database.addEntry(beta, to: root)
    try FileIO.atomicWrite(try KDBXFile.saveBlocking(database, key: key, settings: settings), toPath: path)
    return (alpha.uuid, beta.uuid)
  }

  static func rename(_ uuid: KDBXUUID, to title: String, in session: SynchronousVaultSession<FileVaultStorage>) {
    session.database?.editEntry(uuid, clock: later) { $0[field: Entry.titleField] = .plain(title) }
  }

  static func title(_ uuid: KDBXUUID, atPath path: String) throws -> String? {
    let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: key)
    return session.database?.entry(withUUID: uuid)?[field: Entry.titleField]?.reveal()
  }

  @Test func anotherWriterIsDetectedAndNothingIsWritten() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    let ids = try Self.writeVault(to: path)
    let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    #expect(try !session.hasChangesOnDisk())
    // Another writer (a sync client, another app) replaces the file.
    let other = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    Self.rename(ids.beta, to: "Beta (other)", in: other)
    #expect(try other.save() == .saved)
    let theirs = try FileIO.readFile(atPath: path)

    Self.rename(ids.alpha, to: "Alpha (mine)", in: session)
    #expect(try session.hasChangesOnDisk())
    #expect(throws: VaultSessionError.changedOnDisk) { try session.save() }
    #expect(try FileIO.readFile(atPath: path) == theirs)
    #expect(scratch.entries() == ["vault.kdbx"])
  }

  @Test func overwriteReplacesTheOtherVersion() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    let ids = try Self.writeVault(to: path)
    let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    let other = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    Self.rename(ids.beta, to: "Beta (other)", in: other)
    try other.save()
    Self.rename(ids.alpha, to: "Alpha (mine)", in: session)
    #expect(try session.save(onConflict: .overwrite) == .overwrote)
    #expect(try Self.title(ids.alpha, atPath: path) == "Alpha (mine)")
    #expect(try Self.title(ids.beta, atPath: path) == "Beta")
    #expect(try !session.hasChangesOnDisk())
  }

  @Test func mergeKeepsBothWritersEdits() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    let ids = try Self.writeVault(to: path)
    let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    let other = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    Self.rename(ids.beta, to: "Beta (other)", in: other)
    try other.save()
    Self.rename(ids.alpha, to: "Alpha (mine)", in: session)
    let outcome = try session.save(onConflict: .merge(.threeWay(now: Self.later.now())))
    guard case .merged(let report) = outcome else {
      Issue.record("expected a merge, got \(outcome)")
      return
    }
    #expect(report.conflicts.isEmpty)
    #expect(try Self.title(ids.alpha, atPath: path) == "Alpha (mine)")
    #expect(try Self.title(ids.beta, atPath: path) == "Beta (other)")
    // The other writer now sees this session's save as a change on disk.
    #expect(try other.hasChangesOnDisk())
    try other.reload()
    #expect(other.database?.entry(withUUID: ids.alpha)?[field: Entry.titleField]?.reveal() == "Alpha (mine)")
  }

  @Test func backupKeepsThePreviousVersion() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    let ids = try Self.writeVault(to: path)
    let before = try FileIO.readFile(atPath: path)
    let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path, keepsBackup: true), key: Self.key)
    Self.rename(ids.alpha, to: "Alpha 2", in: session)
    #expect(try session.save() == .saved)
    #expect(scratch.entries() == ["vault.kdbx", "vault.kdbx.old"])
    #expect(try FileIO.readFile(atPath: path + ".old") == before)
    #expect(try Self.title(ids.alpha, atPath: path) == "Alpha 2")
    #expect(try Self.title(ids.alpha, atPath: path + ".old") == "Alpha")
  }

  @Test func missingReadOnlyAndNonKDBXWritesAreReported() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    #expect(throws: VaultSessionError.storage(.notFound(location: path))) {
      try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: Self.key)
    }
    _ = try Self.writeVault(to: path)
    let before = try FileIO.readFile(atPath: path)
    var storage = FileVaultStorage(path: path)
    let version = try storage.read().version
    // The read-back check refuses bytes that are not a KDBX file, and the vault stays as it was.
    #expect {
      _ = try storage.write(Array("not a vault".utf8), replacing: version)
    } throws: { error in
      guard case .writeFailed(let location, _) = error as? VaultStorageError else { return false }
      return location == path
    }
    #expect(try FileIO.readFile(atPath: path) == before)
    #expect(scratch.entries() == ["vault.kdbx"])
    chmod(path, 0o400)
    #expect(throws: VaultStorageError.readOnly(location: path)) { _ = try storage.write(before, replacing: version) }
  }

  @Test func readmeVaultSessionExample() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    let ids = try Self.writeVault(to: path)
    let entryID = ids.alpha
    let key = Self.key
    let clock = Self.later
    let other = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: key)
    Self.rename(ids.beta, to: "Beta (phone)", in: other)
    // --- README vault sessions (keep in sync, apart from the line marked "test only") ---
    let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path, keepsBackup: true), key: key)
    session.database?.editEntry(entryID, clock: clock) { $0[field: "UserName"] = .plain("octocat") }
    #expect(try other.save() == .saved)  // test only: the phone saves meanwhile
    do {
      try session.save()  // same version, cipher and KDF as read
    } catch VaultSessionError.changedOnDisk {  // another device saved since we read
      let outcome = try session.save(onConflict: .merge(.threeWay(now: clock.now())))  // or .reload, .overwrite
      if case .merged(let report) = outcome { print(report.conflicts.count, "conflicts kept loss-free") }
    }
    session.lock()  // drops the database, zeroes the cached key
    try session.unlock(key: key)  // re-reads; a wrong key is .kdbx(.invalidCredentials)
    // --- end ---
    #expect(session.database?.entry(withUUID: entryID)?[field: "UserName"]?.reveal() == "octocat")
    #expect(try Self.title(ids.beta, atPath: path) == "Beta (phone)")
  }
}
