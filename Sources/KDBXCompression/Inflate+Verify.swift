import KDBXBase

// Checking that a DEFLATE stream (RFC 1951) decodes to given bytes without making its output: a save's read-back
// compares the file with the document it wrote, and a second copy of that document would be its largest
// allocation. Each literal is compared with the expected byte, each match with the expected bytes `distance`
// before it: everything before has matched already, so those are the bytes a decoder would copy.

extension Inflate {
  /// Whether the raw DEFLATE stream (RFC 1951 §3.2) at `input[start]` decodes to exactly `head` followed by
  /// `body`, checked as it decodes: no output is made, so the check costs the memory of the decode tables only.
  ///
  /// - Returns: the offset just past the stream's final block when the stream decodes to those bytes, `nil` when
  ///   its content differs from them (a byte, or the length).
  /// - Throws: what ``decompress(_:startingAt:appendingTo:maxOutputByteCount:expectedOutputByteCount:)`` throws
  ///   for a malformed stream, found before its content differs.
  package static func verify(
    _ input: [UInt8], startingAt start: Int, expecting head: [UInt8], _ body: [UInt8]
  ) throws(CompressionError) -> Int? {
    precondition(start >= 0 && start <= input.count, "start outside the input")
    var state = InflateState(inputPosition: start, outputStart: 0)
    // SAFETY: the expected bytes are read through these pointers inside the closures only (ExpectedOutput checks
    // every range against the two counts).
    let matched = try head.withUnsafeBufferPointer { (head) throws(CompressionError) -> Bool in
      try body.withUnsafeBufferPointer { (body) throws(CompressionError) -> Bool in
        try state.verifyRun(input, ExpectedOutput(head: head, body: body))
      }
    }
    return matched ? state.inputPosition - state.bitCount / 8 : nil
  }
}

/// The bytes a verified stream must decode to: `head` then `body`, addressed as one run of `count` bytes.
// SAFETY: the two buffers are lent by Inflate.verify for the call; every read is at a position below `count`
// (callers check), split between them here.
struct ExpectedOutput {
  let head: UnsafeBufferPointer<UInt8>
  let body: UnsafeBufferPointer<UInt8>

  var count: Int { head.count &+ body.count }

  /// The byte at `position` (< count).
  @inline(__always)
  func byte(at position: Int) -> UInt8 {
    position < head.count ? head[position] : body[position &- head.count]
  }

  /// Whether the `length` bytes at `position` equal those at `source` (both ranges below `count`).
  func equal(_ position: Int, _ source: Int, length: Int) -> Bool {
    // Both in `body` (all but the first 32 KiB after `head`): compared a word at a time.
    // SAFETY: source < position and position + length <= count, so both ranges lie inside `body`.
    if source >= head.count, let base = body.baseAddress {
      return ByteComparison.equal(
        UnsafeRawBufferPointer(start: base + (position &- head.count), count: length),
        UnsafeRawBufferPointer(start: base + (source &- head.count), count: length))
    }
    var index = 0
    while index < length {
      if byte(at: position &+ index) != byte(at: source &+ index) { return false }
      index &+= 1
    }
    return true
  }
}

extension InflateState {
  /// ``run(_:_:)`` comparing with `expected` instead of writing: `outputPosition` counts the bytes matched.
  /// Returns `false` as soon as the content differs, or when it ends short of `expected`.
  mutating func verifyRun(_ input: [UInt8], _ expected: ExpectedOutput) throws(CompressionError) -> Bool {
    let ended = try forEachBlock(input) { (state, stored) throws(CompressionError) -> Bool in
      if stored { return try state.verifyStoredBlock(input, expected) }
      return try state.verifyHuffmanBlock(input, expected)
    }
    return ended && outputPosition == expected.count
  }

  /// A stored block (RFC 1951 §3.2.4) compared with the expected bytes.
  mutating func verifyStoredBlock(_ input: [UInt8], _ expected: ExpectedOutput) throws(CompressionError) -> Bool {
    let length = try storedBlockLength(input)
    guard expected.count - outputPosition >= length else { return false }
    for index in 0..<length where input[inputPosition + index] != expected.byte(at: outputPosition + index) {
      return false
    }
    inputPosition += length
    outputPosition += length
    return true
  }

  /// The symbols of one Huffman block (RFC 1951 §3.2.5) compared with the expected bytes, up to its end.
  mutating func verifyHuffmanBlock(_ input: [UInt8], _ expected: ExpectedOutput) throws(CompressionError) -> Bool {
    var registers = InflateRegisters(
      inPos: inputPosition, bitBuffer: bitBuffer, bitCount: bitCount, outPos: outputPosition)
    let tables = decodeTables
    // SAFETY: the input's and the table's own storage, read inside the closures only; the kernel stays within
    // them (decodeSymbol's notes), and the table's size is checked first.
    let status = input.withUnsafeBufferPointer { inBuffer in
      tables.withUnsafeBufferPointer { (tableBuffer) -> InflateSymbol in
        guard let lit = tableBuffer.baseAddress, tableBuffer.count == HuffmanEntry.decodeTablesSize else {
          return .failed(.invalidSymbol(offset: registers.inPos))
        }
        return Self.verifyKernel(inBuffer, lit, expected, &registers)
      }
    }
    inputPosition = registers.inPos
    bitBuffer = registers.bitBuffer
    bitCount = registers.bitCount
    outputPosition = registers.outPos
    switch status {
    case .endOfBlock: return true
    case .failed(let error): throw error
    // A literal or a match is returned only when it differs from the expected bytes.
    case .literal, .match: return false
    }
  }

  /// The verifier's loop over one block. Returns the end of the block, an error, or the first symbol that
  /// differs from `expected`.
  // SAFETY: inBuffer and `lit` (the whole decode table) are lent by the caller for this call; decodeSymbol reads
  // within them, and `expected` is read below `total` only.
  static func verifyKernel(
    _ inBuffer: UnsafeBufferPointer<UInt8>, _ lit: UnsafePointer<UInt32>, _ expected: ExpectedOutput,
    _ registers: inout InflateRegisters
  ) -> InflateSymbol {
    let total = expected.count
    while true {
      switch decodeSymbol(inBuffer, lit, &registers.inPos, &registers.bitBuffer, &registers.bitCount) {
      case .literal(let byte):
        let position = registers.outPos
        guard position < total, expected.byte(at: position) == byte else { return .literal(byte) }
        registers.outPos = position &+ 1
      case .match(let length, let distance):
        let position = registers.outPos
        if distance > position {
          return .failed(.distanceTooFar(offset: registers.inPos &- registers.bitCount / 8))
        }
        guard total &- position >= length, expected.equal(position, position &- distance, length: length) else {
          return .match(length: length, distance: distance)
        }
        registers.outPos = position &+ length
      case .endOfBlock:
        return .endOfBlock
      case .failed(let error):
        return .failed(error)
      }
    }
  }
}
