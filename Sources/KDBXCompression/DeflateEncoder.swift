/// The state of one `Deflate.compress` call: the LZ77 parse (hash chains over the 32 KiB window),
/// the current block's symbols, block-split statistics, and the block writer.
struct DeflateEncoder {
  /// Bits of the hash of 4 bytes that heads the chains.
  static let hashBits = 16
  /// Bits of the hash of 3 bytes whose table keeps only the latest position (for 3-byte matches).
  static let hash3Bits = 15
  static let windowMask = DeflateConstants.windowSize - 1
  /// The farthest match distance used: one less than the window, so a chain slot is never the
  /// current position's own slot.
  static let maxDistance = DeflateConstants.windowSize - 1
  static let maxBlockSymbols = 65536
  /// Positions are stored as Int32 relative to a segment start; segments restart the dictionary.
  static let segmentSize = 1 << 30
  /// Symbols per block-split observation round.
  static let observationRound = 512
  static let minBlockObservations = 4096

  let input: [UInt8]
  let level: DeflateLevel
  var writer: BitWriter
  var head = [Int32](repeating: -1, count: 1 << hashBits)
  var head3 = [Int32](repeating: -1, count: 1 << hash3Bits)
  var chain = [UInt16](repeating: 0xFFFF, count: DeflateConstants.windowSize)
  /// A literal is its byte; a match is `distance << 9 | length`.
  /// Room for `min(maxBlockSymbols, bytes to compress) + 4` symbols: a symbol covers at least one byte, and a
  /// kernel stores at most `maxBlockSymbols + 1` symbols per block.
  var symbols: [UInt32]
  var symbolCount = 0
  var blockStart = 0
  var blockByteCount = 0
  var position = 0
  var segmentStart = 0
  /// Observation counts: 0..<10 for the block so far, 10..<20 for the current round.
  var observations = [UInt32](repeating: 0, count: 20)
  var blockObservationCount = 0

  var blockCoder = DeflateBlockCoder()

  /// `byteCount`: how many bytes of `input` this encoder compresses (all of it, or one piece).
  init(input: [UInt8], level: Int, outputCapacity: Int? = nil, byteCount: Int? = nil) {
    self.input = input
    self.level = DeflateLevel(level)
    symbols = [UInt32](repeating: 0, count: min(Self.maxBlockSymbols, byteCount ?? input.count) + 4)
    writer = BitWriter(capacity: outputCapacity ?? input.count / 4 + 1024)
  }

  mutating func run() -> [UInt8] {
    run(end: input.count, isFinal: true)
  }

  /// Compresses `input[start..<end]` as one piece of a longer stream: the (up to) 32 KiB before `start` are
  /// hashed first so that matches may reach back into them, as the decoder has them already. A piece that is
  /// not final ends with an empty stored block (a sync flush), so it ends on a byte boundary.
  mutating func runPiece(start: Int, end: Int, isFinal: Bool) -> [UInt8] {
    segmentStart = max(start - Self.maxDistance, 0)
    position = start
    blockStart = start
    if start > segmentStart {
      let primeEnd = min(start, input.count - 3)
      withContext { context in
        var index = context.segmentStart
        while index < primeEnd {
          _ = context.insert(index)
          index += 1
        }
      }
    }
    return run(end: end, isFinal: isFinal)
  }

  mutating func run(end: Int, isFinal: Bool) -> [UInt8] {
    while true {
      let segmentEnd = min(end, segmentStart + Self.segmentSize)
      if level.lazy { parseLazy(segmentEnd: segmentEnd) } else { parseGreedy(segmentEnd: segmentEnd) }
      let finished = position == end
      if position == segmentEnd && segmentEnd < end {
        for index in 0..<head.count { head[index] = -1 }
        for index in 0..<head3.count { head3[index] = -1 }
        segmentStart = segmentEnd
      }
      flushBlock(final: finished && isFinal)
      if finished { break }
    }
    if !isFinal { writer.writeStoredBlock(input, end..<end, final: false) }
    return writer.finish()
  }

  /// Ends the current block: picks the cheapest of stored, fixed and dynamic and writes it.
  mutating func flushBlock(final: Bool) {
    blockCoder.countFrequencies(symbols, symbolCount)
    let choice = blockCoder.chooseBlockType(storedByteCount: blockByteCount, bitOffset: writer.bitCount)
    switch choice {
    case .stored:
      var start = blockStart
      let end = blockStart + blockByteCount
      repeat {
        let count = min(DeflateConstants.maxStoredLength, end - start)
        writer.writeStoredBlock(input, start..<start + count, final: final && start + count == end)
        start += count
      } while start < end
    case .fixed(let bits), .dynamic(let bits):
      writer.reserve(bits / 8 + 64)
      blockCoder.writeHeader(&writer, final: final)
      blockCoder.writeSymbols(&writer, symbols, symbolCount)
    }
    blockStart += blockByteCount
    blockByteCount = 0
    symbolCount = 0
    for index in 0..<20 { observations[index] = 0 }
    blockObservationCount = 0
  }
}
