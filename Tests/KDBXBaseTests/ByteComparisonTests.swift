import KDBXBase
import Testing

@Suite("ByteComparison")
struct ByteComparisonTests {
  /// Bytes that differ from their neighbours, so that a shifted or skipped comparison sees a difference.
  static func pattern(_ count: Int, seed: UInt8 = 0) -> [UInt8] {
    (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ ($0 >> 8) &* 7) &+ seed }
  }

  /// Every length around the four-word step and the 4 KiB check, equal and with one byte changed at every
  /// position (or at a spread of positions for the long ones): the same answer as `Array.==`.
  @Test(arguments: [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 4095, 4096, 4097, 4127, 4128, 8192, 70_001])
  func agreesWithArrayEquality(count: Int) {
    let original = Self.pattern(count)
    #expect(ByteComparison.equal(original, Array(original)))
    let positions = count <= 200 ? Array(0..<count) : Array(stride(from: 0, to: count, by: 97)) + [count - 1]
    for position in positions {
      for flip: UInt8 in [0x01, 0x80] {
        var changed = original
        changed[position] ^= flip
        #expect(!ByteComparison.equal(original, changed), "count \(count), byte \(position) ^ \(flip)")
        #expect(!ByteComparison.equal(changed, original), "count \(count), byte \(position) ^ \(flip)")
      }
    }
  }

  @Test func differentLengthsDiffer() {
    let long = Self.pattern(5000)
    #expect(!ByteComparison.equal(long, Array(long.dropLast())))
    #expect(!ByteComparison.equal(Array(long.prefix(40)), long))
    #expect(!ByteComparison.equal([], [0]))
    #expect(ByteComparison.equal([], []))
  }

  /// A large buffer (a saved document's size) with differences near the start, at each 4 KiB check and at the end.
  @Test func largeBuffers() {
    let original = Self.pattern(9_000_000, seed: 3)
    #expect(ByteComparison.equal(original, Array(original)))
    for position in [0, 4095, 4096, 4_500_000, 8_999_968, 8_999_999] {
      var changed = original
      changed[position] &+= 1
      #expect(!ByteComparison.equal(original, changed), "byte \(position)")
    }
  }
}
