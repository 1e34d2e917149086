// The LZ77 parse kernels (RFC 1951 §4): hash chains over 3-byte prefixes, greedy (levels 1...3)
// or lazy (levels 4...9) matching. They append symbols to the block buffer and return when the
// segment is done, the buffer is full, or the block-split heuristic ends the block.

/// Raw pointers to the encoder's buffers for one kernel call.
struct MatchFinderContext {
  let bytes: UnsafeRawPointer
  let head: UnsafeMutablePointer<Int32>
  /// Distance from each window position back to the previous position with the same hash (zlib's
  /// `prev`, stored as 16-bit distances to halve its cache footprint); 0xFFFF ends the chain.
  let chain: UnsafeMutablePointer<UInt16>
  let symbols: UnsafeMutablePointer<UInt32>
  let observations: UnsafeMutablePointer<UInt32>
  let segmentStart: Int

  /// Hash of the 3 bytes at `position`. SAFETY: position + 4 <= input count (callers check).
  @inline(__always)
  func hash(_ position: Int) -> Int {
    let word = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian & 0xFF_FFFF
    return Int(truncatingIfNeeded: (word &* 0x1E35_A7BD) &>> UInt32(32 - DeflateEncoder.hashBits))
  }

  /// Inserts `position` into its hash chain and returns the previous head (absolute, or below
  /// `segmentStart` when there is none).
  @inline(__always)
  func insert(_ position: Int) -> Int {
    let slot = hash(position)
    // SAFETY: slot < 1 << hashBits; position & windowMask < windowSize.
    let previous = Int(head[slot]) &+ segmentStart
    chain[position & DeflateEncoder.windowMask] = UInt16(truncatingIfNeeded: min(position &- previous, 0xFFFF))
    head[slot] = Int32(truncatingIfNeeded: position &- segmentStart)
    return previous
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

  /// Follows the chain from `candidate` for a match at `position` longer than `bestLength`.
  /// Returns (length, distance), distance 0 when nothing longer was found.
  /// SAFETY: position + 4 <= count, position + maxLength <= count, bestLength < maxLength.
  @inline(__always)
  func longestMatch(
    _ position: Int, _ candidate: Int, bestLength: Int, chainLength: Int, niceLength: Int, maxLength: Int
  ) -> (Int, Int) {
    var best = bestLength
    var distance = 0
    var candidate = candidate
    var remaining = chainLength
    let limit = max(position &- DeflateEncoder.maxDistance, segmentStart)
    let nice = min(niceLength, maxLength)
    let first = bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self) & 0xFF_FFFF
    var tail = bytes.loadUnaligned(fromByteOffset: position &+ best &- 1, as: UInt16.self)
    while candidate >= limit && remaining > 0 {
      if bytes.loadUnaligned(fromByteOffset: candidate &+ best &- 1, as: UInt16.self) == tail
        && bytes.loadUnaligned(fromByteOffset: candidate, as: UInt32.self) & 0xFF_FFFF == first
      {
        let length = matchLength(candidate, position, maxLength)
        if length > best {
          best = length
          distance = position &- candidate
          if length >= nice { break }
          tail = bytes.loadUnaligned(fromByteOffset: position &+ best &- 1, as: UInt16.self)
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
    var chain = self.chain
    var symbols = self.symbols
    var observations = self.observations
    self.head = []
    self.chain = []
    self.symbols = []
    self.observations = []
    let segmentStart = self.segmentStart
    input.withUnsafeBytes { bytes in
      head.withUnsafeMutableBufferPointer { head in
        chain.withUnsafeMutableBufferPointer { chain in
          symbols.withUnsafeMutableBufferPointer { symbols in
            observations.withUnsafeMutableBufferPointer { observations in
              guard let bytes = bytes.baseAddress, let head = head.baseAddress, let chain = chain.baseAddress,
                let symbols = symbols.baseAddress, let observations = observations.baseAddress
              else { return }
              body(
                MatchFinderContext(
                  bytes: bytes, head: head, chain: chain, symbols: symbols, observations: observations,
                  segmentStart: segmentStart))
            }
          }
        }
      }
    }
    self.head = head
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
  /// start a longer one.
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
      if position < hashEnd {
        let candidate = context.insert(position)
        let maxLength = min(DeflateConstants.maxMatch, segmentEnd &- position)
        if candidate >= max(position &- Self.maxDistance, context.segmentStart) {
          (length, distance) = context.longestMatch(
            position, candidate, bestLength: 2, chainLength: level.chainLength, niceLength: level.niceLength,
            maxLength: maxLength)
        }
      }
      // SAFETY: symbolCount < maxBlockSymbols < symbols capacity; observation indices < 20.
      if distance != 0 {
        context.symbols[symbolCount] = UInt32(distance) << 9 | UInt32(length)
        context.observations[length >= 9 ? 19 : 18] &+= 1
        if length <= level.lazyLength {
          let insertEnd = min(position &+ length, hashEnd)
          var next = position &+ 1
          while next < insertEnd {
            _ = context.insert(next)
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

  static func lazyKernel(
    _ context: MatchFinderContext, _ level: DeflateLevel, segmentEnd: Int, _ registers: inout ParseRegisters
  ) {
    var position = registers.position
    var symbolCount = registers.symbolCount
    var blockBytes = registers.blockBytes
    var blockObservations = registers.blockObservations
    var previousLength = registers.previousLength
    var previousDistance = registers.previousDistance
    var available = registers.matchAvailable
    defer {
      registers.position = position
      registers.symbolCount = symbolCount
      registers.blockBytes = blockBytes
      registers.blockObservations = blockObservations
      registers.previousLength = previousLength
      registers.previousDistance = previousDistance
      registers.matchAvailable = available
    }
    let hashEnd = segmentEnd &- 3
    while true {
      if position >= segmentEnd {
        if available {
          let byte = context.bytes.load(fromByteOffset: position &- 1, as: UInt8.self)
          context.symbols[symbolCount] = UInt32(byte)
          context.observations[10 &+ Int(byte &>> 5)] &+= 1
          symbolCount &+= 1
          blockBytes &+= 1
          available = false
        }
        break
      }
      if symbolCount >= Self.maxBlockSymbols { break }
      if symbolCount &- blockObservations >= Self.observationRound {
        let round = symbolCount &- blockObservations
        if Self.shouldEndBlock(context.observations, blockCount: blockObservations, roundCount: round) { break }
        blockObservations = symbolCount
      }
      var length = 2
      var distance = 0
      if position < hashEnd {
        let candidate = context.insert(position)
        let maxLength = min(DeflateConstants.maxMatch, segmentEnd &- position)
        if candidate >= max(position &- Self.maxDistance, context.segmentStart)
          && previousLength < level.lazyLength && previousLength < maxLength
        {
          let chainLength = previousLength >= level.goodLength ? level.chainLength >> 2 : level.chainLength
          (length, distance) = context.longestMatch(
            position, candidate, bestLength: previousLength, chainLength: chainLength,
            niceLength: level.niceLength, maxLength: maxLength)
          // A 3-byte match far away costs more than its literals (zlib's TOO_FAR rule).
          if distance == 0 || (length == 3 && distance > 4096) { length = 2 }
        }
      }
      // SAFETY: symbolCount < maxBlockSymbols < symbols capacity; observation indices < 20.
      if previousLength >= 3 && length <= previousLength {
        context.symbols[symbolCount] = UInt32(previousDistance) << 9 | UInt32(previousLength)
        context.observations[previousLength >= 9 ? 19 : 18] &+= 1
        symbolCount &+= 1
        blockBytes &+= previousLength
        let matchEnd = position &- 1 &+ previousLength
        let insertEnd = min(matchEnd, hashEnd)
        var next = position &+ 1
        while next < insertEnd {
          _ = context.insert(next)
          next &+= 1
        }
        position = matchEnd
        available = false
        previousLength = 2
      } else {
        if available {
          let byte = context.bytes.load(fromByteOffset: position &- 1, as: UInt8.self)
          context.symbols[symbolCount] = UInt32(byte)
          context.observations[10 &+ Int(byte &>> 5)] &+= 1
          symbolCount &+= 1
          blockBytes &+= 1
        }
        available = true
        previousLength = length
        previousDistance = distance
        position &+= 1
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
  var previousLength: Int
  var previousDistance: Int
  var matchAvailable: Bool

  init(_ encoder: DeflateEncoder) {
    position = encoder.position
    symbolCount = encoder.symbolCount
    blockBytes = encoder.blockByteCount
    blockObservations = encoder.blockObservationCount
    previousLength = encoder.previousLength
    previousDistance = encoder.previousDistance
    matchAvailable = encoder.matchAvailable
  }

  func store(into encoder: inout DeflateEncoder) {
    encoder.position = position
    encoder.symbolCount = symbolCount
    encoder.blockByteCount = blockBytes
    encoder.blockObservationCount = blockObservations
    encoder.previousLength = previousLength
    encoder.previousDistance = previousDistance
    encoder.matchAvailable = matchAvailable
  }
}
