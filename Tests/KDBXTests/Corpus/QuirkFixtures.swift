import KDBXCrypto
import Testing
import VectorSupport

@testable import KDBX

/// Builds KDBX files by hand, layer by layer, with the library's own primitives (header, KDF, inner header, XML,
/// gzip, hashed or HMAC block stream, cipher), so that a file can carry the irregularities other writers leave:
/// bytes after the gzip member (a Go library pads even ChaCha20 payloads PKCS#7-style), and a final CBC block
/// whose padding is malformed or absent. Everything is drawn from a seeded generator: a recipe always gives the
/// same bytes with the same library. `Vectors/kdbx/quirks/` holds the files of ``committed``, written by
/// `QuirkFixtureTests` (see the README there).
enum QuirkFixtures {
  /// The password of every fixture: non-ASCII, with XML's special characters.
  static let password = "quirk <&> pässwörd"
  static var key: CompositeKey { CompositeKey(password: password) }

  /// What follows the gzip member inside the authenticated payload.
  enum AfterGzip: Sendable, Equatable {
    case nothing
    /// PKCS#7-style padding to the next multiple of 16 (1 to 16 bytes of that count), as the Go library writes.
    case pkcs7Style
    case bytes([UInt8])
  }

  /// How the last CBC block is padded (ChaCha20 has no padding).
  enum FinalPadding: Sendable, Equatable {
    /// PKCS#7 (RFC 5652 §6.3), as KeePass writes.
    case pkcs7
    /// Zeros to the next multiple of 16 (1 to 16 of them): malformed PKCS#7.
    case zeros
    /// No padding: the content is sized so that the plaintext fills whole blocks.
    case absent
    /// 1 to 16 bytes of this value to the next multiple of 16 (malformed unless the value is their count).
    case pattern(UInt8)
    /// This many bytes of 0xAA, then zeros to the next multiple of 16: more than a padding.
    case overlong(Int)
  }

  struct Recipe: Sendable, CustomTestStringConvertible {
    var name: String
    var version: KDBXVersion
    var cipher: CipherAlgorithm
    var compression: CompressionAlgorithm = .gzip
    var afterGzip: AfterGzip = .nothing
    var padding: FinalPadding = .pkcs7
    /// Writes KeePassXC's AES-KDF alias UUID `7c02bb82-…` (KDBX 4) instead of KeePass 2's.
    var aliasKDFUUID = false
    var testDescription: String { name }
  }

  /// The fixtures kept in `Vectors/kdbx/quirks/`.
  static let committed: [Recipe] = [
    Recipe(name: "kdbx40-chacha20-bytes-after-gzip", version: .v4_0, cipher: .chaCha20, afterGzip: .pkcs7Style),
    Recipe(name: "kdbx31-aes256-bytes-after-gzip", version: .v3_1, cipher: .aes256, afterGzip: .pkcs7Style),
    Recipe(name: "kdbx31-aes256-zero-padding", version: .v3_1, cipher: .aes256, padding: .zeros),
    Recipe(name: "kdbx31-twofish-no-padding", version: .v3_1, cipher: .twofish, padding: .absent),
    Recipe(name: "kdbx40-aes256-zero-padding", version: .v4_0, cipher: .aes256, padding: .zeros),
  ]

  /// A small database: a group, an entry with a protected password, a protected custom field, tags, an
  /// attachment and one history item.
  static func database(descriptionLength: Int) -> Database {
    var random = SplitMix64(seed: 0x9E1F)
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var database = Database.new(name: "Quirks <&> Ω", clock: clock, random: &random)
    // Incompressible text, so that each character changes the compressed size.
    var text = ""
    var stir = SplitMix64(seed: 77)
    for _ in 0..<descriptionLength { text += String(UInt8(truncatingIfNeeded: stir.next()) % 10) }
    database.meta.databaseDescription = text
    var group = Group.new(name: "Internet", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry[field: Entry.titleField] = .plain("Forge <&> ✓")
    entry[field: Entry.userNameField] = .plain("alex")
    entry[field: Entry.passwordField] = .protected(ProtectedValue("old pässword", using: &random))
    var current = entry
    current.history = [entry]
    current[field: Entry.passwordField] = .protected(ProtectedValue("correct <horse> & battery", using: &random))
    current[field: "PIN"] = .protected(ProtectedValue("2468", using: &random))
    current[field: "Recovery ✓"] = .plain("a & b < c")
    current.tagsText = "work;ünï"
    current.attachments = [database.makeAttachment(name: "codes.txt", data: Array("1111-2222\n3333\n".utf8))]
    group.entries = [current]
    database.root?.groups = [group]
    return database
  }

  /// The file of `recipe` and the database it holds.
  static func build(_ recipe: Recipe, key: CompositeKey = key) throws -> (bytes: [UInt8], database: Database) {
    // For an absent padding, lengthen the description until the plaintext fills whole blocks.
    for length in 0..<512 {
      let database = database(descriptionLength: length)
      if let bytes = try build(recipe, database: database, key: key, requireWholeBlocks: recipe.padding == .absent) {
        return (bytes, database)
      }
    }
    throw KDBXError.malformedValue(element: recipe.name, reason: "no description length fills whole blocks")
  }

  static func build(_ recipe: Recipe, database: Database, key: CompositeKey, requireWholeBlocks: Bool) throws
    -> [UInt8]?
  {
    var random = SplitMix64(
      seed: recipe.name.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 })
    var database = database
    let primitives = StandardPrimitives()
    let isKDBX4 = recipe.version.isKDBX4
    let streamKey = random.bytes(isKDBX4 ? 64 : 32)
    var header = OuterHeader(
      version: recipe.version, cipher: recipe.cipher, compression: recipe.compression, masterSeed: random.bytes(32),
      encryptionIV: random.bytes(recipe.cipher.ivByteCount),
      kdf: .aesKDF(AESKDFParameters(rounds: 1_000, seed: random.bytes(32))))
    if !isKDBX4 {
      header.protectedStreamKey = streamKey
      header.streamStartBytes = random.bytes(32)
      header.innerRandomStream = .salsa20
    }
    var headerBytes = try header.serialized()
    if recipe.aliasKDFUUID {
      let keePass2 = KnownUUIDs.aesKDFKDBX3.bytes
      guard let at = (0...(headerBytes.count - 16)).first(where: { Array(headerBytes[$0..<($0 + 16)]) == keePass2 })
      else { return nil }
      headerBytes.replaceSubrange(at..<(at + 16), with: KnownUUIDs.aesKDFKDBX4.bytes)
    }
    let transformed = try KDBXFile.transformedKey(key, header: header, primitives: primitives)
    var stream = try KDBXFile.innerStream(isKDBX4 ? .chaCha20 : .salsa20, key: streamKey, primitives: primitives)

    func compressed(_ bytes: [UInt8]) throws -> [UInt8] {
      guard recipe.compression == .gzip else { return bytes }
      var packed = try primitives.compressGzip(bytes)
      switch recipe.afterGzip {
      case .nothing: break
      case .pkcs7Style:
        let count = 16 - packed.count % 16
        packed += [UInt8](repeating: UInt8(count), count: count)
      case .bytes(let extra): packed += extra
      }
      return packed
    }

    func encrypt(_ plaintext: [UInt8], key: [UInt8]) throws -> [UInt8]? {
      if recipe.cipher == .chaCha20 {
        return try primitives.encrypt(plaintext, cipher: .chaCha20, key: key, iv: header.encryptionIV)
      }
      var bytes = plaintext
      let fill = 16 - bytes.count % 16
      switch recipe.padding {
      case .pkcs7: bytes += [UInt8](repeating: UInt8(fill), count: fill)
      case .zeros: bytes += [UInt8](repeating: 0, count: fill)
      case .absent: break
      case .pattern(let value): bytes += [UInt8](repeating: value, count: fill)
      case .overlong(let count):
        bytes += [UInt8](repeating: 0xAA, count: count)
        bytes += [UInt8](repeating: 0, count: 16 - bytes.count % 16)
      }
      if requireWholeBlocks && plaintext.count % 16 != 0 { return nil }
      if recipe.cipher == .twofish {
        var cbc = try CBC<Twofish>(key: key, iv: header.encryptionIV)
        try cbc.encrypt(blocksInPlace: &bytes)
      } else {
        var cbc = try CBC<AES>(key: key, iv: header.encryptionIV)
        try cbc.encrypt(blocksInPlace: &bytes)
      }
      return bytes
    }

    if !isKDBX4 {
      database.meta.headerHash = SHA256.hash(headerBytes).bytes
      let xml = try DatabaseXML.serialize(database, version: recipe.version, stream: &stream)
      let plaintext = (header.streamStartBytes ?? []) + HashedBlockStream.write(try compressed(xml))
      let masterKey = key.kdbx3MasterKey(masterSeed: header.masterSeed, transformedKey: transformed)
      guard let ciphertext = try encrypt(plaintext, key: masterKey) else { return nil }
      return headerBytes + ciphertext
    }
    database.meta.headerHash = nil
    let inner = InnerHeader(
      innerRandomStream: .chaCha20, innerRandomStreamKey: streamKey,
      binaries: database.binaries.binaries.map { .init(isProtected: $0.isProtected, data: $0.data) })
    let payload = try compressed(
      inner.serialized() + (try DatabaseXML.serialize(database, version: recipe.version, stream: &stream)))
    let cipherKey = CompositeKey.kdbx4CipherKey(masterSeed: header.masterSeed, transformedKey: transformed)
    guard let ciphertext = try encrypt(payload, key: cipherKey) else { return nil }
    let baseKeyInput = CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: header.masterSeed, transformedKey: transformed)
    let authenticator = primitives.blockAuthenticator(baseKey: primitives.sha512(baseKeyInput))
    return headerBytes + SHA256.hash(headerBytes).bytes
      + HMACBlockStream.headerHMAC(headerBytes, authenticator: authenticator)
      + HMACBlockStream.write(ciphertext, authenticator: authenticator)
  }
}
