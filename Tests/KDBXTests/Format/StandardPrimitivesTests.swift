import KDBX
import KDBXCompression
import Testing
import VectorSupport

/// The real primitives behind `KDBXFile.open`/`save`: large payloads are gzip-compressed in pieces on several
/// cores, and the result is the same gzip format.
@Suite("Standard primitives")
struct StandardPrimitivesTests {
  static func text(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SplitMix64(seed: seed)
    let words = ["<Entry>", "<String>", "<Key>Title</Key>", "<Value>", "mail.example.com", "Passwörter", "\n\t\t"]
    var out: [UInt8] = []
    while out.count < count { out += Array(words[Int(random.next() % UInt64(words.count))].utf8) }
    return Array(out.prefix(count))
  }

  @Test("gzip in pieces decompresses to the input", arguments: [1, 3])
  func gzipPieces(maxConcurrency: Int) throws {
    let input = Self.text(3_300_000, seed: 3)
    var primitives = StandardPrimitives()
    primitives.maxConcurrency = maxConcurrency
    let packed = try primitives.compressGzip(input)
    #expect(try Gzip.decompress(packed) == input)
    // Pieces cost a few bytes each (sync flushes), never a lost dictionary.
    let single = Gzip.compress(input, level: 6)
    #expect(packed.count <= single.count + single.count / 100)
  }

  /// `SavePipeline.serializeAndCompressGzip`: the document is the one `DatabaseXML.serialize` writes (protected values included, the
  /// inner random stream left at the same place), and the gzip member holds the prefix and that document, however
  /// the document was handed on while it was written.
  @Test(
    "serialize and compress in a pipeline gives the document and the payload",
    arguments: [
      (1, 1 << 20, nil), (2, 1 << 20, nil), (2, 1 << 20, 1_000), (2, 700, nil), (2, 40_000, nil), (2, 40_000, 64),
      (3, 5_000, 2_000),
    ])
  func serializeAndCompressPipeline(maxConcurrency: Int, chunkByteCount: Int, early: Int?) throws {
    var random = SplitMix64(seed: 21)
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var database = Database.new(name: "Pipeline", clock: clock, random: &random)
    let notes = String(decoding: Self.text(3_000, seed: 22), as: UTF8.self)
    for index in 0..<300 {
      var entry = Entry.new(clock: clock, random: &random)
      entry[field: "Title"] = .plain("Entry \(index)")
      entry[field: "Password"] = .protected(ProtectedValue("secret \(index)", using: &random))
      entry[field: "Notes"] = .plain(index % 3 == 0 ? notes : "")
      database.root?.entries.append(entry)
    }
    var primitives = StandardPrimitives()
    primitives.maxConcurrency = maxConcurrency
    primitives.pipelineChunkByteCount = chunkByteCount
    var settings = try #require(primitives.pipelinedGzip)
    #expect(settings.maxConcurrency == maxConcurrency && settings.chunkByteCount == chunkByteCount)
    // Hand-offs sooner whenever the helper is idle: where the pieces end then depends on timing, not the output.
    settings.earlyHandOffByteCount = early
    let key = [UInt8](repeating: 7, count: 64)
    for prefix in [[], Self.text(70_000, seed: 23)] {
      var reference = try primitives.makeInnerStream(.chaCha20, key: Array(key[0..<32]), nonce: Array(key[32..<44]))
      var stream = reference
      let expected = try DatabaseXML.serialize(database, version: .v4_0, stream: &reference)
      let (document, compressed, count) = try SavePipeline.serializeAndCompressGzip(
        database, version: .v4_0, stream: &stream, prefix: prefix, settings: settings, alongside: { $0.count })
      #expect(document == expected)
      #expect(count == expected.count)
      #expect(try Gzip.decompress(compressed) == prefix + expected)
      // Both streams moved past the same protected values.
      var next = [UInt8](repeating: 0, count: 16)
      var nextReference = next
      stream.apply(to: &next)
      reference.apply(to: &nextReference)
      #expect(next == nextReference)
    }
  }

  @Test("a large database saved in pieces opens again")
  func largeDatabase() throws {
    var random = SplitMix64(seed: 4)
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var database = Database.new(name: "Large", clock: clock, random: &random)
    let notes = String(decoding: Self.text(4_000, seed: 5), as: UTF8.self)
    for index in 0..<600 {
      var entry = Entry.new(clock: clock, random: &random)
      entry[field: "Title"] = .plain("Entry \(index)")
      entry[field: "Notes"] = .plain(notes)
      database.root?.entries.append(entry)
    }
    let key = CompositeKey(password: "large")
    let aes = KDFParameters.aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 1, count: 32)))
    for version in [KDBXVersion.v3_1, .v4_0] {
      let settings = SaveSettings(version: version, cipher: .aes256, kdf: aes, compression: .gzip)
      let file = try KDBXFile.saveBlocking(database, key: key, settings: settings)
      #expect(file.count < 1_000_000)  // 2.5 MB of XML, compressed
      let opened = try KDBXFile.openBlocking(bytes: file, key: key)
      #expect(opened.database.root?.entries.count == 600)
      #expect(opened.database.root?.entries.last?[field: "Notes"]?.reveal() == notes)
    }
  }
}
