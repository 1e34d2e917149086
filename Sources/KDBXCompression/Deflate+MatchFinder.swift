// The LZ77 parse kernels (RFC 1951 §4): hash chains over 4-byte prefixes plus a one-entry table of
// 3-byte prefixes (for 3-byte matches, which chains of 4-byte prefixes cannot find), greedy
// (levels 1...3) or lazy (levels 4...9) matching. They append symbols to the block buffer and
// return when the segment is done, the buffer is full, or the block-split heuristic ends the block.
// A kernel never returns with a match pending, so a block always ends on a symbol boundary.

/// Raw pointers to the encoder's buffers for one kernel call.
// SAFETY: built only by withContext, whose closures lend each array's storage for the body's call; the
// context is not stored and dies with the body. Sizes: head 2^hashBits, head3 2^hash3Bits, chain windowSize
// (32 KiB), symbols min(maxBlockSymbols, input) + 4, observations 20; `bytes` is the whole input.
struct MatchFinderContext {
  let bytes: UnsafeRawPointer
  /// The latest position (relative to `segmentStart`) of each 4-byte hash.
  let head: UnsafeMutablePointer<Int32>
  /// The latest position (relative to `segmentStart`) of each 3-byte hash.
  let head3: UnsafeMutablePointer<Int32>
  /// Distance from each window position back to the previous position with the same 4-byte hash
  /// (16-bit distances to halve the cache footprint); 0xFFFF ends the chain.
  let chain: UnsafeMutablePointer<UInt16>
  // SAFETY: see the note on the struct: lent for one kernel call; symbols and observations are bounded by
  // the kernels' block-full test and the 20-entry layout.
  let symbols: UnsafeMutablePointer<UInt32>
  let observations: UnsafeMutablePointer<UInt32>
  let segmentStart: Int

  /// Hash of the 4 bytes at `position`. SAFETY: position + 4 <= input count (callers check).
  @inline(__always)
  func hash4(_ word: UInt32) -> Int {
    Int(truncatingIfNeeded: (word &* 0x1E35_A7BD) &>> UInt32(32 - DeflateEncoder.hashBits))
  }

  @inline(__always)
  func hash3(_ word: UInt32) -> Int {
    Int(truncatingIfNeeded: ((word & 0xFF_FFFF) &* 0x9E37_79B1) &>> UInt32(32 - DeflateEncoder.hash3Bits))
  }

  /// The 4 bytes at `position`, little-endian. SAFETY: position + 4 <= input count (callers check).
  @inline(__always)
  func word(_ position: Int) -> UInt32 {
    bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
  }

  /// Inserts `position` into the 4-byte chain and the 3-byte table and returns the previous
  /// positions there (absolute, below `segmentStart` when there is none).
  /// SAFETY: position + 4 <= input count.
  @inline(__always)
  func insert(_ position: Int) -> (three: Int, four: Int) {
    let word = self.word(position)
    let slot = hash4(word)
    let slot3 = hash3(word)
    // SAFETY: slot < 1 << hashBits, slot3 < 1 << hash3Bits; position & windowMask < windowSize.
    let previous = Int(head[slot]) &+ segmentStart
    let previous3 = Int(head3[slot3]) &+ segmentStart
    let relative = Int32(truncatingIfNeeded: position &- segmentStart)
    chain[position & DeflateEncoder.windowMask] = UInt16(truncatingIfNeeded: min(position &- previous, 0xFFFF))
    head[slot] = relative
    head3[slot3] = relative
    return (previous3, previous)
  }

  /// Inserts `position` into the 4-byte chain only (positions inside a match, where a 3-byte match
  /// would rarely win). SAFETY: position + 4 <= input count.
  @inline(__always)
  func insertFour(_ position: Int) {
    let slot = hash4(word(position))
    let previous = Int(head[slot]) &+ segmentStart
    chain[position & DeflateEncoder.windowMask] = UInt16(truncatingIfNeeded: min(position &- previous, 0xFFFF))
    head[slot] = Int32(truncatingIfNeeded: position &- segmentStart)
  }

  /// The number of equal bytes at `a` and `b`, at most `maxLength`.
  /// SAFETY: a < b and b + maxLength <= input count.
  @inline(__always)
  func matchLength(_ a: Int, _ b: Int, _ maxLength: Int) -> Int {
    var length = 0
    while length &+ 8 <= maxLength {
      let difference =
        bytes.loadUnaligned(fromByteOffset: a &+ length, as: UInt64.self)
        ^ bytes.loadUnaligned(fromByteOffset: b &+ length, as: UInt64.self)
      if difference != 0 {
        return length &+ (UInt64(littleEndian: difference).trailingZeroBitCount &>> 3)
      }
      length &+= 8
    }
    while length < maxLength
      && bytes.load(fromByteOffset: a &+ length, as: UInt8.self)
        == bytes.load(fromByteOffset: b &+ length, as: UInt8.self)
    {
      length &+= 1
    }
    return length
  }

  /// The longest match at `position` longer than `bestLength`: first the 3-byte table's candidate
  /// (when `bestLength` < 3), then up to `depth` links of the 4-byte chain from `candidate`.
  /// Returns (length, distance), distance 0 when nothing longer was found.
  /// SAFETY: position + 4 <= count, position + maxLength <= count, bestLength < maxLength,
  /// maxLength >= 4.
  @inline(__always)
  func longestMatch(
    _ position: Int, three: Int, four candidate: Int, bestLength: Int, depth: Int, niceLength: Int, maxLength: Int
  ) -> (Int, Int) {
    var best = bestLength
    var distance = 0
    let limit = max(position &- DeflateEncoder.maxDistance, segmentStart)
    let first = word(position)
    if best < 3 && three >= limit && word(three) & 0xFF_FFFF == first & 0xFF_FFFF {
      best = 3
      distance = position &- three
    }
    var candidate = candidate
    var remaining = depth
    let nice = min(niceLength, maxLength)
    // Compare the 4 bytes that end at the current best length first: a longer match must agree there.
    var tailOffset = max(best, 4) &- 4
    var tail = word(position &+ tailOffset)
    while candidate >= limit && remaining > 0 {
      if word(candidate &+ tailOffset) == tail && word(candidate) == first {
        let length = matchLength(candidate, position, maxLength)
        if length > best {
          best = length
          distance = position &- candidate
          if length >= nice { break }
          tailOffset = best &- 3
          tail = word(position &+ tailOffset)
        }
      }
      // The distances are at least 1, so the walk strictly moves back and ends below `limit`.
      candidate &-= Int(chain[candidate & DeflateEncoder.windowMask])
      remaining &-= 1
    }
    return (best, distance)
  }
}

extension DeflateEncoder {
  /// Runs `body` with raw pointers to the input and the encoder's tables.
  mutating func withContext(_ body: (MatchFinderContext) -> Void) {
    var head = self.head
    var head3 = self.head3
    var chain = self.chain
    var symbols = self.symbols
    var observations = self.observations
    self.head = []
    self.head3 = []
    self.chain = []
    self.symbols = []
    self.observations = []
    let segmentStart = self.segmentStart
    // SAFETY: the tables are moved into locals first, so the closures' mutable access to them does not
    // overlap `self` (and the bodies never touch self); every buffer outlives the body, which keeps no pointer.
    input.withUnsafeBytes { bytes in
      head.withUnsafeMutableBufferPointer { head in
        head3.withUnsafeMutableBufferPointer { head3 in
          chain.withUnsafeMutableBufferPointer { chain in
            symbols.withUnsafeMutableBufferPointer { symbols in
              observations.withUnsafeMutableBufferPointer { observations in
                guard let bytes = bytes.baseAddress, let head = head.baseAddress, let head3 = head3.baseAddress,
                  let chain = chain.baseAddress, let symbols = symbols.baseAddress,
                  let observations = observations.baseAddress
                else { return }
                body(
                  MatchFinderContext(
                    bytes: bytes, head: head, head3: head3, chain: chain, symbols: symbols,
                    observations: observations, segmentStart: segmentStart))
              }
            }
          }
        }
      }
    }
    self.head = head
    self.head3 = head3
    self.chain = chain
    self.symbols = symbols
    self.observations = observations
  }

  /// Whether the block should end after this observation round: true when the round's symbol
  /// statistics differ from the block's so far, that is when the L1 distance between the two
  /// distributions (10 classes: literals by their top 3 bits, short and long matches) exceeds
  /// 0.5. Otherwise the round is merged into the block's counts. (The threshold was tuned on the
  /// benchmark document: 0.5 beats both 0.31 and no splitting at levels 1 and 6.)
  @inline(__always)
  // SAFETY: `observations` is the context's 20-entry table; indices below are index and 10 + index, < 20.
  static func shouldEndBlock(_ observations: UnsafeMutablePointer<UInt32>, blockCount: Int, roundCount: Int) -> Bool {
    if blockCount >= minBlockObservations {
      var delta = 0
      for index in 0..<10 {
        let scaledRound = Int(observations[10 &+ index]) &* blockCount
        let scaledBlock = Int(observations[index]) &* roundCount
        delta &+= scaledRound > scaledBlock ? scaledRound &- scaledBlock : scaledBlock &- scaledRound
      }
      if delta &* 2 > blockCount &* roundCount { return true }
    }
    for index in 0..<10 {
      observations[index] &+= observations[10 &+ index]
      observations[10 &+ index] = 0
    }
    return false
  }

  /// Greedy parse (levels 1...3): take the longest match at each position.
  mutating func parseGreedy(segmentEnd: Int) {
    var registers = ParseRegisters(self)
    let level = self.level
    withContext { context in
      Self.greedyKernel(context, level, segmentEnd: segmentEnd, &registers)
    }
    registers.store(into: &self)
  }

  /// Lazy parse (levels 4...9, RFC 1951 §4): a match is only taken if the next position does not
  /// start a match that is worth more.
  mutating func parseLazy(segmentEnd: Int) {
    var registers = ParseRegisters(self)
    let level = self.level
    withContext { context in
      Self.lazyKernel(context, level, segmentEnd: segmentEnd, &registers)
    }
    registers.store(into: &self)
  }

  static func greedyKernel(
    _ context: MatchFinderContext, _ level: DeflateLevel, segmentEnd: Int, _ registers: inout ParseRegisters
  ) {
    var position = registers.position
    var symbolCount = registers.symbolCount
    var blockBytes = registers.blockBytes
    var blockObservations = registers.blockObservations
    defer {
      registers.position = position
      registers.symbolCount = symbolCount
      registers.blockBytes = blockBytes
      registers.blockObservations = blockObservations
    }
    let hashEnd = segmentEnd &- 3
    while position < segmentEnd {
      if symbolCount >= Self.maxBlockSymbols { break }
      if symbolCount &- blockObservations >= Self.observationRound {
        let round = symbolCount &- blockObservations
        if Self.shouldEndBlock(context.observations, blockCount: blockObservations, roundCount: round) { break }
        blockObservations = symbolCount
      }
      var length = 0
      var distance = 0
      let maxLength = min(DeflateConstants.maxMatch, segmentEnd &- position)
      if position < hashEnd && maxLength >= 4 {
        let (three, four) = context.insert(position)
        (length, distance) = context.longestMatch(
          position, three: three, four: four, bestLength: 2, depth: level.chainLength,
          niceLength: level.niceLength, maxLength: maxLength)
      }
      // SAFETY: symbolCount < min(maxBlockSymbols, bytes of the piece) < symbols capacity (a symbol
      // covers at least one byte); observation indices < 20.
      if distance != 0 {
        context.symbols[symbolCount] = UInt32(distance) << 9 | UInt32(length)
        context.observations[length >= 9 ? 19 : 18] &+= 1
        if length <= level.lazyLength {
          let insertEnd = min(position &+ length, hashEnd)
          var next = position &+ 1
          while next < insertEnd {
            context.insertFour(next)
            next &+= 1
          }
        }
        position &+= length
        blockBytes &+= length
      } else {
        let byte = context.bytes.load(fromByteOffset: position, as: UInt8.self)
        context.symbols[symbolCount] = UInt32(byte)
        context.observations[10 &+ Int(byte &>> 5)] &+= 1
        position &+= 1
        blockBytes &+= 1
      }
      symbolCount &+= 1
    }
  }

  /// Whether the match (`nextLength`, `nextDistance`) one byte later is worth more than the current
  /// one (`length`, `distance`) plus a literal: each extra byte of length counts 4, each bit of
  /// distance saved counts 1, and the literal costs about 2.
  @inline(__always)
  static func nextIsBetter(_ length: Int, _ distance: Int, _ nextLength: Int, _ nextDistance: Int) -> Bool {
    let distanceBits = (UInt32(truncatingIfNeeded: distance) | 1).leadingZeroBitCount
    let nextDistanceBits = (UInt32(truncatingIfNeeded: nextDistance) | 1).leadingZeroBitCount
    return (nextLength &- length) &* 4 &+ (nextDistanceBits &- distanceBits) > 2
  }

  static func lazyKernel(
    _ context: MatchFinderContext, _ level: DeflateLevel, segmentEnd: Int, _ registers: inout ParseRegisters
  ) {
    var position = registers.position
    var symbolCount = registers.symbolCount
    var blockBytes = registers.blockBytes
    var blockObservations = registers.blockObservations
    defer {
      registers.position = position
      registers.symbolCount = symbolCount
      registers.blockBytes = blockBytes
      registers.blockObservations = blockObservations
    }
    let hashEnd = segmentEnd &- 3
    let nice = level.niceLength
    let depth = level.chainLength
    let lazyCutoff = min(nice, level.lazyLength)
    // SAFETY: (for every symbol and observation store below) symbolCount stays at most
    // maxBlockSymbols + 1 (literals are only added below maxBlockSymbols, and one match after them)
    // and at most the bytes of the piece, below the symbols capacity; observation indices are below 20.
    @inline(__always) func literal(_ at: Int) {
      let byte = context.bytes.load(fromByteOffset: at, as: UInt8.self)
      context.symbols[symbolCount] = UInt32(byte)
      context.observations[10 &+ Int(byte &>> 5)] &+= 1
      symbolCount &+= 1
      blockBytes &+= 1
    }
    while position < segmentEnd {
      if symbolCount >= Self.maxBlockSymbols { break }
      if symbolCount &- blockObservations >= Self.observationRound {
        let round = symbolCount &- blockObservations
        if Self.shouldEndBlock(context.observations, blockCount: blockObservations, roundCount: round) { break }
        blockObservations = symbolCount
      }
      var maxLength = min(DeflateConstants.maxMatch, segmentEnd &- position)
      if position >= hashEnd || maxLength < 4 {
        literal(position)
        position &+= 1
        continue
      }
      var (three, four) = context.insert(position)
      var (length, distance) = context.longestMatch(
        position, three: three, four: four, bestLength: 2, depth: depth, niceLength: nice, maxLength: maxLength)
      // A 3-byte match far away costs more than its literals.
      if distance == 0 || (length == 3 && distance > 4096) {
        literal(position)
        position &+= 1
        continue
      }
      // Lazy evaluation: while the next position starts a better match, emit a literal and move on.
      while length < lazyCutoff && position &+ 1 < hashEnd && symbolCount < Self.maxBlockSymbols {
        maxLength = min(DeflateConstants.maxMatch, segmentEnd &- position &- 1)
        if maxLength <= length || maxLength < 4 { break }
        (three, four) = context.insert(position &+ 1)
        let nextDepth = length >= level.goodLength ? depth &>> 2 : depth
        let (nextLength, nextDistance) = context.longestMatch(
          position &+ 1, three: three, four: four, bestLength: length, depth: nextDepth, niceLength: nice,
          maxLength: maxLength)
        if nextDistance == 0 || !Self.nextIsBetter(length, distance, nextLength, nextDistance) {
          // `position + 1` is hashed already; the match's remaining positions are hashed below.
          context.symbols[symbolCount] = UInt32(distance) << 9 | UInt32(length)
          context.observations[length >= 9 ? 19 : 18] &+= 1
          symbolCount &+= 1
          blockBytes &+= length
          let insertEnd = min(position &+ length, hashEnd)
          var next = position &+ 2
          while next < insertEnd {
            context.insertFour(next)
            next &+= 1
          }
          position &+= length
          length = 0
          break
        }
        literal(position)
        position &+= 1
        length = nextLength
        distance = nextDistance
      }
      if length != 0 {
        context.symbols[symbolCount] = UInt32(distance) << 9 | UInt32(length)
        context.observations[length >= 9 ? 19 : 18] &+= 1
        symbolCount &+= 1
        blockBytes &+= length
        let insertEnd = min(position &+ length, hashEnd)
        var next = position &+ 1
        while next < insertEnd {
          context.insertFour(next)
          next &+= 1
        }
        position &+= length
      }
    }
  }
}

/// The parse state passed in and out of the kernels, so that the kernels keep it in locals.
struct ParseRegisters {
  var position: Int
  var symbolCount: Int
  var blockBytes: Int
  var blockObservations: Int

  init(_ encoder: DeflateEncoder) {
    position = encoder.position
    symbolCount = encoder.symbolCount
    blockBytes = encoder.blockByteCount
    blockObservations = encoder.blockObservationCount
  }

  func store(into encoder: inout DeflateEncoder) {
    encoder.position = position
    encoder.symbolCount = symbolCount
    encoder.blockByteCount = blockBytes
    encoder.blockObservationCount = blockObservations
  }
}
