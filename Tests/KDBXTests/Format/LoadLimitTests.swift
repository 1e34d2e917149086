import KDBX
import KDBXBase
import KDBXCompression
import KDBXCrypto
import KDBXXML
import Testing
import VectorSupport

/// `LoadOptions` ceilings, end to end through `KDBXFile.open`: each hostile size or cost is refused before the
/// allocation or the work it asks for (the tests finish at once even where the file asks for terabytes or hours).
@Suite struct LoadLimitTests {
  static let transformed = [UInt8](repeating: 0x5A, count: 32)

  /// A KDBX 4.1 file around `payload` (inner header + XML) that opens with `CompositeKey(transformedKey:)`.
  static func sealKDBX4(_ payload: [UInt8], gzip: Bool) throws -> [UInt8] {
    let standard = StandardPrimitives()
    let seed = [UInt8](repeating: 0x11, count: 32)
    let header = OuterHeader(
      version: .v4_1, cipher: .chaCha20, compression: gzip ? .gzip : .none, masterSeed: seed,
      encryptionIV: [UInt8](repeating: 0x22, count: 12),
      kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: seed, uuidVariant: .aesKDBX4)))
    let headerBytes = try header.serialized()
    let body = gzip ? try standard.compressGzip(payload) : payload
    let cipherKey = CompositeKey.kdbx4CipherKey(masterSeed: seed, transformedKey: transformed)
    let ciphertext = try standard.encrypt(body, cipher: .chaCha20, key: cipherKey, iv: header.encryptionIV)
    let authenticator = standard.blockAuthenticator(
      baseKey: standard.sha512(CompositeKey.kdbx4HMACBaseKeyInput(masterSeed: seed, transformedKey: transformed)))
    return headerBytes + SHA256.hash(headerBytes).bytes
      + HMACBlockStream.headerHMAC(headerBytes, authenticator: authenticator)
      + HMACBlockStream.write(ciphertext, authenticator: authenticator)
  }

  static let innerHeader = InnerHeader(
    innerRandomStream: .chaCha20, innerRandomStreamKey: [UInt8](repeating: 0x33, count: 64)
  ).serialized()
  static let minimalXML = Array("<KeePassFile><Root><Group><Name>r</Name></Group></Root></KeePassFile>".utf8)

  static func open(_ bytes: [UInt8], _ options: LoadOptions = .default) throws {
    _ = try KDBXFile.openBlocking(bytes: bytes, key: try CompositeKey(transformedKey: transformed), options: options)
  }

  /// Replaces the 8-byte (or 4-byte) value of VariantDictionary item `key` of type `type` in a KDBX 4 header.
  static func patchVariant(_ file: [UInt8], type: UInt8, key: UInt8, value: UInt64, width: Int) throws -> [UInt8] {
    let pattern: [UInt8] = [type, 1, 0, 0, 0, key, UInt8(width), 0, 0, 0]
    let start = try #require(
      (0...(file.count - pattern.count)).first { Array(file[$0..<($0 + pattern.count)]) == pattern },
      "no \(key) item in the KDF parameters")
    var out = file
    for index in 0..<width { out[start + pattern.count + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    return out
  }

  @Test func theSealedBaselineOpens() throws {
    try Self.open(try Self.sealKDBX4(Self.innerHeader + Self.minimalXML, gzip: true))
  }

  @Test func headerFieldOf4GiBIsRefusedBeforeReading() throws {
    // Signatures, version 4.1, then field 2 (CipherID) claiming 0xFFFFFFFF bytes, followed by 4 bytes only.
    let file: [UInt8] = [
      0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5, 0x01, 0x00, 0x04, 0x00, 0x02, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3, 4,
    ]
    #expect(
      throws: KDBXError.limitExceeded(what: "header field CipherID bytes", value: 0xFFFF_FFFF, limit: 16 << 20)
    ) { try Self.open(file) }
    #expect(
      throws: KDBXError.limitExceeded(what: "header field CipherID bytes", value: 0xFFFF_FFFF, limit: 0xFFFF_FFFE)
    ) { try Self.open(file, LoadOptions(maxHeaderFieldByteCount: 0xFFFF_FFFE)) }
  }

  @Test func argon2CostsBeyondTheLimitsAreRefusedBeforeTheKDF() throws {
    let fixture = try #require(Vectors.data("kdbx/fixtures/kdbx40-aes256-argon2d.kdbx"))
    let key = CompositeKey(password: "fixture")
    // m = 4 TiB (the default limit is 4 GiB).
    let memory = try Self.patchVariant(fixture, type: 0x05, key: 0x4D, value: 4 << 40, width: 8)
    #expect(throws: KDBXError.limitExceeded(what: "Argon2 memory bytes", value: 4 << 40, limit: 4 << 30)) {
      try KDBXFile.openBlocking(bytes: memory, key: key)
    }
    let iterations = try Self.patchVariant(fixture, type: 0x05, key: 0x49, value: 1 << 40, width: 8)
    #expect(throws: KDBXError.limitExceeded(what: "Argon2 iterations", value: 1 << 40, limit: 1_000_000)) {
      try KDBXFile.openBlocking(bytes: iterations, key: key)
    }
    // 300 lanes need at least 8 KiB each: give them 4 MiB, so the lane limit is what refuses the file.
    let lanes = try Self.patchVariant(
      try Self.patchVariant(fixture, type: 0x05, key: 0x4D, value: 4 << 20, width: 8), type: 0x04, key: 0x50,
      value: 300, width: 4)
    #expect(throws: KDBXError.limitExceeded(what: "Argon2 parallelism", value: 300, limit: 256)) {
      try KDBXFile.openBlocking(bytes: lanes, key: key)
    }
  }

  @Test func aBillionAESKDFRoundsAreRefusedUnderALowLimit() throws {
    let key = CompositeKey(password: "fixture")
    let kdbx4 = try #require(Vectors.data("kdbx/fixtures/kdbx40-aes256-aeskdf.kdbx"))
    let patched4 = try Self.patchVariant(kdbx4, type: 0x05, key: 0x52, value: 1_000_000_000, width: 8)
    #expect(throws: KDBXError.limitExceeded(what: "AES-KDF rounds", value: 1_000_000_000, limit: 100_000)) {
      try KDBXFile.openBlocking(bytes: patched4, key: key, options: LoadOptions(maxAESKDFRounds: 100_000))
    }
    // KDBX 3.1: header field 6 (TransformRounds), 2-byte length 8, then the UInt64.
    let kdbx3 = try #require(Vectors.data("kdbx/fixtures/kdbx31-aes256-aeskdf.kdbx"))
    let start = try #require(
      (12..<(kdbx3.count - 3)).first { kdbx3[$0] == 6 && kdbx3[$0 + 1] == 8 && kdbx3[$0 + 2] == 0 })
    var patched3 = kdbx3
    for index in 0..<8 { patched3[start + 3 + index] = UInt8(truncatingIfNeeded: UInt64(1_000_000_000) >> (8 * index)) }
    #expect(throws: KDBXError.limitExceeded(what: "AES-KDF rounds", value: 1_000_000_000, limit: 100_000)) {
      try KDBXFile.openBlocking(bytes: patched3, key: key, options: LoadOptions(maxAESKDFRounds: 100_000))
    }
  }

  @Test func decompressionBombStopsAtThePayloadLimit() throws {
    // 4 MiB of zeros after the XML compress to a few KiB; the limit is 1 MiB.
    let bomb = try Self.sealKDBX4(
      Self.innerHeader + Self.minimalXML + [UInt8](repeating: 0x20, count: 4 << 20), gzip: true)
    #expect(bomb.count < 64 << 10)
    #expect(throws: KDBXError.compression(.outputLimitExceeded(limit: 1 << 20))) {
      try Self.open(bomb, LoadOptions(maxPayloadByteCount: 1 << 20))
    }
  }

  @Test func kdbx3CompressedBinariesTogetherStayUnderThePayloadLimit() throws {
    // Two binaries of 600 KiB each, gzip-compressed in Meta/Binaries: each fits the 1 MiB limit, both do not.
    let packed = Base64.encode(Gzip.compress([UInt8](repeating: 0, count: 600 << 10)))
    let binary = { (id: Int) in "<Binary ID=\"\(id)\" Compressed=\"True\">\(packed)</Binary>" }
    let xml = Array(
      ("<KeePassFile><Meta><Binaries>\(binary(0))\(binary(1))</Binaries></Meta>"
        + "<Root><Group><Name>r</Name></Group></Root></KeePassFile>").utf8)
    let document = try XMLElement.parse(xml)
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 1)
    #expect(throws: KDBXError.compression(.outputLimitExceeded(limit: (1 << 20) - (600 << 10)))) {
      try DatabaseXMLReader.read(
        document: document, stream: &stream, random: &random, gzip: StandardPrimitives(),
        options: LoadOptions(maxPayloadByteCount: 1 << 20))
    }
    // One of them alone opens.
    let single = try XMLElement.parse(
      Array(
        ("<KeePassFile><Meta><Binaries>\(binary(0))</Binaries></Meta>"
          + "<Root><Group><Name>r</Name></Group></Root></KeePassFile>").utf8))
    let database = try DatabaseXMLReader.read(
      document: single, stream: &stream, random: &random, gzip: StandardPrimitives(),
      options: LoadOptions(maxPayloadByteCount: 1 << 20))
    #expect(database.binaries.binaries.first?.data.count == 600 << 10)
  }

  @Test func hugeBlockSizeIsRefusedBeforeReading() throws {
    // The first HMAC block of a sealed file claims 0x7FFFFFFF bytes.
    var file = try Self.sealKDBX4(Self.innerHeader + Self.minimalXML, gzip: false)
    let headerEnd = try KDBXFile.readHeader(bytes: file).payloadOffset
    for index in 0..<4 { file[headerEnd + 32 + index] = [0xFF, 0xFF, 0xFF, 0x7F][index] }
    #expect(throws: KDBXError.limitExceeded(what: "payload bytes", value: 0x7FFF_FFFF, limit: 1 << 30)) {
      try Self.open(file)
    }
  }

  @Test func innerHeaderBinaryBeyondTheLimitIsRefused() throws {
    // An inner-header binary field claiming 2 GiB - 1.
    var payload: [UInt8] = [3, 0xFF, 0xFF, 0xFF, 0x7F, 1]
    payload = Array(Self.innerHeader.dropLast(5)) + payload
    #expect(throws: KDBXError.limitExceeded(what: "binary bytes", value: 0x7FFF_FFFF, limit: 1 << 20)) {
      try Self.open(try Self.sealKDBX4(payload, gzip: false), LoadOptions(maxPayloadByteCount: 1 << 20))
    }
  }

  @Test func deepXMLIsRefused() throws {
    let depth = 100_000
    let xml = Array(("<KeePassFile>" + String(repeating: "<a>", count: depth)).utf8)
    let file = try Self.sealKDBX4(Self.innerHeader + xml, gzip: true)
    let error = #expect(throws: KDBXError.self) { try Self.open(file) }
    guard case .xml(let xmlError)? = error else {
      Issue.record("expected an XML error, got \(String(describing: error))")
      return
    }
    #expect(xmlError.kind == .limitExceeded(.depth))
    // A limit above the nesting lets the same depth through to the next error (the document is unterminated).
    let shallow = try Self.sealKDBX4(
      Self.innerHeader + Array(("<KeePassFile>" + String(repeating: "<a>", count: 20)).utf8), gzip: false)
    let other = #expect(throws: KDBXError.self) { try Self.open(shallow, LoadOptions(maxXMLDepth: 64)) }
    if case .xml(let e)? = other { #expect(e.kind != .limitExceeded(.depth)) }
  }

  /// The defaults stay far above what KeePass and KeePassXC write (see the figures in `LoadOptions`' docs).
  @Test func defaultsAreFarAboveRealVaults() {
    let options = LoadOptions.default
    #expect(options.maxKDFMemoryBytes >= 4 << 30)
    #expect(options.maxArgon2Iterations >= 1_000)
    #expect(options.maxArgon2Parallelism >= 64)
    #expect(options.maxAESKDFRounds >= 100_000_000)
    #expect(options.maxPayloadByteCount >= 512 << 20)
    #expect(options.maxXMLDepth >= 256)
  }
}
