/// DEFLATE compression (RFC 1951) of a whole buffer.
///
/// Levels follow zlib's meaning: 0 stores, 1...3 use greedy matching over short hash chains,
/// 4...9 use lazy matching (RFC 1951 §4) over longer chains; 6 is the default. The chains link
/// positions with the same 4-byte prefix, and a table of the latest position of each 3-byte prefix
/// finds 3-byte matches; the lazy levels take a literal and the match one byte later only when that
/// match is worth more (longer, or as long with a much nearer distance). Blocks end where the symbol
/// statistics change (or at 64 Ki symbols), and each block is written as stored, fixed or dynamic
/// Huffman, whichever is smallest, with length-limited codes (15 bits, 7 for the code-length code).
/// Any RFC 1951 decoder (zlib, gzip, Python's `zlib`) reads the output.
///
/// Memory: the output, plus about 0.7 MiB of tables (hash heads and chains for the 32 KiB window,
/// the block's symbols).
///
/// Not constant-time: timing and output depend on the data.
public enum Deflate {
  /// The default level, 6 (as zlib).
  public static let defaultLevel = 6

  /// Compresses `input` into one raw DEFLATE stream (RFC 1951 §3.2) at `level` (clamped to 0...9).
  public static func compress(_ input: [UInt8], level: Int = defaultLevel) -> [UInt8] {
    let level = min(max(level, 0), 9)
    if level == 0 { return storeOnly(input) }
    var encoder = DeflateEncoder(input: input, level: level)
    return encoder.run()
  }

  /// Compresses `input[piece]` as one piece of a raw DEFLATE stream that is compressed piece by piece, for
  /// example on several cores as pigz does. The concatenation of the pieces of consecutive ranges that cover
  /// `input`, the last one with `isFinal`, is one valid RFC 1951 stream of all of `input`.
  ///
  /// Matches may refer back into the 32 KiB before `piece` (the decoder has those bytes by then), so the
  /// output is nearly as small as a single-piece stream. A piece that is not final ends with an empty stored
  /// block (BFINAL = 0, LEN = 0: a "sync flush", RFC 1951 §3.2.4), which leaves it on a byte boundary.
  /// `piece` must lie within `input` (a precondition: it comes from the caller, not from a file).
  public static func compress(_ input: [UInt8], piece: Range<Int>, level: Int = defaultLevel, isFinal: Bool)
    -> [UInt8]
  {
    precondition(piece.lowerBound >= 0 && piece.upperBound <= input.count, "piece outside the input")
    let level = min(max(level, 1), 9)
    var encoder = DeflateEncoder(
      input: input, level: level, outputCapacity: piece.count / 4 + 1024, byteCount: piece.count)
    return encoder.runPiece(start: piece.lowerBound, end: piece.upperBound, isFinal: isFinal)
  }

  /// Level 0: stored blocks of at most 65535 bytes (RFC 1951 §3.2.4).
  static func storeOnly(_ input: [UInt8]) -> [UInt8] {
    var writer = BitWriter(capacity: input.count + input.count / 65535 * 5 + 16)
    var start = 0
    repeat {
      let count = min(DeflateConstants.maxStoredLength, input.count - start)
      writer.writeStoredBlock(input, start..<start + count, final: start + count == input.count)
      start += count
    } while start < input.count
    return writer.finish()
  }
}

extension BitWriter {
  /// Writes one stored block (RFC 1951 §3.2.4): BFINAL, BTYPE = 00, padding, LEN, NLEN, bytes.
  mutating func writeStoredBlock(_ input: [UInt8], _ range: Range<Int>, final: Bool) {
    reserve(range.count + 8)
    write(final ? 1 : 0, 3)
    alignToByte()
    let length = UInt32(range.count)
    write(length | (~length & 0xFFFF) << 16, 32)
    writeBytes(input, range)
  }
}

/// Matching parameters of one level. Levels 1...3 keep zlib's values; the lazy levels search
/// shorter chains (of 4-byte prefixes, so fewer false candidates) than zlib's, tuned on the
/// benchmark document and on text for size and speed.
struct DeflateLevel {
  /// Search a quarter of the chain for a better match one byte later once the current match is this long.
  var goodLength: Int
  /// Lazy levels: do not look for a better match once the current one is this long. Greedy
  /// levels: insert every position of matches up to this long into the hash chains.
  var lazyLength: Int
  /// Stop searching once a match is this long.
  var niceLength: Int
  /// The most chain links followed per search.
  var chainLength: Int
  var lazy: Bool

  init(_ level: Int) {
    switch level {
    case 1: self = .init(4, 4, 8, 4, lazy: false)
    case 2: self = .init(4, 5, 16, 8, lazy: false)
    case 3: self = .init(4, 6, 32, 32, lazy: false)
    case 4: self = .init(4, 258, 32, 16, lazy: true)
    case 5: self = .init(8, 258, 64, 32, lazy: true)
    case 6: self = .init(8, 258, 128, 64, lazy: true)
    case 7: self = .init(16, 258, 128, 128, lazy: true)
    case 8: self = .init(32, 258, 258, 512, lazy: true)
    default: self = .init(32, 258, 258, 2048, lazy: true)
    }
  }

  init(_ good: Int, _ lazyLength: Int, _ nice: Int, _ chain: Int, lazy: Bool) {
    goodLength = good
    self.lazyLength = lazyLength
    niceLength = nice
    chainLength = chain
    self.lazy = lazy
  }
}
