import KDBXCompression
import Testing
import VectorSupport

@Suite("Deflate")
struct DeflateTests {
  static func inputs() -> [(String, [UInt8])] {
    var random = SplitMix64(seed: 6)
    return [
      ("empty", []),
      ("one byte", [0x41]),
      ("two bytes", [0x00, 0xFF]),
      ("random 70000", random.bytes(70000)),
      ("zeros 100000", [UInt8](repeating: 0, count: 100_000)),
      ("repetitive", Array(repeating: Array("0123456789abcdef!".utf8), count: 3000).flatMap { $0 }),
      ("text 60000", random.text(60000)),
      ("mixed", random.text(15000) + random.bytes(15000) + [UInt8](repeating: 7, count: 15000) + random.text(15000)),
    ]
  }

  @Test(arguments: 0...9)
  func roundTripAtLevel(_ level: Int) throws {
    for (name, input) in Self.inputs() {
      let packed = Deflate.compress(input, level: level)
      #expect(try Inflate.decompress(packed) == input, "\(name) at level \(level)")
      if level == 0 {
        // Stored blocks cost 5 bytes per 65535 input bytes.
        #expect(packed.count == input.count + 5 * max(1, (input.count + 65534) / 65535), "\(name)")
      }
    }
  }

  @Test func incompressibleDataIsStoredNotExpanded() {
    var random = SplitMix64(seed: 7)
    let input = random.bytes(200_000)
    for level in [1, 6, 9] {
      // Stored blocks bound the expansion to 5 bytes per block plus a few bits.
      #expect(Deflate.compress(input, level: level).count <= input.count + input.count / 1000 + 64)
    }
  }

  @Test func higherLevelsAreNotWorseOnText() {
    var random = SplitMix64(seed: 8)
    let input = random.text(100_000)
    let sizes = [1, 6, 9].map { Deflate.compress(input, level: $0).count }
    #expect(sizes[0] >= sizes[1] && sizes[1] >= sizes[2], "\(sizes)")
  }

  /// Fibonacci-distributed literals make an unrestricted Huffman code deeper than 15 bits, so the
  /// length limit has to act; zlib must read the result too.
  @Test func skewedFrequenciesNeedTheLengthLimit() throws {
    var counts: [Int] = [1, 1]
    while counts.count < 26 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
    var input: [UInt8] = []
    for (symbol, count) in counts.enumerated() {
      input += [UInt8](repeating: UInt8(symbol * 9), count: count)
    }
    var random = SplitMix64(seed: 26)
    // Shuffle so that runs (which would become matches) are short.
    var index = input.count - 1
    while index > 0 {
      input.swapAt(index, Int(random.next() % UInt64(index + 1)))
      index -= 1
    }
    for level in [1, 6] {
      let packed = Deflate.compress(input, level: level)
      #expect(try Inflate.decompress(packed) == input)
      if Interop.python != nil {
        #expect(try Interop.python("out = zlib.decompress(data, -15)", input: packed) == input)
      }
    }
  }

  @Test func levelsOutsideTheRangeAreClamped() throws {
    let input = Array("clamp clamp clamp clamp".utf8)
    #expect(Deflate.compress(input, level: -3) == Deflate.compress(input, level: 0))
    #expect(Deflate.compress(input, level: 42) == Deflate.compress(input, level: 9))
  }

  @Test func random1ByteTo300ByteInputs() throws {
    var random = SplitMix64(seed: 9)
    for length in 1...300 {
      let input = length % 2 == 0 ? random.bytes(length) : random.text(length)
      for level in [1, 4, 6] {
        #expect(try Inflate.decompress(Deflate.compress(input, level: level)) == input, "length \(length)")
      }
    }
  }

  /// 64 MiB round trip through gzip at level 1: a 129-byte random pattern repeated (so matches
  /// reach the 258-byte maximum), with one byte changed every 64 KiB. Debug-mode cost is per
  /// symbol, so this stays in seconds; random or text data of this size would take minutes.
  @Test func roundTrip64MiB() throws {
    var random = SplitMix64(seed: 64)
    let pattern = random.bytes(129)
    // Doubling by appending keeps the debug-mode cost at a few memcpy calls.
    var input = pattern
    while input.count < 64 << 20 { input += input }
    input.removeLast(input.count - (64 << 20))
    var block = 0
    while block < input.count >> 16 {
      input[block << 16 | 1000] ^= 0x5A
      block += 1
    }
    let packed = Gzip.compress(input, level: 1)
    #expect(packed.count < input.count / 50)
    #expect(try Gzip.decompress(packed, maxOutputByteCount: 64 << 20) == input)
  }
}
