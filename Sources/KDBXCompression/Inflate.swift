/// DEFLATE decompression (RFC 1951) over a whole buffer.
///
/// Stored, fixed-Huffman and dynamic-Huffman blocks are decoded by a table-driven kernel with a fast
/// loop (no per-byte bounds checks while a safe margin of input and output remains) and a careful
/// tail. Every malformed stream ends in a typed ``CompressionError`` that carries the input byte
/// offset; output beyond `maxOutputByteCount` ends in ``CompressionError/outputLimitExceeded(limit:)``,
/// which makes decompression bombs harmless.
///
/// ```swift
/// let bytes = try Inflate.decompress(compressed, maxOutputByteCount: 64 << 20)
/// ```
///
/// Not constant-time: timing depends on the data, which is fine for compression.
public enum Inflate {
  /// Decompresses one raw DEFLATE stream (RFC 1951 §3.2) that fills `input` exactly.
  ///
  /// - Parameters:
  ///   - input: the raw DEFLATE stream, no zlib or gzip wrapper.
  ///   - maxOutputByteCount: the most bytes the caller accepts.
  /// - Throws: a ``CompressionError`` naming the failure class and input offset; bytes after the
  ///   final block are ``CompressionError/trailingGarbage(offset:)``.
  public static func decompress(
    _ input: [UInt8], maxOutputByteCount: Int = Int.max
  ) throws(CompressionError) -> [UInt8] {
    var output: [UInt8] = []
    let end = try decompress(input, startingAt: 0, appendingTo: &output, maxOutputByteCount: maxOutputByteCount)
    if end != input.count { throw .trailingGarbage(offset: end) }
    return output
  }

  /// Decompresses the raw DEFLATE stream (RFC 1951 §3.2) that starts at `input[start]`, appending
  /// its bytes to `output`, and returns the offset just past the stream's final block (the rest
  /// of `input` is not read: a gzip trailer, for instance).
  ///
  /// Matches may only reach back to the bytes this stream produced, not to earlier content of
  /// `output`.
  ///
  /// - Parameters:
  ///   - maxOutputByteCount: the most bytes this stream may append.
  ///   - expectedOutputByteCount: a size hint (for example a gzip ISIZE); it only sizes the first
  ///     allocation, so a wrong hint costs speed, not correctness.
  public static func decompress(
    _ input: [UInt8], startingAt start: Int, appendingTo output: inout [UInt8], maxOutputByteCount: Int,
    expectedOutputByteCount: Int? = nil
  ) throws(CompressionError) -> Int {
    precondition(start >= 0 && start <= input.count, "start outside the input")
    let limit = max(0, maxOutputByteCount)
    var state = InflateState(inputPosition: start, outputStart: output.count)
    let (limitEnd, overflow) = output.count.addingReportingOverflow(limit)
    state.outputLimitEnd = overflow ? Int.max : limitEnd
    state.limit = limit
    // The first allocation: the hint when there is one, otherwise 16 times the input on 64-bit
    // systems (XML packs 5-12:1; a growth copies what was written) and 8 times elsewhere. Growth
    // leaves the tail uninitialized, so pages never written cost address space only, not memory.
    let remainingInput = input.count - start
    let factor = MemoryLayout<Int>.size == 8 ? 16 : 8
    let (guess, guessOverflow) = remainingInput.multipliedReportingOverflow(by: factor)
    var firstSize = guessOverflow ? Int.max : guess
    if let hint = expectedOutputByteCount, hint >= 0 {
      // DEFLATE cannot expand more than 1032:1, so a larger hint is a lie.
      let ceiling = remainingInput.multipliedReportingOverflow(by: 1032)
      firstSize = ceiling.overflow ? hint : min(hint, ceiling.partialValue)
    }
    firstSize = min(max(firstSize, 1024), limit)
    output.grow(toCount: output.count + firstSize)
    do {
      try state.run(input, &output)
    } catch {
      output.removeLast(output.count - state.outputStart)
      throw error
    }
    output.removeLast(output.count - state.outputPosition)
    return state.inputPosition - state.bitCount / 8
  }
}

/// What the Huffman kernel reports back to the driver.
enum InflateKernelStatus {
  case endOfBlock
  /// The output buffer is full; `needed` more bytes are required to make progress.
  case outputFull(needed: Int)
  case failed(CompressionError)
}

/// Decoder state shared by the safe driver (block headers, stored blocks) and the kernel.
struct InflateState {
  var inputPosition: Int
  /// Input bits not yet consumed, least significant first. Bits above `bitCount` are either zero
  /// or the true next input bits (the kernel's word refill loads ahead).
  var bitBuffer: UInt64 = 0
  var bitCount = 0
  let outputStart: Int
  var outputPosition: Int
  var outputLimitEnd = Int.max
  var limit = Int.max
  /// The literal/length table, then the distance table at `HuffmanEntry.distanceTableStart`: one
  /// allocation, so that the kernel reaches both through one base register.
  var decodeTables = [UInt32](repeating: 0, count: HuffmanEntry.decodeTablesSize)
  var codeLengthTable = [UInt32](repeating: 0, count: HuffmanEntry.codeLengthTableSize)
  var lengths = [UInt8](repeating: 0, count: 320)
  var scratch = HuffmanBuildScratch()
  var tablesAreFixed = false

  init(inputPosition: Int, outputStart: Int) {
    self.inputPosition = inputPosition
    self.outputStart = outputStart
    self.outputPosition = outputStart
  }

  /// The byte holding the next unread bit.
  var byteOffset: Int { inputPosition - bitCount / 8 }

  mutating func run(_ input: [UInt8], _ output: inout [UInt8]) throws(CompressionError) {
    _ = try forEachBlock(input) { (state, stored) throws(CompressionError) -> Bool in
      if stored { try state.copyStoredBlock(input, &output) } else { try state.decodeHuffmanBlock(input, &output) }
      return true
    }
  }

  /// The blocks of the stream (RFC 1951 §3.2.3) through the final one: reads each block's header, makes its
  /// Huffman tables ready (fixed, or the dynamic header read), and hands it to `block` (`stored`: BTYPE 00),
  /// which reads it and returns `false` to stop there. Returns `false` when `block` stopped, else `true` at the
  /// end of the stream.
  mutating func forEachBlock(
    _ input: [UInt8], _ block: (inout InflateState, _ stored: Bool) throws(CompressionError) -> Bool
  ) throws(CompressionError) -> Bool {
    while true {
      let headerOffset = byteOffset
      let header = try bits(3, input)
      switch header >> 1 {
      case 0:
        break
      case 1:
        if !tablesAreFixed { try buildFixedTables() }
      case 2:
        tablesAreFixed = false
        try readDynamicHeader(input)
      default:
        throw .reservedBlockType(offset: headerOffset)
      }
      guard try block(&self, header >> 1 == 0) else { return false }
      if header & 1 == 1 { break }
    }
    // The stream ends inside its last byte; the unused high bits of that byte are padding, and
    // whatever follows (a gzip trailer, say) starts at the next byte (RFC 1952 §2.2).
    let padding = bitCount & 7
    bitBuffer >>= UInt64(padding)
    bitCount -= padding
    return true
  }

  /// Reads `count` (at most 32) bits, LSB first (RFC 1951 §3.1.1).
  mutating func bits(_ count: Int, _ input: [UInt8]) throws(CompressionError) -> Int {
    while bitCount < count {
      guard inputPosition < input.count else { throw .truncated(offset: input.count) }
      bitBuffer |= UInt64(input[inputPosition]) << UInt64(bitCount)
      inputPosition += 1
      bitCount += 8
    }
    let value = Int(truncatingIfNeeded: bitBuffer & ((1 << UInt64(count)) - 1))
    bitBuffer >>= UInt64(count)
    bitCount -= count
    return value
  }

  /// Makes room for at least `needed` more output bytes, within the caller's limit.
  mutating func grow(_ output: inout [UInt8], needed: Int) throws(CompressionError) {
    let (required, overflow) = outputPosition.addingReportingOverflow(needed)
    if overflow || required > outputLimitEnd { throw .outputLimitExceeded(limit: limit) }
    let produced = output.count - outputStart
    var target = max(required, output.count + max(produced, 1 << 16))
    target = min(target, outputLimitEnd)
    output.grow(toCount: target)
  }

  /// RFC 1951 §3.2.4: a stored block.
  mutating func copyStoredBlock(_ input: [UInt8], _ output: inout [UInt8]) throws(CompressionError) {
    let length = try storedBlockLength(input)
    if output.count - outputPosition < length { try grow(&output, needed: length) }
    Self.copyBytes(from: input, at: inputPosition, to: &output, at: outputPosition, count: length)
    inputPosition += length
    outputPosition += length
  }

  /// Reads a stored block's LEN and NLEN (RFC 1951 §3.2.4), leaving the input at its bytes, and returns LEN once
  /// they are all in the input.
  mutating func storedBlockLength(_ input: [UInt8]) throws(CompressionError) -> Int {
    // Drop the rest of the current byte, then give back the whole bytes still buffered.
    let padding = bitCount & 7
    bitBuffer >>= UInt64(padding)
    bitCount -= padding
    inputPosition -= bitCount / 8
    bitBuffer = 0
    bitCount = 0
    let headerOffset = inputPosition
    guard input.count - inputPosition >= 4 else { throw .truncated(offset: input.count) }
    let length = Int(input[inputPosition]) | Int(input[inputPosition + 1]) << 8
    let complement = Int(input[inputPosition + 2]) | Int(input[inputPosition + 3]) << 8
    guard length ^ complement == 0xFFFF else { throw .invalidStoredLength(offset: headerOffset) }
    inputPosition += 4
    guard input.count - inputPosition >= length else { throw .truncated(offset: input.count) }
    return length
  }

  /// RFC 1951 §3.2.6: the fixed Huffman codes.
  mutating func buildFixedTables() throws(CompressionError) {
    let literal = DeflateConstants.fixedLiteralLengths()
    try HuffmanAlphabet.literalLength.buildTable(
      lengths: literal, start: 0, symbolCount: 288, primaryBits: HuffmanEntry.literalLengthPrimaryBits,
      into: &decodeTables, at: 0, size: HuffmanEntry.literalLengthTableSize, scratch: &scratch, offset: byteOffset)
    try HuffmanAlphabet.distance.buildTable(
      lengths: DeflateConstants.fixedDistanceLengths(), start: 0, symbolCount: 32,
      primaryBits: HuffmanEntry.distancePrimaryBits, into: &decodeTables, at: HuffmanEntry.distanceTableStart,
      size: HuffmanEntry.distanceTableSize, scratch: &scratch, offset: byteOffset)
    tablesAreFixed = true
  }

  /// RFC 1951 §3.2.7: the header of a dynamic-Huffman block.
  mutating func readDynamicHeader(_ input: [UInt8]) throws(CompressionError) {
    let headerOffset = byteOffset
    let literalCount = try bits(5, input) + 257
    let distanceCount = try bits(5, input) + 1
    let codeLengthCount = try bits(4, input) + 4
    if literalCount > 286 || distanceCount > 30 { throw .invalidCodeLengthSequence(offset: headerOffset) }
    for index in 0..<19 { lengths[index] = 0 }
    for index in 0..<codeLengthCount {
      lengths[DeflateConstants.codeLengthOrder[index]] = UInt8(try bits(3, input))
    }
    try HuffmanAlphabet.codeLength.buildTable(
      lengths: lengths, start: 0, symbolCount: 19, primaryBits: HuffmanEntry.codeLengthPrimaryBits,
      into: &codeLengthTable, at: 0, size: HuffmanEntry.codeLengthTableSize, scratch: &scratch, offset: headerOffset)
    let total = literalCount + distanceCount
    var index = 0
    while index < total {
      let symbolOffset = byteOffset
      // Peek up to 7 bits; near the end of the input fewer may exist.
      while bitCount < 7 && inputPosition < input.count {
        bitBuffer |= UInt64(input[inputPosition]) << UInt64(bitCount)
        inputPosition += 1
        bitCount += 8
      }
      let entry = codeLengthTable[Int(truncatingIfNeeded: bitBuffer & 0x7F)]
      let codeLength = Int(entry & 0xFF)
      if codeLength > bitCount { throw .truncated(offset: input.count) }
      bitBuffer >>= UInt64(codeLength)
      bitCount -= codeLength
      let symbol = Int(entry >> 16)
      var repeatCount = 1
      var value: UInt8 = UInt8(truncatingIfNeeded: symbol)
      switch symbol {
      case 16:
        if index == 0 { throw .invalidCodeLengthSequence(offset: symbolOffset) }
        value = lengths[index - 1]
        repeatCount = 3 + (try bits(2, input))
      case 17:
        value = 0
        repeatCount = 3 + (try bits(3, input))
      case 18:
        value = 0
        repeatCount = 11 + (try bits(7, input))
      default:
        break
      }
      if total - index < repeatCount { throw .invalidCodeLengthSequence(offset: symbolOffset) }
      for _ in 0..<repeatCount {
        lengths[index] = value
        index += 1
      }
    }
    if lengths[256] == 0 { throw .incompleteCodeLengths(offset: headerOffset) }
    try HuffmanAlphabet.literalLength.buildTable(
      lengths: lengths, start: 0, symbolCount: literalCount, primaryBits: HuffmanEntry.literalLengthPrimaryBits,
      into: &decodeTables, at: 0, size: HuffmanEntry.literalLengthTableSize, scratch: &scratch,
      offset: headerOffset)
    try HuffmanAlphabet.distance.buildTable(
      lengths: lengths, start: literalCount, symbolCount: distanceCount,
      primaryBits: HuffmanEntry.distancePrimaryBits, into: &decodeTables, at: HuffmanEntry.distanceTableStart,
      size: HuffmanEntry.distanceTableSize, scratch: &scratch, offset: headerOffset)
  }

  /// Runs the kernel over one Huffman block, growing the output when it fills.
  mutating func decodeHuffmanBlock(_ input: [UInt8], _ output: inout [UInt8]) throws(CompressionError) {
    while true {
      switch decodeSymbols(input, &output) {
      case .endOfBlock: return
      case .outputFull(let needed): try grow(&output, needed: needed)
      case .failed(let error): throw error
      }
    }
  }
}
