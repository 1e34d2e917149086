import Testing

@testable import KDBX

/// ``VaultStorage/write(_:replacing:)``: the conflict check and the replacement are one step, so another writer that
/// saves between a session's check and its write is never overwritten.
@Suite struct CoordinatedWriteTests {
  typealias Vault = VaultSessionTests

  /// A storage where another device saves `intruder` just before the session's next write reaches the storage:
  /// after the session compared the file on disk with the version it read, before the replacement.
  struct SlippingStorage: VaultStorage {
    var inner: InMemoryVaultStorage
    var intruder: [UInt8]?

    mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) { try inner.read() }

    mutating func write(_ bytes: [UInt8], replacing expected: UInt64?) throws(VaultStorageError) -> UInt64 {
      if let intruder {
        self.intruder = nil
        inner.bytes = intruder
      }
      return try inner.write(bytes, replacing: expected)
    }
  }

  @Test func inMemoryStorageReplacesOnlyTheVersionItWasGiven() throws {
    var storage = InMemoryVaultStorage()
    #expect(throws: VaultStorageError.notFound(location: "memory")) { _ = try storage.read() }
    let first = try storage.write([1], replacing: nil)
    #expect(throws: VaultStorageError.changedSinceRead(location: "memory")) {
      _ = try storage.write([2], replacing: nil)  // a file appeared
    }
    storage.bytes = [3]  // another device
    #expect(throws: VaultStorageError.changedSinceRead(location: "memory")) {
      _ = try storage.write([4], replacing: first)
    }
    #expect(storage.bytes == [3])
    let (bytes, version) = try storage.read()
    #expect(bytes == [3])
    _ = try storage.write([5], replacing: version)
    #expect(storage.bytes == [5])
    #expect(storage.writeCount == 2)
  }

  @Test func aWriterSlippingInAfterTheCheckIsNotOverwritten() throws {
    let vault = try Vault.vault()
    let theirs = try Vault.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    let session = try SynchronousVaultSession(
      storage: SlippingStorage(inner: InMemoryVaultStorage(bytes: vault.bytes), intruder: theirs), key: Vault.key)
    session.database?.editEntry(vault.alpha, clock: Vault.later) { $0[field: Entry.titleField] = .plain("Alpha 2") }
    #expect(throws: VaultSessionError.changedOnDisk) { try session.save() }
    #expect(session.storage.inner.bytes.map { $0 == theirs } == true, "the intruder's save survives")
    #expect(session.hasUnsavedChanges)
  }

  @Test func aMergeThatLosesTheRaceMergesTheNewestVersion() throws {
    let vault = try Vault.vault()
    let theirs = try Vault.otherDevice(vault.bytes, renames: vault.beta, to: "Beta (B)")
    let session = try SynchronousVaultSession(
      storage: SlippingStorage(inner: InMemoryVaultStorage(bytes: vault.bytes), intruder: theirs), key: Vault.key)
    session.database?.editEntry(vault.alpha, clock: Vault.later) { $0[field: Entry.titleField] = .plain("Alpha 2") }
    // The first attempt finds the file unchanged and writes; the intruder got there first, so the save reads again
    // and merges with the intruder's version.
    guard case .merged = try session.save(onConflict: .merge(.threeWay(now: Vault.mergeTime))) else {
      Issue.record("expected a merge")
      return
    }
    let disk = try Vault.session(try #require(session.storage.inner.bytes)).database
    #expect(Vault.title(vault.alpha, in: disk) == "Alpha 2")
    #expect(Vault.title(vault.beta, in: disk) == "Beta (B)")
  }
}
