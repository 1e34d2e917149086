import Testing
import VectorSupport

@testable import KDBX

/// ``VaultSession``, the actor: async open, unlock, save and lock, the observable state, and cancellation.
@Suite struct AsyncVaultSessionTests {
  typealias Vault = VaultSessionTests

  @Test func openSaveLockUnlockAndTheStatesAnObserverSees() async throws {
    let vault = try Vault.vault()
    let session = try await VaultSession.open(storage: InMemoryVaultStorage(bytes: vault.bytes), key: Vault.key)
    #expect(await session.state == .unlocked)
    var updates = await session.stateUpdates().makeAsyncIterator()
    #expect(await updates.next() == .unlocked)  // the current state first

    let renamed = try await session.update { database in
      database.editEntry(vault.alpha, clock: Vault.later) { $0[field: Entry.titleField] = .plain("Alpha 2") }
    }
    #expect(renamed)
    #expect(await session.hasUnsavedChanges)
    #expect(try await session.save() == .saved)
    #expect(await updates.next() == .saving)
    #expect(await updates.next() == .unlocked)
    #expect(await !session.hasUnsavedChanges)

    // Another device saves: the check and the save say so, a merge resolves it.
    let saved = try #require(await session.withStorage { $0.bytes })
    let theirs = try Vault.otherDevice(saved, renames: vault.beta, to: "Beta (B)")
    await session.withStorage { $0.bytes = theirs }
    #expect(try await session.checkForChangesOnDisk())
    #expect(await updates.next() == .changedOnDisk)
    await #expect(throws: VaultSessionError.changedOnDisk) { try await session.save() }
    #expect(await updates.next() == .saving)
    #expect(await updates.next() == .changedOnDisk)
    guard case .merged = try await session.save(onConflict: .merge(.threeWay(now: Vault.mergeTime))) else {
      Issue.record("expected a merge")
      return
    }
    #expect(await updates.next() == .saving)
    #expect(await updates.next() == .unlocked)
    #expect(Vault.title(vault.alpha, in: await session.database) == "Alpha 2")
    #expect(Vault.title(vault.beta, in: await session.database) == "Beta (B)")

    await session.lock()
    #expect(await updates.next() == .locked)
    #expect(await session.database == nil)
    await #expect(throws: VaultSessionError.locked) { try await session.save() }
    await #expect(throws: VaultSessionError.kdbx(.invalidCredentials)) {
      try await session.unlock(key: CompositeKey(password: "wrong"))
    }
    #expect(await updates.next() == .unlocking)
    #expect(await updates.next() == .locked)
    try await session.unlock(key: Vault.key)
    #expect(await updates.next() == .unlocking)
    #expect(await updates.next() == .unlocked)
    #expect(Vault.title(vault.beta, in: await session.database) == "Beta (B)")
  }

  @Test func aCancelledUnlockStaysLockedWithTheFlatCancellation() async throws {
    // Argon2 with enough slices that the cancellation lands before the end.
    var random = SplitMix64(seed: 5)
    let database = Database.new(name: "Slow", clock: Vault.clock, random: &random)
    let settings = SaveSettings(
      version: .v4_0, cipher: .chaCha20,
      kdf: .argon2(
        Argon2KDFParameters(
          variant: .id, iterations: 8, memoryBytes: 1 << 20, parallelism: 2, salt: [UInt8](repeating: 1, count: 32))))
    let bytes = try await KDBXFile.save(database, key: Vault.key, settings: settings)
    let session = try await VaultSession.open(storage: InMemoryVaultStorage(bytes: bytes), key: Vault.key)
    await session.lock()
    let unlock = Task { try await session.unlock(key: Vault.key) }
    unlock.cancel()
    await #expect(throws: VaultSessionError.kdbx(.cancelled)) { try await unlock.value }
    #expect(await session.state == .locked)
    #expect(await session.database == nil)
  }
}
