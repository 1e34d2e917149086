import KDBXBase

/// Gzip compression (RFC 1952) in pieces on several cores, for the KDBX module's primitives and its save pipeline:
/// each piece is a DEFLATE stream that uses the 32 KiB before it as its dictionary (RFC 1951 allows any block
/// boundaries), so that joined, the pieces are one stream, about 0.1% larger than in one piece.
package enum ParallelGzip {
  /// The DEFLATE level of saved payloads: 6, zlib's default, which KeePass and KeePassXC use too.
  package static let compressionLevel = 6
  /// Payloads smaller than twice this are compressed in one piece.
  package static let minimumPiece = 1 << 20

  /// `bytes` as one gzip member, compressed in up to `maxConcurrency` pieces at once.
  package static func compress(_ bytes: [UInt8], maxConcurrency: Int) -> [UInt8] {
    let pieces = min(max(maxConcurrency, 1), bytes.count / minimumPiece)
    guard pieces > 1 else { return Gzip.compress(bytes, level: compressionLevel) }
    let streams = ParallelWork.map(count: pieces, maxConcurrency: pieces) { index in
      compressPiece(index, of: pieces, bytes)
    }
    return member(streams, of: bytes)
  }

  /// The DEFLATE stream of piece `index` of `count` equal pieces of `bytes[start...]`, using the 32 KiB before it
  /// as its dictionary; the last one ends the stream.
  package static func compressPiece(_ index: Int, of count: Int, _ bytes: [UInt8], from start: Int = 0) -> [UInt8] {
    let pieceSize = (bytes.count - start + count - 1) / count
    let lower = min(start + index * pieceSize, bytes.count)
    let upper = min(lower + pieceSize, bytes.count)
    return Deflate.compress(bytes, piece: lower..<upper, level: compressionLevel, isFinal: upper == bytes.count)
  }

  /// The DEFLATE stream of a hand-off of the save pipeline: its new bytes, after the window before them (never
  /// final).
  package static func compressHandOff(_ piece: (bytes: [UInt8], start: Int)) -> [UInt8] {
    Deflate.compress(piece.bytes, piece: piece.start..<piece.bytes.count, level: compressionLevel, isFinal: false)
  }

  /// The gzip member (RFC 1952) of the joined piece `streams` of `bytes`.
  package static func member(_ streams: [[UInt8]], of bytes: [UInt8]) -> [UInt8] {
    Gzip.member(
      deflatePieces: streams, checksum: CRC32.checksum(bytes), byteCount: bytes.count, level: compressionLevel)
  }
}
