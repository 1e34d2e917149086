import KDBXCompression
import Testing

/// Interop with the reference tools: Python's zlib and GNU gzip. Each test is skipped, with a
/// printed note, when its tool is missing.
@Suite("DEFLATE interop")
struct InteropTests {
  static let text: [UInt8] = {
    var random = SplitMix64(seed: 1951)
    return random.text(256 << 10) + random.bytes(20000) + [UInt8](repeating: 0x20, count: 5000)
  }()

  @Test(.enabled(if: Interop.hasPython), arguments: 0...9)
  func pythonZlibReadsOurRawAndGzipOutput(_ level: Int) throws {
    let raw = Deflate.compress(Self.text, level: level)
    #expect(try Interop.python("out = zlib.decompress(data, -15)", input: raw) == Self.text)
    let gzip = Gzip.compress(Self.text, level: level)
    #expect(try Interop.python("out = zlib.decompress(data, 31)", input: gzip) == Self.text)
  }

  @Test(.enabled(if: Interop.hasPython), arguments: 0...9)
  func weReadPythonZlibAtEveryLevel(_ level: Int) throws {
    let raw = try Interop.python(
      "c = zlib.compressobj(\(level), zlib.DEFLATED, -15)\nout = c.compress(data) + c.flush()", input: Self.text)
    #expect(try Inflate.decompress(raw) == Self.text)
    let gzip = try Interop.python(
      "c = zlib.compressobj(\(level), zlib.DEFLATED, 31)\nout = c.compress(data) + c.flush()", input: Self.text)
    #expect(try Gzip.decompress(gzip) == Self.text)
  }

  @Test(.enabled(if: Interop.hasGzip), arguments: [1, 6, 9])
  func gzipReadsOurOutput(_ level: Int) throws {
    guard let gzip = Interop.gzip else { return }
    let header = Gzip.Header(name: Array("x.xml".utf8), comment: Array("c".utf8), extra: [1, 2], hasHeaderCRC: true)
    let packed = Gzip.compress(Self.text, level: level, header: header)
    #expect(try Interop.run(gzip, ["-d", "-c"], input: packed) == Self.text)
    // Two members are one file to gzip.
    let twice = packed + Gzip.compress(Self.text, level: level)
    #expect(try Interop.run(gzip, ["-d", "-c"], input: twice) == Self.text + Self.text)
  }

  @Test(.enabled(if: Interop.hasGzip), arguments: ["-1", "-9"])
  func weReadGzipOutput(_ flag: String) throws {
    guard let gzip = Interop.gzip else { return }
    let packed = try Interop.run(gzip, [flag, "-c"], input: Self.text)
    #expect(try Gzip.decompress(packed) == Self.text)
  }

  /// Compressed size at levels 1, 6 and 9 against zlib on the same input (a goal of at most 1.02x).
  @Test(.enabled(if: Interop.hasPython), arguments: [1, 6, 9])
  func sizeComparedWithZlib(_ level: Int) throws {
    let ours = Deflate.compress(Self.text, level: level).count
    let theirs = try Interop.python(
      "c = zlib.compressobj(\(level), zlib.DEFLATED, -15)\nout = c.compress(data) + c.flush()", input: Self.text
    ).count
    print("level \(level): ours \(ours) B, zlib \(theirs) B, ratio \(Double(ours) / Double(theirs))")
    #expect(Double(ours) <= Double(theirs) * 1.02)
  }
}
