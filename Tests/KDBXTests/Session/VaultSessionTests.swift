import Testing
import VectorSupport

@testable import KDBX

/// ``SynchronousVaultSession`` over ``InMemoryVaultStorage``: lock and unlock, wiping, wrong keys, and saves when another
/// device changed the file (fail, overwrite, reload, merge). "Device B" is a second session on a copy of the bytes.
@Suite struct VaultSessionTests {
  static let key = CompositeKey(password: "correct horse")
  static let clock = FixedClock(Timestamp(unixSeconds: 1_772_366_400))
  static let later = FixedClock(Timestamp(unixSeconds: 1_772_452_800))
  static let mergeTime = Timestamp(unixSeconds: 1_772_539_200)
  /// A cheap KDF so that debug-mode tests stay fast.
  static let settings = SaveSettings(
    version: .v4_0, cipher: .chaCha20,
    kdf: .aesKDF(AESKDFParameters(rounds: 200, seed: [UInt8](repeating: 7, count: 32))))

  /// A vault with two entries, "Alpha" and "Beta", and its UUIDs.
  static func vault() throws -> (bytes: [UInt8], alpha: KDBXUUID, beta: KDBXUUID) {
    var random = SplitMix64(seed: 42)
    var database = Database.new(name: "Home", clock: clock, random: &random)
    let root = try #require(database.root?.uuid)
    var alpha = Entry.new(clock: clock, random: &random)
    alpha[field: Entry.titleField] = .plain("Alpha")
    var beta = Entry.new(clock: clock, random: &random)
    beta[field: Entry.titleField] = .plain("Beta")
    database.addEntry(alpha, to: root)
    database.addEntry(beta, to: root)
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: settings)
    return (bytes, alpha.uuid, beta.uuid)
  }

  static func session(_ bytes: [UInt8]) throws -> SynchronousVaultSession<InMemoryVaultStorage> {
    try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: bytes), key: key)
  }

  static func title(_ uuid: KDBXUUID, in database: Database?) -> String? {
    database?.entry(withUUID: uuid)?[field: Entry.titleField]?.reveal()
  }

  /// Device B renames `uuid` and saves; returns the bytes it wrote.
  static func otherDevice(_ bytes: [UInt8], renames uuid: KDBXUUID, to title: String) throws -> [UInt8] {
    let other = try session(bytes)
    other.database?.editEntry(uuid, clock: later) { $0[field: Entry.titleField] = .plain(title) }
    #expect(try other.save() == .saved)
    return try #require(other.storage.bytes)
  }

  @Test func lockDropsTheDatabaseAndUnlockRereads() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    #expect(!session.isLocked)
    #expect(Self.title(vault.alpha, in: session.database) == "Alpha")
    session.lock()
    #expect(session.isLocked)
    #expect(session.database == nil)
    session.database = Database(meta: Meta(), root: nil)  // ignored while locked
    #expect(session.database == nil)
    #expect(throws: VaultSessionError.locked) { try session.save() }
    #expect(throws: VaultSessionError.locked) { try session.reload() }
    // Another device writes while we are locked: unlock reads the new version.
    session.storage.bytes = try Self.otherDevice(vault.bytes, renames: vault.alpha, to: "Alpha (B)")
    try session.unlock(key: Self.key)
    #expect(!session.isLocked)
    #expect(Self.title(vault.alpha, in: session.database) == "Alpha (B)")
    #expect(try !session.hasChangesOnDisk())
    #expect("\(session)" == "VaultSession(unlocked)")
  }

  @Test func lockWipesTheKeyMaterial() throws {
    let session = try Self.session(try Self.vault().bytes)
    let material = try #require(session.keyMaterial)
    #expect(material.compositeKey != nil)
    #expect(material.transformedKDF != nil)
    #expect(material.transformedKey?.count == 32)
    #expect(material.transformedKey?.bytes.contains { $0 != 0 } == true)
    session.lock()
    #expect(session.keyMaterial == nil)
    // The material dropped its key storage (zeroed on release: KeyMemoryTests reads it).
    #expect(material.isWiped)
    #expect(material.transformedKey == nil)
    #expect(material.compositeKey == nil)
    #expect(material.transformedKDF == nil)
    #expect(throws: KDBXError.invalidCredentials) { try material.key(for: Self.settings.kdf, version: .v4_0) }
  }

  @Test func wrongKeyIsInvalidCredentialsAndStaysLocked() throws {
    let vault = try Self.vault()
    #expect(throws: VaultSessionError.kdbx(.invalidCredentials)) {
      try SynchronousVaultSession(
        storage: InMemoryVaultStorage(bytes: vault.bytes), key: CompositeKey(password: "wrong"))
    }
    let session = try Self.session(vault.bytes)
    session.lock()
    #expect(throws: VaultSessionError.kdbx(.invalidCredentials)) {
      try session.unlock(key: CompositeKey(password: "wrong"))
    }
    #expect(session.isLocked)
    #expect(session.database == nil)
    try session.unlock(key: Self.key)
    #expect(Self.title(vault.beta, in: session.database) == "Beta")
  }

  @Test func saveWithoutConflictKeepsTheFileSettings() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    #expect(!session.hasUnsavedChanges)
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha 2") }
    #expect(session.hasUnsavedChanges)
    let kdfRuns = Counter()
    #expect(try session.save(progress: kdfRuns.callback) == .saved)
    #expect(kdfRuns.count == 0)  // the cached transformed key skips the KDF
    #expect(!session.hasUnsavedChanges)
    #expect(session.storage.writeCount == 1)
    let written = try #require(session.storage.bytes)
    #expect(written != vault.bytes)
    let before = try KDBXFile.readHeader(bytes: vault.bytes).header
    let after = try KDBXFile.readHeader(bytes: written).header
    #expect(after.version == before.version)
    #expect(after.cipher == before.cipher)
    #expect(after.kdf == before.kdf)
    #expect(after.masterSeed != before.masterSeed)
    #expect(try !session.hasChangesOnDisk())
    // Another session with the password reads the edit; a second save still sees no conflict.
    #expect(Self.title(vault.alpha, in: try Self.session(written).database) == "Alpha 2")
    #expect(try session.save() == .saved)
  }

  static func kdfSeed(_ bytes: [UInt8]?) throws -> [UInt8] {
    try KDBXFile.readHeader(bytes: try #require(bytes)).header.kdf.seed
  }

  @Test func changedKDFRunsOnceWithAFreshSeed() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    let oldSeed = try Self.kdfSeed(vault.bytes)
    session.settings.kdf = .aesKDF(AESKDFParameters(rounds: 300, seed: oldSeed))
    let kdfRuns = Counter()
    #expect(try session.save(progress: kdfRuns.callback) == .saved)
    #expect(kdfRuns.count > 0)
    let header = try KDBXFile.readHeader(bytes: try #require(session.storage.bytes)).header
    guard case .aesKDF(let aes) = header.kdf else {
      Issue.record("KDF changed kind")
      return
    }
    #expect(aes.rounds == 300)
    #expect(aes.seed != oldSeed)
    #expect(session.settings.kdf == header.kdf)
    // The next save reuses the new KDF output and seed.
    let secondRuns = Counter()
    #expect(try session.save(progress: secondRuns.callback) == .saved)
    #expect(secondRuns.count == 0)
    #expect(try Self.kdfSeed(session.storage.bytes) == aes.seed)
    session.lock()
    try session.unlock(key: Self.key)
  }

  @Test func withoutTheCacheEverySaveDrawsAFreshSeed() throws {
    let vault = try Self.vault()
    let session = try SynchronousVaultSession(
      storage: InMemoryVaultStorage(bytes: vault.bytes), key: Self.key,
      options: VaultSessionOptions(cachesTransformedKey: false))
    #expect(session.keyMaterial?.transformedKDF == nil)
    var seeds = [try Self.kdfSeed(vault.bytes)]
    for _ in 0..<2 {
      let kdfRuns = Counter()
      #expect(try session.save(progress: kdfRuns.callback) == .saved)
      #expect(kdfRuns.count > 0)
      seeds.append(try Self.kdfSeed(session.storage.bytes))
      #expect(session.settings.kdf.seed == seeds.last)
    }
    #expect(Set(seeds).count == 3)
    #expect(try !session.hasChangesOnDisk())
    #expect(Self.title(vault.beta, in: try Self.session(try #require(session.storage.bytes)).database) == "Beta")
  }

  /// KDBX 4 with a challenge-response key: the response answers the KDF seed, so saves keep the seed, with or
  /// without the cache; for KDBX 3 the transformed key alone is not enough and the composite key is used.
  @Test(arguments: [true, false]) func challengeResponseKeepsTheKDFSeed(_ caches: Bool) throws {
    let key = CompositeKey(password: "pw", challengeResponse: Array("response".utf8))
    var random = SplitMix64(seed: 3)
    let database = Database.new(name: "CR", clock: Self.clock, random: &random)
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: Self.settings)
    let session = try SynchronousVaultSession(
      storage: InMemoryVaultStorage(bytes: bytes), key: key, options: VaultSessionOptions(cachesTransformedKey: caches))
    session.settings.kdf = .aesKDF(AESKDFParameters(rounds: 250, seed: try Self.kdfSeed(bytes)))
    #expect(try session.save() == .saved)
    #expect(try Self.kdfSeed(session.storage.bytes) == Self.kdfSeed(bytes))
    _ = try KDBXFile.openBlocking(bytes: try #require(session.storage.bytes), key: key)

    let material = SessionKeyMaterial(key: key, cachesTransformedKey: true)
    let kdf = Self.settings.kdf
    var output = [UInt8](repeating: 9, count: 32)
    let written = material.finishDerivation(&output, kdf: kdf, version: .v4_0)
    #expect(output == [UInt8](repeating: 0, count: 32))  // the caller's copy is zeroed
    #expect(written.transformedSecret === material.transformedKey)  // remembered, not copied
    #expect(try material.key(for: kdf, version: .v4_1).isTransformed)
    #expect(try !material.key(for: kdf, version: .v3_1).isTransformed)
    #expect(try !material.keyForWriting(kdf: kdf, version: .v3_1, primitives: StandardPrimitives()).key.isTransformed)
  }

  @Test func conflictFailsByDefaultWithoutWriting() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    let fromB = try Self.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    session.storage.bytes = fromB
    #expect(try session.hasChangesOnDisk())
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha (A)") }
    #expect(throws: VaultSessionError.changedOnDisk) { try session.save() }
    #expect(session.storage.bytes == fromB)
    #expect(session.storage.writeCount == 0)
    #expect(Self.title(vault.alpha, in: session.database) == "Alpha (A)")  // the local edit is still there
  }

  @Test func conflictOverwrite() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    session.storage.bytes = try Self.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha (A)") }
    #expect(try session.save(onConflict: .overwrite) == .overwrote)
    let disk = try Self.session(try #require(session.storage.bytes)).database
    #expect(Self.title(vault.alpha, in: disk) == "Alpha (A)")
    #expect(Self.title(vault.beta, in: disk) == "Beta")
    #expect(try !session.hasChangesOnDisk())
  }

  @Test func conflictReloadDropsLocalChanges() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    session.storage.bytes = try Self.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha (A)") }
    #expect(try session.save(onConflict: .reload) == .reloaded)
    #expect(session.storage.writeCount == 0)
    #expect(Self.title(vault.alpha, in: session.database) == "Alpha")
    #expect(Self.title(vault.beta, in: session.database) == "Beta (B)")
    #expect(!session.hasUnsavedChanges)
    #expect(try !session.hasChangesOnDisk())
  }

  @Test func reloadLoadsTheDiskVersion() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha (A)") }
    session.storage.bytes = try Self.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    try session.reload()
    #expect(Self.title(vault.alpha, in: session.database) == "Alpha")
    #expect(Self.title(vault.beta, in: session.database) == "Beta (B)")
    #expect(try !session.hasChangesOnDisk())
  }

  @Test(arguments: [
    VaultMergeMethod.threeWay(now: Self.mergeTime), .synchronize(.synchronize),
  ])
  func conflictMergeKeepsBothSidesEdits(_ method: VaultMergeMethod) throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    session.storage.bytes = try Self.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha (A)") }
    let outcome = try session.save(onConflict: .merge(method))
    guard case .merged(let report) = outcome else {
      Issue.record("expected a merge, got \(outcome)")
      return
    }
    #expect(report.changes(for: vault.beta).contains { $0.action == .updated })
    #expect(report.conflicts.isEmpty)
    #expect(session.storage.writeCount == 1)
    for database in [session.database, try Self.session(try #require(session.storage.bytes)).database] {
      #expect(Self.title(vault.alpha, in: database) == "Alpha (A)")
      #expect(Self.title(vault.beta, in: database) == "Beta (B)")
    }
    #expect(try !session.hasChangesOnDisk())
    #expect(!session.hasUnsavedChanges)
  }

  @Test func deletionOnDiskAgainstLocalEditMergesLossFree() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    // Device B deletes Alpha for good (no recycle bin) and renames Beta.
    let other = try Self.session(vault.bytes)
    other.database?.meta.recycleBinEnabled = false
    var random = SplitMix64(seed: 9)
    #expect(other.database?.deleteEntry(vault.alpha, clock: Self.later, random: &random) == .deletedPermanently)
    other.database?.editEntry(vault.beta, clock: Self.later) { $0[field: Entry.titleField] = .plain("Beta (B)") }
    try other.save()
    session.storage.bytes = other.storage.bytes
    // Meanwhile this device edits Alpha.
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha (A)") }
    let outcome = try session.save(onConflict: .merge(.threeWay(now: Self.mergeTime)))
    guard case .merged(let report) = outcome else {
      Issue.record("expected a merge, got \(outcome)")
      return
    }
    #expect(report.conflicts.contains { $0.uuid == vault.alpha && $0.kind == .editedLocallyDeletedRemotely })
    let disk = try Self.session(try #require(session.storage.bytes)).database
    #expect(Self.title(vault.alpha, in: disk) == "Alpha (A)")
    #expect(Self.title(vault.beta, in: disk) == "Beta (B)")

    // Without a local edit, the deletion on disk wins.
    let untouched = try Self.session(vault.bytes)
    untouched.storage.bytes = other.storage.bytes
    untouched.database?.editEntry(vault.beta, clock: Self.later) { $0[field: Entry.notesField] = .plain("note") }
    _ = try untouched.save(onConflict: .merge(.threeWay(now: Self.mergeTime)))
    #expect(untouched.database?.entry(withUUID: vault.alpha) == nil)
  }

  @Test func failedWriteLeavesTheSessionAsItWas() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    let digest = session.knownFileDigest
    session.database?.editEntry(vault.alpha, clock: Self.later) { $0[field: Entry.titleField] = .plain("Alpha 2") }
    session.storage.failingWrite = .writeFailed(location: "memory", reason: "disk full")
    #expect(throws: VaultSessionError.storage(.writeFailed(location: "memory", reason: "disk full"))) {
      try session.save()
    }
    #expect(session.knownFileDigest == digest)
    #expect(session.hasUnsavedChanges)
    #expect(session.storage.bytes == vault.bytes)
    session.storage.failingWrite = nil
    #expect(try session.save() == .saved)
  }

  @Test func createWritesANewVault() throws {
    var random = SplitMix64(seed: 11)
    let database = Database.new(name: "New", clock: Self.clock, random: &random)
    let kdfRuns = Counter()
    let session = try SynchronousVaultSession.create(
      database, in: InMemoryVaultStorage(), key: Self.key, settings: Self.settings, progress: kdfRuns.callback)
    #expect(kdfRuns.count > 0)
    #expect(!session.isLocked)
    #expect(!session.hasUnsavedChanges)
    #expect(session.storage.writeCount == 1)
    let bytes = try #require(session.storage.bytes)
    #expect(try Self.kdfSeed(bytes) != Self.settings.kdf.seed)  // a fresh seed
    #expect(try Self.session(bytes).database?.meta.databaseName == "New")
    // The next save keeps the seed and skips the KDF.
    let secondRuns = Counter()
    session.database?.meta.databaseName = "Renamed"
    #expect(try session.save(progress: secondRuns.callback) == .saved)
    #expect(secondRuns.count == 0)
    #expect(try Self.kdfSeed(session.storage.bytes) == Self.kdfSeed(bytes))
    // Never over an existing file.
    #expect(throws: VaultSessionError.fileExists) {
      try SynchronousVaultSession.create(
        database, in: InMemoryVaultStorage(bytes: bytes), key: Self.key, settings: Self.settings)
    }
  }

  @Test func fileRemovedFromStorage() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    session.storage.bytes = nil
    #expect(throws: VaultSessionError.storage(.notFound(location: "memory"))) { try session.save() }
    #expect(throws: VaultSessionError.storage(.notFound(location: "memory"))) {
      try session.save(onConflict: .merge(.synchronize(.synchronize)))
    }
    #expect(session.storage.bytes == nil)
    #expect(try session.save(onConflict: .overwrite) == .overwrote)
    #expect(Self.title(vault.alpha, in: try Self.session(try #require(session.storage.bytes)).database) == "Alpha")
  }

  @Test func keyChangedOnAnotherDeviceIsInvalidCredentials() throws {
    let vault = try Self.vault()
    let session = try Self.session(vault.bytes)
    let opened = try KDBXFile.openBlocking(bytes: vault.bytes, key: Self.key)
    session.storage.bytes = try KDBXFile.saveBlocking(
      opened.database, key: CompositeKey(password: "new password"), settings: Self.settings)
    #expect(throws: VaultSessionError.kdbx(.invalidCredentials)) {
      try session.save(onConflict: .merge(.synchronize(.synchronize)))
    }
    #expect(!session.isLocked)
    #expect(session.database != nil)
  }
}

/// Counts progress callbacks (each means the KDF ran).
final class Counter {
  var count = 0
  var callback: (Double) -> Bool {
    { _ in
      self.count += 1
      return true
    }
  }
}
