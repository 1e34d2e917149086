import KDBXBase
import KDBXCrypto
import Testing
import VectorSupport

@testable import KDBX

/// ``CachedVaultKey``: the app's unlock hands out a key, the extension opens and saves with it without a KDF run
/// and without the KDF's memory, another app's save makes it stale with its own error, and the byte form refuses
/// what is not one (issue #35, item 1).
@Suite struct CachedVaultKeyTests {
  static let key = CompositeKey(password: "correct horse")
  static let clock = FixedClock(Timestamp(unixSeconds: 1_772_366_400))
  /// Argon2id with 2 MiB: a cheap derivation whose memory is still over the small budget below.
  static let argon = SaveSettings(
    version: .v4_1, cipher: .chaCha20,
    kdf: .argon2(
      Argon2KDFParameters(
        variant: .id, iterations: 1, memoryBytes: 2 << 20, parallelism: 1, salt: [UInt8](repeating: 3, count: 32))))
  static let aes3 = SaveSettings(
    version: .v3_1, cipher: .aes256, kdf: .aesKDF(AESKDFParameters(rounds: 300, seed: [UInt8](repeating: 5, count: 32)))
  )
  /// A budget smaller than the KDF's 2 MiB.
  static let tight = LoadOptions(availableMemoryBytes: 1 << 20)

  static func vault(_ settings: SaveSettings = argon) throws -> [UInt8] {
    var random = SplitMix64(seed: 7)
    var database = Database.new(name: "Home", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry.title = "Bank"
    database.addEntry(entry, to: try #require(database.root?.uuid))
    return try KDBXFile.saveBlocking(database, key: key, settings: settings)
  }

  static func titles(_ database: Database?) -> [String] {
    (database?.root?.entries ?? []).map(\.title).sorted()
  }

  @Test func anOpenHandsOutAKeyThatOpensWithoutTheKDFOrItsMemory() throws {
    let bytes = try Self.vault()
    #expect(throws: KDBXError.self) { try KDBXFile.openBlocking(bytes: bytes, key: Self.key, options: Self.tight) }
    let cached = try #require(try KDBXFile.openBlocking(bytes: bytes, key: Self.key).cachedKey)
    let restored = try CachedVaultKey(serialized: cached.serialized)
    let opened = try KDBXFile.open(bytes: bytes, cachedKey: restored, options: Self.tight)
    #expect(Self.titles(opened.database) == ["Bank"])
    // A transformed key given as a CompositeKey skips the budget too: no KDF runs.
    let raw = try CompositeKey(transformedKey: opened.transformedKey.bytes)
    #expect(Self.titles(try KDBXFile.openBlocking(bytes: bytes, key: raw, options: Self.tight).database) == ["Bank"])
  }

  @Test func aSessionOpenedWithTheCachedKeySavesAndTheKeyStaysValid() throws {
    let bytes = try Self.vault()
    let app = try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: bytes), key: Self.key)
    let cached = try #require(app.cachedKey)
    let options = VaultSessionOptions(load: Self.tight)
    let fromExtension = try SynchronousVaultSession(
      storage: InMemoryVaultStorage(bytes: bytes), cachedKey: cached, options: options)
    var random = SplitMix64(seed: 9)
    var added = Entry.new(clock: Self.clock, random: &random)
    added.title = "Mail"
    fromExtension.database?.addEntry(added, to: try #require(fromExtension.database?.root?.uuid))
    #expect(try fromExtension.save() == .saved)
    let saved = try #require(fromExtension.storage.bytes)
    #expect(try KDBXFile.readHeader(bytes: saved).header.kdf == cached.kdf)
    #expect(saved != bytes)
    // The same key opens the saved file, and so does the password.
    #expect(Self.titles(try KDBXFile.open(bytes: saved, cachedKey: cached).database) == ["Bank", "Mail"])
    #expect(Self.titles(try KDBXFile.openBlocking(bytes: saved, key: Self.key).database) == ["Bank", "Mail"])
    #expect(fromExtension.cachedKey?.kdf == cached.kdf)
  }

  @Test func anotherAppsSaveMakesTheKeyStaleNotWrong() throws {
    let bytes = try Self.vault()
    let cached = try #require(try KDBXFile.openBlocking(bytes: bytes, key: Self.key).cachedKey)
    // Another app saves: KeePass and KeePassXC draw a new seed on every save, as KDBXFile.save does.
    var settings = Self.argon
    if case .argon2(var argon) = settings.kdf {
      argon.salt = [UInt8](repeating: 4, count: 32)
      settings.kdf = .argon2(argon)
    }
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: Self.key)
    let resaved = try KDBXFile.saveBlocking(opened.database, key: Self.key, settings: settings)
    #expect(throws: KDBXError.cachedKeyIsStale) { try KDBXFile.open(bytes: resaved, cachedKey: cached) }
    #expect(throws: VaultSessionError.kdbx(.cachedKeyIsStale)) {
      try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: resaved), cachedKey: cached)
    }
    // A session opened with the key, asked to merge the other app's save: stale, and nothing is written.
    let session = try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: bytes), cachedKey: cached)
    session.storage = InMemoryVaultStorage(bytes: resaved)
    #expect(throws: VaultSessionError.kdbx(.cachedKeyIsStale)) {
      try session.save(onConflict: .merge(.threeWay(now: Self.clock.time)))
    }
    #expect(session.storage.bytes == resaved)
    // A key for another vault is refused the same way, before anything is decrypted.
    let other = try Self.vault(Self.aes3)
    #expect(throws: KDBXError.cachedKeyIsStale) { try KDBXFile.open(bytes: other, cachedKey: cached) }
  }

  @Test func aPasswordSessionHandsOutTheNewKeyAfterAReloadOfAnotherAppsSave() throws {
    let bytes = try Self.vault()
    let session = try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: bytes), key: Self.key)
    let before = try #require(session.cachedKey)
    // Another app rewrites the file with a fresh seed.
    let resaved = try KDBXFile.saveBlocking(
      try KDBXFile.openBlocking(bytes: bytes, key: Self.key).database, key: Self.key, settings: Self.argon)
    let writtenKDF = try KDBXFile.readHeader(bytes: resaved).header.kdf
    #expect(writtenKDF != before.kdf)
    session.storage = InMemoryVaultStorage(bytes: resaved)
    try session.reload()
    let after = try #require(session.cachedKey)
    #expect(after.kdf == writtenKDF)
    #expect(Self.titles(try KDBXFile.open(bytes: resaved, cachedKey: after).database) == ["Bank"])
    session.lock()
    #expect(session.cachedKey == nil)
    #expect(throws: VaultSessionError.locked) { try session.save() }
  }

  @Test func kdbx3FilesCacheTheirTransformSeedToo() throws {
    let bytes = try Self.vault(Self.aes3)
    let cached = try #require(try KDBXFile.openBlocking(bytes: bytes, key: Self.key).cachedKey)
    #expect(!cached.isKDBX4)
    let restored = try CachedVaultKey(serialized: cached.serialized)
    #expect(restored.kdf == cached.kdf && !restored.isKDBX4)
    let session = try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: bytes), cachedKey: restored)
    #expect(try session.save() == .saved)
    let saved = try #require(session.storage.bytes)
    #expect(try KDBXFile.readHeader(bytes: saved).header.version.isKDBX4 == false)
    #expect(Self.titles(try KDBXFile.openBlocking(bytes: saved, key: Self.key).database) == ["Bank"])
    // The key of a KDBX 4 file does not pass for a KDBX 3 one.
    let four = try #require(try KDBXFile.openBlocking(bytes: try Self.vault(), key: Self.key).cachedKey)
    #expect(throws: KDBXError.cachedKeyIsStale) { try KDBXFile.open(bytes: bytes, cachedKey: four) }
  }

  @Test func theByteFormRefusesWhatIsNotACachedKey() throws {
    let cached = try #require(try KDBXFile.openBlocking(bytes: try Self.vault(), key: Self.key).cachedKey)
    let good = cached.serialized
    func reason(_ bytes: [UInt8]) -> String? {
      do {
        _ = try CachedVaultKey(serialized: bytes)
        return nil
      } catch {
        guard case .invalidCachedKey(let reason) = error else { return "other: \(error)" }
        return reason
      }
    }
    #expect(reason(good) == nil)
    #expect(reason([]) == "not a cached vault key (no KDBXCK signature)")
    #expect(reason(Array("KeePass".utf8) + good) == "not a cached vault key (no KDBXCK signature)")
    var later = good
    later[6] = 2
    #expect(reason(later) == "cached key format version 2 is not read here")
    for length in [7, 12, 40, good.count - 1] {
      #expect(reason(Array(good.prefix(length)))?.hasPrefix("truncated") == true, "\(length)")
    }
    #expect(reason(good + [0]) == "1 bytes too many")
    for index in [8, 20, good.count - 20, good.count - 1] {
      var damaged = good
      damaged[index] ^= 0x40
      #expect(reason(damaged) != nil, "\(index)")
    }
    var flipped = good
    flipped[good.count - 12] ^= 1  // inside the key: only the checksum can tell
    #expect(reason(flipped) == "damaged (checksum mismatch)")
    // The description never shows the key.
    #expect(!cached.description.contains(Hex.encode(cached.secret.bytes)))
  }
}

extension CachedVaultKeyTests {
  /// The bug of issue #35: a session opened with `CompositeKey(transformedKey:)` opened, then every save threw
  /// "wrong password or key file".
  @Test func aSessionOpenedWithARawTransformedKeySaves() async throws {
    let bytes = try Self.vault()
    let transformed = try await KDBXFile.open(bytes: bytes, key: Self.key).transformedKey.bytes
    let key = try CompositeKey(transformedKey: transformed)
    let sync = try SynchronousVaultSession(
      storage: InMemoryVaultStorage(bytes: bytes), key: key, options: VaultSessionOptions(load: Self.tight))
    #expect(try sync.save(onConflict: .overwrite) == .saved)
    let session = try await VaultSession.open(
      storage: InMemoryVaultStorage(bytes: bytes), key: key, options: VaultSessionOptions(load: Self.tight))
    try await session.update { $0.meta.databaseName = "Renamed" }
    #expect(try await session.save() == .saved)
    let stored = await session.withStorage { $0.bytes }
    let saved = try #require(stored)
    let reopened = try await KDBXFile.open(bytes: saved, key: Self.key)
    #expect(reopened.database.meta.databaseName == "Renamed")
  }

  @Test func anAsyncSessionSendsTheNewCachedKeyAfterAReload() async throws {
    let bytes = try Self.vault()
    let session = try await VaultSession.open(storage: InMemoryVaultStorage(bytes: bytes), key: Self.key)
    var updates = await session.cachedKeyUpdates().makeAsyncIterator()
    let firstUpdate = await updates.next()
    let first = try #require(firstUpdate ?? nil)
    let database = try await KDBXFile.open(bytes: bytes, key: Self.key).database
    let resaved = try await KDBXFile.save(database, key: Self.key, settings: Self.argon)
    await session.withStorage { $0 = InMemoryVaultStorage(bytes: resaved) }
    try await session.reload()
    let secondUpdate = await updates.next()
    let second = try #require(secondUpdate ?? nil)
    #expect(second.kdf != first.kdf)
    #expect(second.kdf == (try KDBXFile.readHeader(bytes: resaved).header.kdf))
    await session.lock()
    let last = await updates.next()
    #expect(last != nil && last?.flatMap { $0 } == nil)
  }
}
