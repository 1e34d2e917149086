import KDBXCompression
import Testing
import VectorSupport

/// The inflate kernel's match copies (16-byte words, a fixed first stretch, byte runs for short
/// distances) against a byte-by-byte reference, on streams encoded here with the fixed Huffman
/// codes (RFC 1951 §3.2.6) so that every length 3...258 meets every distance class exactly.
@Suite("Inflate match copies")
struct InflateMatchCopyTests {
  /// One symbol of the sequence: a literal byte or a match.
  enum Symbol {
    case literal(UInt8)
    case match(length: Int, distance: Int)
  }

  /// RFC 1951 §3.2.5: length codes 257...285 and distance codes 0...29, base and extra bits.
  static let lengthBase = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
  ]
  static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
  static let distanceBase = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
    6145, 8193, 12289, 16385, 24577,
  ]
  static let distanceExtra = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
  ]

  /// An LSB-first bit sink (RFC 1951 §3.1.1).
  struct Bits {
    var bytes: [UInt8] = []
    var buffer: UInt64 = 0
    var count = 0

    mutating func write(_ value: Int, _ width: Int) {
      buffer |= UInt64(value) << UInt64(count)
      count += width
      while count >= 8 {
        bytes.append(UInt8(truncatingIfNeeded: buffer))
        buffer >>= 8
        count -= 8
      }
    }

    /// A Huffman codeword, sent most significant bit first.
    mutating func code(_ value: Int, _ width: Int) {
      var reversed = 0
      for bit in 0..<width { reversed |= (value >> bit & 1) << (width - 1 - bit) }
      write(reversed, width)
    }

    mutating func finish() -> [UInt8] {
      if count > 0 { write(0, 8 - count) }
      return bytes
    }
  }

  /// The literal/length symbol's fixed codeword.
  static func writeLiteralLength(_ symbol: Int, into bits: inout Bits) {
    switch symbol {
    case 0..<144: bits.code(0x30 + symbol, 8)
    case 144..<256: bits.code(0x190 + symbol - 144, 9)
    case 256..<280: bits.code(symbol - 256, 7)
    default: bits.code(0xC0 + symbol - 280, 8)
    }
  }

  /// One final fixed-Huffman block holding `symbols`.
  static func encode(_ symbols: [Symbol]) -> [UInt8] {
    var bits = Bits()
    bits.write(1, 1)
    bits.write(1, 2)
    for symbol in symbols {
      switch symbol {
      case .literal(let byte):
        writeLiteralLength(Int(byte), into: &bits)
      case .match(let length, let distance):
        let lengthCode = (lengthBase.lastIndex { $0 <= length }) ?? 0
        writeLiteralLength(257 + lengthCode, into: &bits)
        bits.write(length - lengthBase[lengthCode], lengthExtra[lengthCode])
        let distanceCode = (distanceBase.lastIndex { $0 <= distance }) ?? 0
        bits.code(distanceCode, 5)
        bits.write(distance - distanceBase[distanceCode], distanceExtra[distanceCode])
      }
    }
    writeLiteralLength(256, into: &bits)
    return bits.finish()
  }

  /// What `symbols` decode to, one byte at a time.
  static func reference(_ symbols: [Symbol]) -> [UInt8] {
    var output: [UInt8] = []
    for symbol in symbols {
      switch symbol {
      case .literal(let byte):
        output.append(byte)
      case .match(let length, let distance):
        for _ in 0..<length { output.append(output[output.count - distance]) }
      }
    }
    return output
  }

  /// The first index where `output` differs from `expected` (nil when equal): a failure names a
  /// position instead of printing megabytes.
  static func firstDifference(_ output: [UInt8], _ expected: [UInt8]) -> Int? {
    if output == expected { return nil }
    let common = min(output.count, expected.count)
    return (0..<common).first { output[$0] != expected[$0] } ?? common
  }

  /// Every length with distances around each copy width (1, 2...7, 8...15, 16...63 and beyond), a
  /// few literals between the matches.
  static let symbols: [Symbol] = {
    var random = SplitMix64(seed: 0x1951)
    var symbols: [Symbol] = []
    var produced = 0
    func literals(_ count: Int) {
      for _ in 0..<count { symbols.append(.literal(UInt8(truncatingIfNeeded: random.next()))) }
      produced += count
    }
    literals(40_000)
    let distances = [
      1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 49, 63, 64, 65, 100, 255, 256, 257, 300, 1000,
      32_768,
    ]
    for length in 3...258 {
      for distance in distances {
        symbols.append(.match(length: length, distance: distance))
        produced += length
        literals(Int(random.next() % 3))
      }
    }
    return symbols
  }()

  @Test func everyLengthAtEveryDistanceClass() throws {
    let expected = Self.reference(Self.symbols)
    let stream = Self.encode(Self.symbols)
    #expect(Self.firstDifference(try Inflate.decompress(stream), expected) == nil)
  }

  /// Output limits and size hints move the switch between the fast loop and the careful tail (and
  /// the output-full stops) across the matches.
  @Test func matchesAcrossTheFastLoopBoundary() throws {
    let symbols = Array(Self.symbols.suffix(3000))
    let prefix: [Symbol] = (0..<40_000).map { .literal(UInt8(truncatingIfNeeded: $0 &* 7)) }
    let all = prefix + symbols
    let expected = Self.reference(all)
    let stream = Self.encode(all)
    for hint in [1, 299, 300, 301, 40_257, expected.count - 300, expected.count - 1, expected.count] {
      var output: [UInt8] = []
      let end = try Inflate.decompress(
        stream, startingAt: 0, appendingTo: &output, maxOutputByteCount: expected.count, expectedOutputByteCount: hint)
      #expect(end == stream.count)
      #expect(Self.firstDifference(output, expected) == nil, "hint \(hint)")
    }
    #expect(throws: CompressionError.outputLimitExceeded(limit: expected.count - 1)) {
      try Inflate.decompress(stream, maxOutputByteCount: expected.count - 1)
    }
  }

  /// A distance one past the bytes produced is refused wherever it falls (fast loop or tail).
  @Test func distanceOnePastTheStartFails() {
    for count in [1, 10, 299, 300, 5000] {
      var symbols: [Symbol] = (0..<count).map { .literal(UInt8(truncatingIfNeeded: $0)) }
      symbols.append(.match(length: 258, distance: count + 1))
      symbols += (0..<400).map { .literal(UInt8(truncatingIfNeeded: $0)) }
      #expect(throws: CompressionError.self, "after \(count) bytes") {
        try Inflate.decompress(Self.encode(symbols))
      }
    }
  }
}
