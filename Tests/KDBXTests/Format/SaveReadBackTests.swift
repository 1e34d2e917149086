import KDBX
import KDBXXML
import Testing
import VectorSupport

/// The read-back check of the `kdbx` tool's saves: `KDBXFile.write(..., checksDocument: true)` checks the XML it
/// serialized (while compressing) and keeps it; `KDBXFile.verifyReadBack` then accepts exactly the bytes written,
/// opened through every container layer, holding exactly that document.
@Suite("Save read-back check")
struct SaveReadBackTests {
  static let fixtures = [
    "kdbx31-aes256-aeskdf", "kdbx40-chacha20-aeskdf", "kdbx41-twofish-aeskdf", "kdbx31-uncompressed", "uncompressed",
  ]
  .map { Fixture(name: $0) }

  static func saved(_ fixture: Fixture, checksDocument: Bool = true, seed: UInt64 = 7) throws -> SavedFile {
    let bytes = try #require(fixture.bytes)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: try fixture.key())
    var random = SplitMix64(seed: seed)
    return try KDBXFile.write(
      opened.database, key: try fixture.key(), settings: SaveSettings(keeping: opened),
      primitives: StandardPrimitives(), random: &random, checksDocument: checksDocument)
  }

  @Test(arguments: fixtures)
  func acceptsTheFileWritten(_ fixture: Fixture) throws {
    let saved = try Self.saved(fixture)
    let document = try #require(saved.document)
    #expect(document.starts(with: Array("<?xml".utf8)))
    try KDBXFile.verifyReadBack(saved.bytes, of: saved, primitives: StandardPrimitives())
    // The same check as before: the whole file verifies, and the document is the one inside.
    let cached = CompositeKey(transformedSecret: saved.transformedKey)
    _ = try KDBXFile.verifyIntegrity(bytes: saved.bytes, key: cached, primitives: StandardPrimitives())
    // Without checksDocument nothing is kept, and there is nothing to compare with.
    let plain = try Self.saved(fixture, checksDocument: false)
    #expect(plain.document == nil)
    #expect(throws: KDBXError.self) {
      try KDBXFile.verifyReadBack(plain.bytes, of: plain, primitives: StandardPrimitives())
    }
  }

  @Test(arguments: fixtures)
  func refusesOtherBytes(_ fixture: Fixture) throws {
    let saved = try Self.saved(fixture)
    var random = SplitMix64(seed: 31)
    for _ in 0..<20 {
      var damaged = saved.bytes
      damaged[Int(random.next() % UInt64(damaged.count))] ^= UInt8(1 << (random.next() % 8))
      #expect(throws: KDBXError.self) {
        try KDBXFile.verifyReadBack(damaged, of: saved, primitives: StandardPrimitives())
      }
    }
    // Another intact save of the same database (other seeds) is not the file written.
    let other = try Self.saved(fixture, seed: 8)
    #expect(throws: KDBXError.self) {
      try KDBXFile.verifyReadBack(other.bytes, of: saved, primitives: StandardPrimitives())
    }
  }

  /// The file is intact but holds another document than the one the save checked (as if the payload had been
  /// serialized twice, differently): refused by the comparison, not by any container layer.
  @Test(arguments: fixtures)
  func refusesAnotherDocument(_ fixture: Fixture) throws {
    var saved = try Self.saved(fixture)
    var document = try #require(saved.document)
    document[document.count / 2] ^= 0x01
    saved.document = document
    #expect(
      throws: KDBXError.malformedDocument(
        path: "/KeePassFile", reason: "the XML read back differs from the XML written")
    ) {
      try KDBXFile.verifyReadBack(saved.bytes, of: saved, primitives: StandardPrimitives())
    }
  }

  /// KDBX 4: the inner header before the document is compared too (the content is compared as it decompresses,
  /// the inner header and then the XML, without a copy of either).
  @Test(arguments: fixtures.filter { !$0.name.hasPrefix("kdbx31") })
  func refusesAnotherInnerHeader(_ fixture: Fixture) throws {
    var saved = try Self.saved(fixture)
    try #require(!saved.documentPrefix.isEmpty)
    saved.documentPrefix[saved.documentPrefix.count / 2] ^= 0x01
    #expect(
      throws: KDBXError.malformedDocument(
        path: "/KeePassFile", reason: "the XML read back differs from the XML written")
    ) {
      try KDBXFile.verifyReadBack(saved.bytes, of: saved, primitives: StandardPrimitives())
    }
  }

  /// A serializer that produced a malformed document: the save refuses to make a file of it (or, keeping the
  /// document for the read-back, the read-back refuses the file).
  @Test(arguments: [KDBXVersion.v3_1, .v4_0], [CompressionAlgorithm.gzip, .none])
  func refusesToWriteAMalformedDocument(version: KDBXVersion, compression: CompressionAlgorithm) throws {
    var random = SplitMix64(seed: 3)
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    let database = Database.new(name: "Broken", clock: clock, random: &random)
    let aes = KDFParameters.aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 1, count: 32)))
    let settings = SaveSettings(version: version, cipher: .aes256, kdf: aes, compression: compression)
    let key = CompositeKey(password: "broken")
    // The same writer without damage: the save goes through, so a refusal below is the check's.
    _ = try KDBXFile.write(
      database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random,
      xml: BreakingSerializer.Damage.none.override)
    for breaking in [BreakingSerializer.Damage.dropLastByte, .renameRoot] {
      // Every save checks its document. Without `checksDocument` the save throws what the check found.
      var refusal: KDBXError? = nil
      do {
        _ = try KDBXFile.write(
          database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random,
          checksDocument: false, xml: breaking.override)
      } catch {
        refusal = error
      }
      let expected = try #require(refusal)
      // With it, the check runs on beside the encryption (the caller writes and reads the file back meanwhile),
      // and the read-back throws the same: a caller that keeps the file only after it keeps no file that would
      // not open.
      let saved = try KDBXFile.write(
        database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random,
        checksDocument: true, xml: breaking.override)
      #expect(saved.pendingCheck != nil)
      #expect(throws: expected) {
        try KDBXFile.verifyReadBack(saved.bytes, of: saved, primitives: StandardPrimitives())
      }
    }
  }
}

/// The standard database XML writer, damaging the document it writes.
enum BreakingSerializer {
  enum Damage {
    /// The document as written.
    case none
    /// The document ends without the last `>`.
    case dropLastByte
    /// The root element is not `KeePassFile`.
    case renameRoot

    /// A save's database XML writer with this damage.
    var override: DatabaseXMLOverride<StandardPrimitives.InnerStream> {
      DatabaseXMLOverride(serialize: { database, version, stream throws(KDBXError) in
        var xml = try DatabaseXML.serialize(database, version: version, stream: &stream)
        switch self {
        case .none: break
        case .dropLastByte:
          while xml.last == 0x0A { xml.removeLast() }
          xml.removeLast()
        case .renameRoot:
          let from = Array("KeePassFile".utf8)
          let to = Array("KeePassFilx".utf8)
          var index = 0
          while index + from.count <= xml.count {
            if Array(xml[index..<index + from.count]) == from {
              xml.replaceSubrange(index..<index + from.count, with: to)
            }
            index += 1
          }
        }
        return xml
      })
    }
  }
}
