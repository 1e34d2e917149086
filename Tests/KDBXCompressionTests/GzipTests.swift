import KDBXCompression
import Testing
import VectorSupport

@Suite("Gzip")
struct GzipTests {
  @Test func roundTripWithEveryHeaderField() throws {
    var random = SplitMix64(seed: 52)
    let input = random.text(20000)
    let header = Gzip.Header(
      name: Array("vault.xml".utf8), comment: Array("a comment".utf8), extra: [0x41, 0x42, 0x00, 0x00],
      modificationTime: 1_700_000_000, hasHeaderCRC: true)
    let packed = Gzip.compress(input, level: 6, header: header)
    #expect(packed[3] == 0x1E)  // FHCRC | FEXTRA | FNAME | FCOMMENT
    #expect(try Gzip.decompress(packed) == input)
  }

  @Test func emptyAndOneByte() throws {
    for input in [[], [0x7A]] as [[UInt8]] {
      for level in [0, 1, 6, 9] {
        #expect(try Gzip.decompress(Gzip.compress(input, level: level)) == input)
      }
    }
  }

  @Test func multiMemberStreamsJoin() throws {
    let first = Array("first member, ".utf8)
    let second = Array("second member".utf8)
    let stream = Gzip.compress(first, level: 1) + Gzip.compress(second, level: 9) + Gzip.compress([], level: 6)
    #expect(try Gzip.decompress(stream) == first + second)
  }

  @Test func outputLimitCoversAllMembers() {
    let member = Gzip.compress([UInt8](repeating: 1, count: 600), level: 6)
    #expect(throws: CompressionError.outputLimitExceeded(limit: 1000)) {
      try Gzip.decompress(member + member, maxOutputByteCount: 1000)
    }
  }

  @Test func everyTruncationFails() {
    let stream = Gzip.compress(Array("truncate me, truncate me, truncate me".utf8), level: 6)
    for length in 0..<stream.count {
      #expect(throws: CompressionError.self) { try Gzip.decompress(Array(stream[..<length])) }
    }
  }

  @Test func wrongISizeHintOnlyCostsSpeed() throws {
    // A member whose ISIZE lies is still rejected by the size check, not mis-sized.
    var stream = Gzip.compress(Array(repeating: 0x61, count: 5000), level: 6)
    stream[stream.count - 1] = 0x7F
    #expect(throws: CompressionError.sizeMismatch(offset: stream.count - 4)) { try Gzip.decompress(stream) }
  }
}
