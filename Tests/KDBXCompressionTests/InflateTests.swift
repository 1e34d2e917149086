import KDBXCompression
import Testing
import VectorSupport

@Suite("Inflate")
struct InflateTests {
  static let levelRecords = Vectors.records("deflate/rfc1951-zlib-levels.vec")
  static let plain = levelRecords.first?.bytes("plain") ?? []

  @Test("rfc1951-zlib-levels.vec", arguments: levelRecords.dropFirst())
  func zlibLevels(_ record: VectorRecord) throws {
    let compressed = record.bytes("compressed")
    if record.string("format") == "raw" {
      #expect(try Inflate.decompress(compressed) == Self.plain)
    } else {
      #expect(try Gzip.decompress(compressed) == Self.plain)
    }
  }

  @Test("rfc1952-gzip-tool.vec", arguments: Vectors.records("deflate/rfc1952-gzip-tool.vec"))
  func gzipTool(_ record: VectorRecord) throws {
    #expect(try Gzip.decompress(record.bytes("compressed")) == record.bytes("plain"))
  }

  static let invalidFiles = [
    "truncated", "reserved-block-type", "invalid-stored-length", "incomplete-code-lengths",
    "oversubscribed-code-lengths", "invalid-code-length-sequence", "invalid-symbol", "distance-too-far",
    "trailing-garbage", "invalid-header", "checksum-mismatch", "size-mismatch", "output-limit-exceeded",
  ]
  static let invalidRecords = invalidFiles.flatMap { Vectors.records("deflate/invalid/\($0).vec") }

  @Test("invalid/*.vec", arguments: invalidRecords)
  func invalidStream(_ record: VectorRecord) {
    let stream = record.bytes("stream")
    let limit = record.has("limit") ? record.int("limit") : Int.max
    var failure: CompressionError? = nil
    do {
      if record.string("format") == "raw" {
        _ = try Inflate.decompress(stream, maxOutputByteCount: limit)
      } else {
        _ = try Gzip.decompress(stream, maxOutputByteCount: limit)
      }
    } catch {
      failure = error
    }
    #expect(failure?.failureClass == record.string("error"), "\(String(describing: failure))")
    if record.has("offset") {
      #expect(failure?.offset == record.int("offset"))
    } else if let offset = failure?.offset {
      #expect(offset >= 0 && offset <= stream.count)
    }
    if record.has("size") {
      // With enough room the same stream decodes.
      #expect((try? Inflate.decompress(stream, maxOutputByteCount: record.int("size")))?.count == record.int("size"))
    }
  }

  @Test func everyFailureClassHasAFixtureFile() {
    let covered = Set(Self.invalidRecords.map { $0.string("error") })
    #expect(covered == Set(Self.invalidFiles))
  }

  /// Every prefix of a valid stream is rejected (never accepted, never a crash).
  @Test func everyTruncationFails() throws {
    let stream = Deflate.compress(Self.plain, level: 6)
    for length in 0..<stream.count {
      #expect(throws: CompressionError.self) { try Inflate.decompress(Array(stream[..<length])) }
    }
  }

  /// Random corruption never crashes: it decodes or throws a typed error.
  @Test func mutatedStreamsNeverCrash() {
    var random = SplitMix64(seed: 99)
    let stream = Deflate.compress(Self.plain, level: 9)
    for _ in 0..<2000 {
      var mutated = stream
      for _ in 0..<(1 + Int(random.next() % 3)) {
        let index = Int(random.next() % UInt64(mutated.count))
        mutated[index] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
      }
      _ = try? Inflate.decompress(mutated, maxOutputByteCount: 1 << 20)
    }
    for _ in 0..<300 {
      _ = try? Inflate.decompress(random.bytes(Int(random.next() % 200)), maxOutputByteCount: 1 << 20)
    }
  }

  @Test func outputLimitIsExact() throws {
    let stream = Deflate.compress(Self.plain, level: 6)
    #expect(try Inflate.decompress(stream, maxOutputByteCount: Self.plain.count) == Self.plain)
    #expect(throws: CompressionError.outputLimitExceeded(limit: Self.plain.count - 1)) {
      try Inflate.decompress(stream, maxOutputByteCount: Self.plain.count - 1)
    }
  }

  @Test func emptyStreamsFitAZeroLimit() throws {
    for level in [0, 1, 6] {
      #expect(try Inflate.decompress(Deflate.compress([], level: level), maxOutputByteCount: 0) == [])
    }
    #expect(throws: CompressionError.outputLimitExceeded(limit: 0)) {
      try Inflate.decompress(Deflate.compress([1], level: 6), maxOutputByteCount: 0)
    }
  }

  @Test func decompressReportsTheEndOfTheStream() throws {
    let stream = Deflate.compress(Self.plain, level: 6)
    var output: [UInt8] = [1, 2, 3]
    let end = try Inflate.decompress(
      stream + [0xAA, 0xBB], startingAt: 0, appendingTo: &output, maxOutputByteCount: Int.max)
    #expect(end == stream.count)
    #expect(output == [1, 2, 3] + Self.plain)
  }

  /// The fast loop and the careful tail must agree: different buffer sizes move the switch point
  /// between them (a 1-byte hint forces many output-full stops and resumptions).
  @Test func fastLoopAndCarefulTailAgree() throws {
    var random = SplitMix64(seed: 300)
    let text = random.text(150_000) + random.bytes(3000) + random.text(20000)
    for level in [1, 6, 9] {
      let stream = Deflate.compress(text, level: level)
      for hint in [1, 1000, text.count - 1, text.count, text.count * 3] {
        var output: [UInt8] = []
        let end = try Inflate.decompress(
          stream, startingAt: 0, appendingTo: &output, maxOutputByteCount: text.count, expectedOutputByteCount: hint)
        #expect(end == stream.count)
        #expect(output == text, "level \(level), hint \(hint)")
      }
      for prefix in 0..<9 {
        var output = [UInt8](repeating: 0xEE, count: prefix)
        _ = try Inflate.decompress(stream, startingAt: 0, appendingTo: &output, maxOutputByteCount: Int.max)
        #expect(Array(output.dropFirst(prefix)) == text, "level \(level), prefix \(prefix)")
      }
    }
  }

  @Test func matchesCannotReachIntoEarlierOutput() {
    // Fixed block: a match (length 3, distance 1) as the first symbol; the 3 bytes appended
    // before it belong to someone else.
    let stream: [UInt8] = [0x03, 0x02, 0x00]  // BFINAL, fixed, symbol 257, distance code 0, EOB
    var output: [UInt8] = [1, 2, 3]
    #expect(throws: CompressionError.self) {
      _ = try Inflate.decompress(stream, startingAt: 0, appendingTo: &output, maxOutputByteCount: 100)
    }
  }
}
