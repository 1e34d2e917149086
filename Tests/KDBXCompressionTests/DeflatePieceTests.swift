import KDBXCompression
import Testing
import VectorSupport

/// DEFLATE in pieces (`Deflate.compress(_:piece:level:isFinal:)`): the concatenated pieces form one RFC 1951
/// stream, which our inflater and zlib both decode, whatever the piece boundaries.
@Suite("Deflate in pieces")
struct DeflatePieceTests {
  /// Splits `input` at `cuts` and compresses each piece.
  static func compressInPieces(_ input: [UInt8], cuts: [Int], level: Int) -> [UInt8] {
    let bounds = [0] + cuts + [input.count]
    var stream: [UInt8] = []
    for index in 0..<bounds.count - 1 {
      let piece = bounds[index]..<bounds[index + 1]
      stream += Deflate.compress(input, piece: piece, level: level, isFinal: index == bounds.count - 2)
    }
    return stream
  }

  @Test("pieces join into one stream", arguments: [1, 4, 6, 9])
  func piecesJoin(level: Int) throws {
    var random = SplitMix64(seed: UInt64(level) &* 77)
    let input = random.text(300_000) + random.bytes(5_000) + random.text(100_000)
    for cuts in [[150_000], [1, 2, 3], [65_536, 65_537, 200_000], [0], [input.count], [299_999, 305_000, 399_990]] {
      let stream = Self.compressInPieces(input, cuts: cuts, level: level)
      #expect(try Inflate.decompress(stream) == input, "level \(level), cuts \(cuts)")
      if Interop.python != nil {
        #expect(try Interop.python("out = zlib.decompress(data, -15)", input: stream) == input, "cuts \(cuts)")
      }
    }
  }

  @Test("a piece reuses the 32 KiB before it as its dictionary")
  func dictionaryReachesBack() throws {
    var random = SplitMix64(seed: 5)
    let block = random.bytes(20_000)
    let input = block + block  // the second half is one long match into the first
    let whole = Deflate.compress(input, level: 6)
    let pieces = Self.compressInPieces(input, cuts: [20_000], level: 6)
    #expect(try Inflate.decompress(pieces) == input)
    // Without the dictionary the second piece would cost another 20,000 bytes.
    #expect(pieces.count < whole.count + 1_000)
  }

  @Test("a non-final piece ends with a sync flush on a byte boundary")
  func syncFlush() {
    let input = Array("piece piece piece piece".utf8)
    let piece = Deflate.compress(input, piece: 0..<10, level: 6, isFinal: false)
    #expect(Array(piece.suffix(4)) == [0x00, 0x00, 0xFF, 0xFF])
  }

  @Test("a gzip member around pieces decompresses and checks its CRC")
  func gzipMember() throws {
    var random = SplitMix64(seed: 11)
    let input = random.text(200_000)
    let stream = Self.compressInPieces(input, cuts: [70_000, 140_000], level: 6)
    let member = Gzip.member(deflateStream: stream, checksum: CRC32.checksum(input), byteCount: input.count)
    #expect(try Gzip.decompress(member) == input)
    #expect(member == Gzip.member(deflateStream: stream, checksum: CRC32.checksum(input), byteCount: input.count))
    // The pieces given separately make the same member, with and without the optional header fields.
    let bounds = [0, 70_000, 140_000, input.count]
    let pieces = (0..<3).map { index in
      Deflate.compress(input, piece: bounds[index]..<bounds[index + 1], level: 6, isFinal: index == 2)
    }
    #expect(pieces.reduce([], +) == stream)
    let checksum = CRC32.checksum(input)
    #expect(Gzip.member(deflatePieces: pieces, checksum: checksum, byteCount: input.count) == member)
    var header = Gzip.Header()
    header.name = Array("vault.xml".utf8)
    header.comment = Array("pieces".utf8)
    header.extra = [1, 2, 3]
    header.hasHeaderCRC = true
    #expect(
      Gzip.member(deflatePieces: pieces, checksum: checksum, byteCount: input.count, level: 9, header: header)
        == Gzip.member(deflateStream: stream, checksum: checksum, byteCount: input.count, level: 9, header: header))
    #expect(
      Gzip.member(deflatePieces: [], checksum: 0, byteCount: 0)
        == Gzip.member(deflateStream: [], checksum: 0, byteCount: 0))
    var damaged = member
    damaged[damaged.count - 6] ^= 1  // the CRC-32
    #expect(throws: CompressionError.self) { try Gzip.decompress(damaged) }
    if Interop.python != nil {
      #expect(try Interop.python("import gzip; out = gzip.decompress(data)", input: member) == input)
    }
  }
}
