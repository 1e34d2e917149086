import KDBX
import KDBXXML
import Testing
import VectorSupport

/// The container pipeline end to end with ``FakePrimitives``: what is written opens again, a wrong key is
/// `invalidCredentials`, damage is reported where it is, and saves are reproducible.
@Suite struct KDBXFileTests {
  static func database() throws -> Database {
    var stream = CountingStream()
    var random = SplitMix64(seed: 21)
    return try DatabaseXMLReader.read(
      document: DatabaseXMLTests.document(), binaries: [.init(isProtected: true, data: Array("hello world!\n".utf8))],
      stream: &stream, random: &random, gzip: NoGzipDecompressor())
  }

  static let argon = KDFParameters.argon2(
    Argon2KDFParameters(
      variant: .id, iterations: 2, memoryBytes: 1 << 20, parallelism: 2, salt: [UInt8](repeating: 0, count: 32)))
  static let aes = KDFParameters.aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 0, count: 32)))

  static let settings: [SaveSettings] = [
    SaveSettings(version: .v3_1, cipher: .aes256, kdf: aes, compression: .gzip),
    SaveSettings(version: .v3_1, cipher: .chaCha20, kdf: aes, compression: .none),
    SaveSettings(version: .v4_0, cipher: .twofish, kdf: argon, compression: .gzip),
    SaveSettings(version: .v4_1, cipher: .chaCha20, kdf: aes, compression: .none),
  ]

  @Test(arguments: settings) func saveThenOpen(_ settings: SaveSettings) throws {
    let database = try Self.database()
    let key = CompositeKey(password: "pässword")
    var random = SplitMix64(seed: 5)
    let file = try KDBXFile.save(database, key: key, settings: settings, primitives: FakePrimitives(), random: &random)
    // The sample content has 4.1 features, so every save is raised to 4.1 (no accepted downgrade).
    #expect(try KDBXFile.readVersion(bytes: file) == .v4_1)
    var openRandom = SplitMix64(seed: 6)
    let opened = try KDBXFile.open(bytes: file, key: key, primitives: FakePrimitives(), random: &openRandom)
    #expect(opened.header.cipher == settings.cipher)
    let entry = try #require(opened.database.root?.entries.first)
    #expect(entry[field: "Password"]?.reveal() == "s3cr3t!")
    #expect(entry.history?.first?[field: "Password"]?.reveal() == "old")
    #expect(opened.database.binaries[0] == BinaryPool.Binary(data: Array("hello world!\n".utf8), isProtected: true))
    #expect(opened.database.root?.groups.first?.name == "Sub")

    // A wrong password is invalidCredentials, never a parse error.
    var wrongRandom = SplitMix64(seed: 7)
    #expect(throws: KDBXError.invalidCredentials) {
      try KDBXFile.open(
        bytes: file, key: CompositeKey(password: "password"), primitives: FakePrimitives(), random: &wrongRandom)
    }
    // The cached transformed key opens without running the KDF.
    let cached = CompositeKey(transformedSecret: opened.transformedKey)
    let primitives = FakePrimitives()
    _ = try KDBXFile.open(bytes: file, key: cached, primitives: primitives, random: &wrongRandom)
    #expect(primitives.kdfCalls.value == 0)
  }

  @Test func savesAreReproducible() throws {
    let database = try Self.database()
    let key = CompositeKey(password: "x")
    var first = SplitMix64(seed: 8)
    var second = SplitMix64(seed: 8)
    let a = try KDBXFile.save(
      database, key: key, settings: Self.settings[2], primitives: FakePrimitives(), random: &first)
    let b = try KDBXFile.save(
      database, key: key, settings: Self.settings[2], primitives: FakePrimitives(), random: &second)
    #expect(a == b)
    var third = SplitMix64(seed: 9)
    let c = try KDBXFile.save(
      database, key: key, settings: Self.settings[2], primitives: FakePrimitives(), random: &third)
    #expect(a != c)
  }

  @Test(arguments: [0, 2]) func damageIsLocated(_ settingsIndex: Int) throws {
    var settings = Self.settings[settingsIndex]
    let database = try Self.database()
    settings.acceptedDowngrade = DowngradeReport(database: database, settings: settings, target: settings.version)
    let key = CompositeKey(password: "x")
    var random = SplitMix64(seed: 10)
    let file = try KDBXFile.save(database, key: key, settings: settings, primitives: FakePrimitives(), random: &random)
    #expect(try KDBXFile.readVersion(bytes: file) == settings.version)
    let header = try KDBXFile.readHeader(bytes: file)
    // Flipping any byte, truncating anywhere: a typed error or (for bytes the format does not cover) success, never a trap.
    for index in stride(from: 0, to: file.count, by: 7) {
      var damaged = file
      damaged[index] ^= 0x5A
      var openRandom = SplitMix64(seed: 11)
      _ = try? KDBXFile.open(bytes: damaged, key: key, primitives: FakePrimitives(), random: &openRandom)
      _ = try? KDBXFile.open(bytes: Array(file[0..<index]), key: key, primitives: FakePrimitives(), random: &openRandom)
    }
    var openRandom = SplitMix64(seed: 12)
    if settings.version.isKDBX4 {
      // Header bytes are covered by the SHA-256; the first block by its HMAC.
      var damagedHeader = file
      damagedHeader[20] ^= 1
      #expect(throws: KDBXError.self) {
        try KDBXFile.open(bytes: damagedHeader, key: key, primitives: FakePrimitives(), random: &openRandom)
      }
      var damagedBlock = file
      damagedBlock[header.payloadOffset + 40] ^= 1
      #expect(throws: KDBXError.corruptedBlock(index: 0)) {
        try KDBXFile.open(bytes: damagedBlock, key: key, primitives: FakePrimitives(), random: &openRandom)
      }
    } else {
      // KDBX 3.1: a changed header field that the key does not cover is caught by Meta/HeaderHash.
      var damaged = file
      let comment = OuterHeader.Field(id: 1, data: [1])
      var changedHeader = header.header
      changedHeader.comment = comment.data
      damaged = try changedHeader.serialized() + Array(file[header.payloadOffset...])
      #expect(throws: KDBXError.headerHashMismatch) {
        try KDBXFile.open(bytes: damaged, key: key, primitives: FakePrimitives(), random: &openRandom)
      }
    }
  }
}
