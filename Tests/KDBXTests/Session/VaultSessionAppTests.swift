import Synchronization
import Testing
import VectorSupport

@testable import KDBX

/// What an app's view model needs from ``VaultSession`` (issue #35, item 5): an edit that may throw (and is undone
/// when it does), one session type for every storage, progress in order and done before the call returns, and an
/// `async` create.
@Suite struct VaultSessionAppTests {
  typealias Vault = VaultSessionTests

  /// A file that several storages (writers) share.
  final class Disk: Sendable {
    let file: Mutex<(bytes: [UInt8]?, tag: Int)>
    init(_ bytes: [UInt8]?) { file = Mutex((bytes, 0)) }
  }

  /// A storage of another type than ``InMemoryVaultStorage``, with text versions (as an ETag), to hold beside it.
  struct TaggedStorage: VaultStorage {
    let disk: Disk
    init(bytes: [UInt8]?) { disk = Disk(bytes) }
    init(disk: Disk) { self.disk = disk }

    mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: String) {
      let file = disk.file.withLock { $0 }
      guard let bytes = file.bytes else { throw .notFound(location: "tagged") }
      return (bytes, "etag-\(file.tag)")
    }
    mutating func write(_ bytes: [UInt8], replacing expected: String?) throws(VaultStorageError) -> String {
      let written: Int? = disk.file.withLock { file in
        guard expected == (file.bytes == nil ? nil : "etag-\(file.tag)") else { return nil }
        file = (bytes, file.tag + 1)
        return file.tag
      }
      guard let written else { throw .changedSinceRead(location: "tagged") }
      return "etag-\(written)"
    }
  }

  @Test func aThrowingEditIsUndoneAndItsErrorPassedOn() async throws {
    let vault = try Vault.vault()
    let session = try await VaultSession.open(storage: InMemoryVaultStorage(bytes: vault.bytes), key: Vault.key)
    let before = try #require(await session.database)
    let configuration = try OTPAuthURI.parse("otpauth://totp/Bank:alice?secret=JBSWY3DPEHPK3PXP&issuer=Bank")
    // A TOTP set inside the edit: its error type passes through.
    try await session.update { database throws(OTPFormatError) in
      var random = SplitMix64(seed: 1)
      try database.editEntry(vault.alpha, clock: Vault.later) { entry throws(OTPFormatError) in
        try entry.setOneTimePassword(configuration, random: &random)
      }
    }
    #expect(await session.database?.entry(withUUID: vault.alpha)?.oneTimePassword() != nil)
    let afterTOTP = try #require(await session.database)
    #expect(afterTOTP != before)

    // An edit that changes the database, then throws: nothing of it is kept.
    struct Refused: Error, Equatable {}
    do {
      try await session.update { database throws(Refused) in
        database.meta.databaseName = "half done"
        throw Refused()
      }
      Issue.record("the edit's error was not thrown")
    } catch {
      #expect(error == .failed(Refused()))
      #expect(error.category == .invalidRequest)
    }
    #expect(await session.database == afterTOTP)

    await session.lock()
    await #expect(throws: VaultSessionError.locked) { try await session.update { $0.meta.databaseName = "x" } }
    await #expect(throws: VaultUpdateError<Refused>.locked) {
      try await session.update { database throws(Refused) in database.meta.databaseName = "x" }
    }
  }

  @Test func oneSessionTypeHoldsVaultsFromDifferentStorages() async throws {
    let vault = try Vault.vault()
    let sessions: [VaultSession<AnyVaultStorage>] = [
      try await VaultSession.open(storage: AnyVaultStorage(InMemoryVaultStorage(bytes: vault.bytes)), key: Vault.key),
      try await VaultSession.open(storage: AnyVaultStorage(TaggedStorage(bytes: vault.bytes)), key: Vault.key),
    ]
    for session in sessions {
      try await session.update { $0.meta.databaseName = "Renamed" }
      #expect(try await session.save() == .saved)
      try await session.update { $0.meta.databaseName = "Twice" }
      #expect(try await session.save() == .saved)
      #expect(try await !session.checkForChangesOnDisk())
    }

    // A coordinated write through the wrapper is as safe as the wrapped storage's: another writer's save between
    // the session's read and its write is refused, and the policy then decides.
    let disk = Disk(vault.bytes)
    let session = try await VaultSession.open(storage: AnyVaultStorage(TaggedStorage(disk: disk)), key: Vault.key)
    var other = TaggedStorage(disk: disk)
    let (current, version) = try other.read()
    _ = try other.write(try Vault.otherDevice(current, renames: vault.beta, to: "Beta (B)"), replacing: version)
    try await session.update { $0.meta.databaseName = "Local" }
    await #expect(throws: VaultSessionError.changedOnDisk) { try await session.save() }
    #expect(await session.state == .changedOnDisk)
    guard case .merged = try await session.save(onConflict: .merge(.threeWay(now: Vault.mergeTime))) else {
      Issue.record("expected a merge")
      return
    }
    #expect(Vault.title(vault.beta, in: await session.database) == "Beta (B)")
    #expect(await session.database?.meta.databaseName == "Local")
  }

  @Test func aStaleVersionNumberWritesNothing() throws {
    var storage = AnyVaultStorage(TaggedStorage(bytes: [1, 2, 3]))
    let (_, version) = try storage.read()
    #expect(throws: VaultStorageError.changedSinceRead(location: "the vault file")) {
      try storage.write([9], replacing: version &+ 100)
    }
    #expect(try storage.read().bytes == [1, 2, 3])
    _ = try storage.write([4], replacing: version)
    #expect(try storage.read().bytes == [4])
  }

  @Test func progressArrivesInOrderAndBeforeTheCallReturns() async throws {
    let vault = try Vault.vault()
    let seen = Mutex<[Double]>([])
    let session = try await VaultSession.open(storage: InMemoryVaultStorage(bytes: vault.bytes), key: Vault.key) {
      fraction in seen.withLock { $0.append(fraction) }
    }
    let atReturn = seen.withLock { $0 }
    #expect(!atReturn.isEmpty)
    #expect(atReturn == atReturn.sorted())
    #expect(atReturn.last == 1)
    await Task.yield()
    #expect(seen.withLock { $0 } == atReturn)  // nothing arrives after the call returned
    _ = session
  }

  @Test func createWritesANewVaultAndRefusesAnExistingOne() async throws {
    var random = SplitMix64(seed: 5)
    let database = Database.new(name: "New", clock: Vault.clock, random: &random)
    let session = try await VaultSession.create(
      database, in: InMemoryVaultStorage(), key: Vault.key, settings: Vault.settings)
    #expect(await session.state == .unlocked)
    let bytes = try #require(await session.withStorage { $0.bytes })
    #expect(try await KDBXFile.open(bytes: bytes, key: Vault.key).database.meta.databaseName == "New")
    await #expect(throws: VaultSessionError.fileExists) {
      _ = try await VaultSession.create(
        database, in: InMemoryVaultStorage(bytes: bytes), key: Vault.key, settings: Vault.settings)
    }
  }
}
