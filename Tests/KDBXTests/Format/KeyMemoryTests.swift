@_spi(Testing) import KDBXCrypto
import Testing
import VectorSupport

@testable import KDBX

/// The key material of `CompositeKey` and the key schedule lives in `SecureBytes` (zeroed on release), and the
/// `SecureBytes` forms of the key schedule give the same keys as the `[UInt8]` forms. Every transformed key the
/// library holds (an opened database's, a saved file's, a session's) is that storage itself, zeroed when its owner
/// is released or the session locked: the tests read the released storage through `SecureBytes`' testing hook.
@Suite struct KeyMemoryTests {
  @Test func passwordComponentIsHeldInSecureBytes() throws {
    let key = CompositeKey(password: "fixture")
    guard case .components(let components, let response) = key.storage else {
      Issue.record("a password key has components")
      return
    }
    #expect(response == nil)
    #expect(components.count == 1)
    // SHA-256("fixture"), from Python's hashlib.
    #expect(
      components.first?.bytes == TestHex.bytes("f16d05ec6b29248d2c61adb1e9263f78e4f7bace1b955014a2d17872cfe4064d"))
  }

  @Test func transformedKeyIsHeldInSecureBytesAndNotCopiedByTheSchedule() throws {
    let raw = [UInt8](repeating: 0x42, count: 32)
    let key = try CompositeKey(transformedKey: raw)
    let secret = try #require(key.transformedSecret)
    #expect(secret.bytes == raw)
    #expect(key.transformedKey == raw)
    let header = OuterHeader(
      version: .v4_1, cipher: .aes256, compression: .gzip, masterSeed: [UInt8](repeating: 1, count: 32),
      encryptionIV: [UInt8](repeating: 2, count: 16),
      kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [UInt8](repeating: 3, count: 32))))
    let scheduled = try KDBXFile.transformedKey(key, header: header, primitives: StandardPrimitives())
    #expect(scheduled === secret)
  }

  @Test func secureKeyScheduleMatchesArrayForm() throws {
    let seed = (0..<32).map { UInt8($0) }
    let transformed = (0..<32).map { UInt8(255 - $0) }
    let secret = SecureBytes(transformed)
    let key = CompositeKey(password: "pw", challengeResponse: [1, 2, 3])
    #expect(
      key.kdbx3MasterKey(masterSeed: seed, transformedKey: secret)
        == key.kdbx3MasterKey(
          masterSeed: seed, transformedKey: transformed))
    #expect(
      CompositeKey.kdbx4CipherKey(masterSeed: seed, transformedKey: secret)
        == CompositeKey.kdbx4CipherKey(
          masterSeed: seed, transformedKey: transformed))
    #expect(
      CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: seed, transformedKey: secret) == seed + transformed + [0x01])
  }

  @Test func derivedKeyFromTheKDFIsHeldInSecureBytes() throws {
    let header = OuterHeader(
      version: .v3_1, cipher: .aes256, compression: .gzip, masterSeed: [UInt8](repeating: 1, count: 32),
      encryptionIV: [UInt8](repeating: 2, count: 16),
      kdf: .aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 3, count: 32))))
    let key = CompositeKey(password: "fixture")
    let transformed = try KDBXFile.transformedKey(key, header: header, primitives: StandardPrimitives())
    #expect(transformed.count == 32)
    let composite = try #require(key.compositeKey(for: .v3_1))
    let expected = try StandardPrimitives().transformKey(
      composite, parameters: .aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 3, count: 32))))
    #expect(transformed.bytes == expected)
  }

  /// What a `SecureBytes` made by ``observed(_:_:)`` hands over on release: its allocation, zeroed, which the
  /// test reads and then frees (single-threaded use within one test).
  final class ReleasedKey: @unchecked Sendable {
    var buffer: UnsafeMutableRawBufferPointer?
    deinit { buffer?.deallocate() }
    /// Whether the storage was released.
    var isReleased: Bool { buffer != nil }
    /// Whether the storage was released with every byte zero.
    var isReleasedZeroed: Bool { buffer.map { $0.allSatisfy { $0 == 0 } } ?? false }
  }

  /// A transformed key whose storage reports its release to `record` instead of being freed.
  static func observed(_ bytes: [UInt8], _ record: ReleasedKey) -> SecureBytes {
    SecureBytes(bytes, releaseObserver: { record.buffer = $0 })
  }

  /// A small KDBX 4 vault (AES-KDF, 200 rounds) with its password key and its transformed key.
  static func vault() throws -> (bytes: [UInt8], transformed: [UInt8], kdf: KDFParameters) {
    let bytes = try VaultSessionTests.vault().bytes
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: VaultSessionTests.key)
    return (bytes, opened.transformedKey.bytes, opened.header.kdf)
  }

  /// Opens `bytes` with a transformed key observed by `record`; the key is released on return.
  @inline(never)
  static func open(_ bytes: [UInt8], transformed: [UInt8], _ record: ReleasedKey) throws -> OpenedDatabase {
    try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(transformedSecret: observed(transformed, record)))
  }

  @Test func anOpenedDatabaseHoldsItsTransformedKeyAndZeroesItOnRelease() throws {
    let vault = try Self.vault()
    let record = ReleasedKey()
    var opened: OpenedDatabase? = try Self.open(vault.bytes, transformed: vault.transformed, record)
    #expect(!record.isReleased, "the opened database holds the key's own storage, not a copy")
    #expect(opened?.cachedKey?.secret.bytes == vault.transformed)
    opened = nil
    #expect(record.isReleasedZeroed, "released with the opened database, zeroed")
  }

  /// Writes the vault's database with a transformed key observed by `record`; the key is released on return.
  @inline(never)
  static func write(_ vault: (bytes: [UInt8], transformed: [UInt8], kdf: KDFParameters), _ record: ReleasedKey)
    throws -> SavedFile
  {
    let opened = try KDBXFile.openBlocking(bytes: vault.bytes, key: VaultSessionTests.key)
    var random = SplitMix64(seed: 3)
    return try KDBXFile.write(
      opened.database, key: CompositeKey(transformedSecret: observed(vault.transformed, record)),
      settings: SaveSettings(keeping: opened), primitives: StandardPrimitives(), random: &random)
  }

  @Test func aSavedFileHoldsItsTransformedKeyAndZeroesItOnRelease() throws {
    let vault = try Self.vault()
    let record = ReleasedKey()
    var saved: SavedFile? = try Self.write(vault, record)
    #expect(!record.isReleased, "the saved file holds the key's own storage, not a copy")
    let reopened = try KDBXFile.openBlocking(bytes: try #require(saved?.bytes), key: VaultSessionTests.key)
    #expect(reopened.transformedKey.bytes == vault.transformed)
    saved = nil
    #expect(record.isReleasedZeroed, "released with the saved file, zeroed")
  }

  /// A session opened with a cached key observed by `record`; the test's references are released on return.
  @inline(never)
  static func session(_ vault: (bytes: [UInt8], transformed: [UInt8], kdf: KDFParameters), _ record: ReleasedKey)
    throws -> SynchronousVaultSession<InMemoryVaultStorage>
  {
    let cached = CachedVaultKey(secret: observed(vault.transformed, record), kdf: vault.kdf, isKDBX4: true)
    return try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: vault.bytes), cachedKey: cached)
  }

  @Test func lockZeroesTheSessionsTransformedKeyEvenWhileItsMaterialIsHeld() throws {
    let vault = try Self.vault()
    let record = ReleasedKey()
    let session = try Self.session(vault, record)
    #expect(!record.isReleased, "the session holds the key's own storage, not a copy")
    #expect(try session.save() == .saved)
    #expect(!record.isReleased, "a save with the cached key keeps it")
    // An open or save still running holds the material (VaultSession's awaits do): the lock must not wait for it.
    let material = try #require(session.keyMaterial)
    session.lock()
    #expect(record.isReleasedZeroed, "the lock released the key's storage, zeroed")
    #expect(material.isWiped)
    #expect(material.transformedKey == nil)
  }

  @Test func releasingAnUnlockedSessionZeroesItsTransformedKey() throws {
    let vault = try Self.vault()
    let record = ReleasedKey()
    var session: SynchronousVaultSession<InMemoryVaultStorage>? = try Self.session(vault, record)
    #expect(!record.isReleased)
    #expect(session?.isLocked == false)
    session = nil
    #expect(record.isReleasedZeroed, "released with the session, zeroed")
  }

  /// The actor session opened with a cached key observed by `record`.
  @inline(never)
  static func asyncSession(
    _ vault: (bytes: [UInt8], transformed: [UInt8], kdf: KDFParameters), _ record: ReleasedKey
  ) async throws -> VaultSession<InMemoryVaultStorage> {
    let cached = CachedVaultKey(secret: observed(vault.transformed, record), kdf: vault.kdf, isKDBX4: true)
    return try await VaultSession.open(storage: InMemoryVaultStorage(bytes: vault.bytes), cachedKey: cached)
  }

  @Test func lockZeroesTheActorSessionsTransformedKey() async throws {
    let vault = try Self.vault()
    let record = ReleasedKey()
    let session = try await Self.asyncSession(vault, record)
    #expect(!record.isReleased, "the session holds the key's own storage, not a copy")
    await session.lock()
    #expect(record.isReleasedZeroed, "the lock released the key's storage, zeroed")
  }

  /// A session opened with the password keeps the storage the open derived the key into, and the lock releases it
  /// (`SecureBytes` zeroes on release, as the tests above read).
  @Test func lockReleasesTheKeyASessionDerived() throws {
    let vault = try Self.vault()
    let session = try VaultSessionTests.session(vault.bytes)
    let material = try #require(session.keyMaterial)
    weak let derived = material.transformedKey
    #expect(derived?.bytes == vault.transformed)
    session.lock()
    #expect(derived == nil, "the lock released the derived key's storage")
  }
}
