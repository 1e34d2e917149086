import KDBX
import Testing
import VectorSupport

@Suite struct OuterHeaderTests {
  static func sampleHeader(_ version: KDBXVersion, cipher: CipherAlgorithm = .aes256) -> OuterHeader {
    var rng = SplitMix64(seed: 1)
    if version.isKDBX4 {
      var custom = VariantDictionary()
      custom["plugin"] = .string("x")
      return OuterHeader(
        version: version, cipher: cipher, compression: .gzip, masterSeed: rng.bytes(32),
        encryptionIV: rng.bytes(cipher.ivByteCount),
        kdf: .argon2(
          Argon2KDFParameters(variant: .d, iterations: 2, memoryBytes: 1 << 20, parallelism: 1, salt: rng.bytes(32))),
        publicCustomData: custom)
    }
    return OuterHeader(
      version: version, cipher: cipher, compression: .none, masterSeed: rng.bytes(32),
      encryptionIV: rng.bytes(cipher.ivByteCount), kdf: .aesKDF(AESKDFParameters(rounds: 6_000, seed: rng.bytes(32))),
      protectedStreamKey: rng.bytes(32), streamStartBytes: rng.bytes(32), innerRandomStream: .salsa20)
  }

  @Test(arguments: [KDBXVersion.v3_1, .v4_0, .v4_1]) func serializeParseRoundTrip(_ version: KDBXVersion) throws {
    let header = Self.sampleHeader(version, cipher: version == .v4_1 ? .chaCha20 : .twofish)
    let bytes = try header.serialized()
    let parsed = try OuterHeader(parsing: bytes + [0xAA, 0xBB])
    #expect(parsed.rawBytes == bytes)
    #expect(try parsed.serialized() == bytes)
    var comparable = parsed
    comparable = header
    #expect(parsed.masterSeed == comparable.masterSeed)
    #expect(parsed.kdf == header.kdf)
    #expect(parsed.cipher == header.cipher)
    #expect(parsed.publicCustomData == header.publicCustomData)
    #expect(try KDBXFile.readVersion(bytes: bytes) == version)
  }

  @Test(arguments: [KDBXVersion.v3_1, .v4_0]) func everyTruncationThrows(_ version: KDBXVersion) throws {
    let bytes = try Self.sampleHeader(version).serialized()
    for length in 0..<bytes.count {
      #expect(throws: KDBXError.self) { try OuterHeader(parsing: Array(bytes[0..<length])) }
    }
  }

  @Test func signaturesAndVersions() throws {
    let kdb1: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x65, 0xFB, 0x4B, 0xB5, 0, 0, 0, 0]
    #expect(throws: KDBXError.unsupportedKDB1) { try KDBXFile.readVersion(bytes: kdb1) }
    let pre: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x66, 0xFB, 0x4B, 0xB5, 0, 0, 2, 0]
    #expect(throws: KDBXError.unsupportedPreReleaseFormat) { try KDBXFile.readVersion(bytes: pre) }
    let v42: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5, 0, 0, 42, 0]
    #expect(throws: KDBXError.unsupportedVersion(major: 42, minor: 0)) { try KDBXFile.readVersion(bytes: v42) }
    let v2: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5, 4, 0, 2, 0]
    #expect(try KDBXFile.readVersion(bytes: v2) == .v2)
    #expect(throws: KDBXError.notKeePassFile) { try KDBXFile.readVersion(bytes: Array("PK\u{3}\u{4}0000abcd".utf8)) }
  }

  @Test func fieldValidation() throws {
    var wrongIV = Self.sampleHeader(.v4_0, cipher: .chaCha20)
    wrongIV.encryptionIV = [UInt8](repeating: 0, count: 16)
    #expect(
      throws: KDBXError.malformedHeader(field: "EncryptionIV", reason: "must be 12 bytes for this cipher, got 16")
    ) {
      try OuterHeader(parsing: try wrongIV.serialized())
    }
    var shortSeed = Self.sampleHeader(.v3_1)
    shortSeed.masterSeed = [1, 2, 3]
    #expect(throws: KDBXError.malformedHeader(field: "MasterSeed", reason: "must be 32 bytes, got 3")) {
      try OuterHeader(parsing: try shortSeed.serialized())
    }
    var bytes = try Self.sampleHeader(.v3_1).serialized()
    bytes[15] ^= 0xFF  // first byte of the cipher UUID (field 2 starts at 12: id, 2-byte length)
    #expect(throws: KDBXError.unsupportedCipher(uuid: "cec1f2e6-bf71-4350-be58-05216afc5aff")) {
      try OuterHeader(parsing: bytes)
    }
    var limits = LoadOptions()
    limits.maxAESKDFRounds = 10
    #expect(throws: KDBXError.limitExceeded(what: "AES-KDF rounds", value: 6_000, limit: 10)) {
      try OuterHeader(parsing: try Self.sampleHeader(.v3_1).serialized(), options: limits)
    }
  }

  @Test func kdbx4ChecksumIsVerified() throws {
    let header = try Self.sampleHeader(.v4_0).serialized()
    let hash = SHA256Helper.hash(header)
    let file = header + hash + [UInt8](repeating: 9, count: 32) + [1, 2, 3]
    let block = try KDBXFile.readHeader(bytes: file)
    #expect(block.storedHeaderHMAC == [UInt8](repeating: 9, count: 32))
    #expect(block.payloadOffset == header.count + 64)
    var corrupted = file
    corrupted[header.count] ^= 1
    #expect(throws: KDBXError.headerChecksumMismatch) { try KDBXFile.readHeader(bytes: corrupted) }
  }

  @Test(.enabled(if: Corpus.isAvailable), arguments: Vectors.records("kdbx/corpus-headers.vec"))
  func corpusHeaders(_ record: VectorRecord) throws {
    let bytes = try #require(Corpus.file(record.string("file")))
    let block = try KDBXFile.readHeader(bytes: bytes)
    let header = block.header
    #expect(Int(header.version.major) == record.int("major"))
    #expect(Int(header.minorVersion) == record.int("minor"))
    #expect(header.rawBytes.count == record.int("header_length"))
    #expect(header.masterSeed == record.bytes("master_seed"))
    #expect(header.encryptionIV == record.bytes("iv"))
    #expect(Int(header.compression.rawValue) == record.int("compression"))
    let ciphers: [String: CipherAlgorithm] = ["aes256": .aes256, "twofish": .twofish, "chacha20": .chaCha20]
    #expect(header.cipher == ciphers[record.string("cipher")])
    let kdfs: [String: KDFAlgorithm] = [
      "aesKDBX3": .aesKDBX3, "aesKDBX4": .aesKDBX4, "argon2d": .argon2d, "argon2id": .argon2id,
    ]
    #expect(header.kdf.algorithm == kdfs[record.string("kdf")])
    #expect(header.kdf.seed == record.bytes("seed"))
    switch header.kdf {
    case .aesKDF(let aes): #expect(Int(aes.rounds) == record.int("rounds"))
    case .argon2(let argon):
      #expect(Int(argon.iterations) == record.int("iterations"))
      #expect(Int(argon.memoryBytes) == record.int("memory"))
      #expect(Int(argon.parallelism) == record.int("parallelism"))
      #expect(Int(argon.version) == record.int("argon2_version"))
    }
    if header.version.isKDBX4 {
      #expect(header.challenge == header.kdf.seed)
    } else {
      #expect(Int(header.innerRandomStream?.rawValue ?? 99) == record.int("inner_stream"))
      #expect(header.challenge == header.masterSeed)
    }
    // The header written back from the parsed fields is byte-identical for files written by KeePass-like writers
    // that put fields in KeePass's order; at minimum it must parse to the same values.
    let reparsed = try OuterHeader(parsing: try header.serialized())
    #expect(reparsed.kdf == header.kdf && reparsed.masterSeed == header.masterSeed)
  }

  @Test(.enabled(if: Corpus.isAvailable)) func corpusNegativeFiles() throws {
    let cases: [(String, KDBXError)] = [
      ("keepass-rs/broken_kdbx_version.kdbx", .unsupportedVersion(major: 42, minor: 0)),
      ("keepass-rs/broken_random_data.kdbx", .notKeePassFile),
      ("keepass-rs/test_db_kdb_with_password.kdb", .unsupportedKDB1),
      (
        "keepassxc/empty3.kdbx",
        .malformedHeader(field: "EncryptionIV", reason: "must be 12 bytes for this cipher, got 16")
      ),
    ]
    for (name, error) in cases {
      let bytes = try #require(Corpus.file(name))
      #expect(throws: error, "\(name)") { try KDBXFile.readHeader(bytes: bytes) }
    }
  }
}
