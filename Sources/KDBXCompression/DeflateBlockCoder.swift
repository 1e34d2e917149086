/// Chooses and writes the Huffman codes of one block (RFC 1951 §3.2.5–§3.2.7): symbol
/// frequencies, length-limited dynamic codes, the run-length-coded code lengths, and the exact bit
/// cost of each block type.
struct DeflateBlockCoder {
  enum Choice {
    case stored
    case fixed(bits: Int)
    case dynamic(bits: Int)
  }

  var literalFrequencies = [UInt32](repeating: 0, count: 288)
  var distanceFrequencies = [UInt32](repeating: 0, count: 32)
  var literalLengths = [UInt8](repeating: 0, count: 288)
  var distanceLengths = [UInt8](repeating: 0, count: 32)
  var literalCodes = [UInt16](repeating: 0, count: 288)
  var distanceCodes = [UInt16](repeating: 0, count: 32)
  var combinedLengths = [UInt8](repeating: 0, count: 320)
  /// Run-length items: the code-length symbol in bits 0...4, its extra-bits value from bit 5 on.
  var runLengthItems = [UInt16](repeating: 0, count: 320)
  var runLengthCount = 0
  var precodeFrequencies = [UInt32](repeating: 0, count: 19)
  var precodeLengths = [UInt8](repeating: 0, count: 19)
  var precodeCodes = [UInt16](repeating: 0, count: 19)
  var literalCount = 257
  var distanceCount = 1
  var precodeCount = 4
  var isDynamic = true
  var builder = HuffmanCodeBuilder()
  let fixedLiteralLengths = DeflateConstants.fixedLiteralLengths()
  var fixedLiteralCodes = [UInt16](repeating: 0, count: 288)
  var fixedDistanceCodes = [UInt16](repeating: 0, count: 32)
  /// Per-block encode table: entries 0...256 for literals and end-of-block, 256 + length for
  /// lengths 3...258 (codeword with extra bits appended), 515 + symbol for distance codes.
  /// An entry holds the bits in 0...23 and their count in 24...31.
  var encodeTable = [UInt32](repeating: 0, count: 515 + 32)
  /// Length (0...258) to literal/length symbol.
  let lengthSymbol: [UInt16]
  /// Distance to distance symbol: `distance - 1` for distances up to 256, then `256 + (distance - 1) >> 7`.
  let distanceSymbol: [UInt8]

  init() {
    var lengthSymbol = [UInt16](repeating: 0, count: 259)
    for index in 0..<29 {
      let base = Int(DeflateConstants.lengthBase[index])
      let span = 1 << Int(DeflateConstants.lengthExtraBits[index])
      for length in base..<min(base + span, 259) { lengthSymbol[length] = UInt16(257 + index) }
    }
    lengthSymbol[258] = 285
    self.lengthSymbol = lengthSymbol
    var distanceSymbol = [UInt8](repeating: 0, count: 512)
    for index in 0..<30 {
      let base = Int(DeflateConstants.distanceBase[index])
      let span = 1 << Int(DeflateConstants.distanceExtraBits[index])
      for distance in base..<(base + span) {
        if distance <= 256 {
          distanceSymbol[distance - 1] = UInt8(index)
        } else {
          distanceSymbol[256 + (distance - 1) >> 7] = UInt8(index)
        }
      }
    }
    self.distanceSymbol = distanceSymbol
    builder.buildCodes(lengths: fixedLiteralLengths, count: 288, into: &fixedLiteralCodes)
    builder.buildCodes(
      lengths: DeflateConstants.fixedDistanceLengths(), count: 32, into: &fixedDistanceCodes)
  }

  @inline(__always)
  func distanceSymbolIndex(_ distance: Int) -> Int {
    distance <= 256 ? Int(distanceSymbol[distance - 1]) : Int(distanceSymbol[256 + (distance - 1) >> 7])
  }

  mutating func countFrequencies(_ symbols: [UInt32], _ count: Int) {
    for index in 0..<288 { literalFrequencies[index] = 0 }
    for index in 0..<32 { distanceFrequencies[index] = 0 }
    var index = 0
    while index < count {
      let symbol = symbols[index]
      if symbol < 512 {
        literalFrequencies[Int(symbol)] += 1
      } else {
        literalFrequencies[Int(lengthSymbol[Int(symbol & 511)])] += 1
        distanceFrequencies[distanceSymbolIndex(Int(symbol >> 9))] += 1
      }
      index += 1
    }
    literalFrequencies[DeflateConstants.endOfBlock] = 1
  }

  /// Builds the dynamic codes and returns the cheapest block type with its exact size in bits.
  mutating func chooseBlockType(storedByteCount: Int, bitOffset: Int) -> Choice {
    var extraBits = 0
    for index in 0..<29 {
      extraBits += Int(literalFrequencies[257 + index]) * Int(DeflateConstants.lengthExtraBits[index])
    }
    for index in 0..<30 {
      extraBits += Int(distanceFrequencies[index]) * Int(DeflateConstants.distanceExtraBits[index])
    }
    var fixedBits = 3 + extraBits
    for index in 0..<286 { fixedBits += Int(literalFrequencies[index]) * Int(fixedLiteralLengths[index]) }
    for index in 0..<30 { fixedBits += Int(distanceFrequencies[index]) * 5 }

    let dynamicBits = buildDynamicCodes() + extraBits

    let storedBlocks = max(
      1, (storedByteCount + DeflateConstants.maxStoredLength - 1) / DeflateConstants.maxStoredLength)
    let firstPadding = (8 - (bitOffset + 3) % 8) % 8
    let storedBits = storedBlocks * 35 + (storedBlocks - 1) * 5 + firstPadding + 8 * storedByteCount

    if storedBits < fixedBits && storedBits < dynamicBits { return .stored }
    isDynamic = dynamicBits < fixedBits
    return isDynamic ? .dynamic(bits: dynamicBits) : .fixed(bits: fixedBits)
  }

  /// RFC 1951 §3.2.7: builds the dynamic codes and the run-length-coded lengths; returns the bits
  /// of the header and of the coded symbols, without extra bits.
  mutating func buildDynamicCodes() -> Int {
    builder.buildLengths(
      frequencies: literalFrequencies, count: 286, limit: DeflateConstants.maxCodeLength, into: &literalLengths)
    builder.buildLengths(
      frequencies: distanceFrequencies, count: 30, limit: DeflateConstants.maxCodeLength, into: &distanceLengths)
    literalCount = 286
    while literalCount > 257 && literalLengths[literalCount - 1] == 0 { literalCount -= 1 }
    distanceCount = 30
    while distanceCount > 1 && distanceLengths[distanceCount - 1] == 0 { distanceCount -= 1 }
    for index in 0..<literalCount { combinedLengths[index] = literalLengths[index] }
    for index in 0..<distanceCount { combinedLengths[literalCount + index] = distanceLengths[index] }
    let total = literalCount + distanceCount
    for index in 0..<19 { precodeFrequencies[index] = 0 }
    runLengthCount = 0
    var extraBits = 0
    var index = 0
    while index < total {
      let value = combinedLengths[index]
      var run = 1
      while index + run < total && combinedLengths[index + run] == value { run += 1 }
      index += run
      if value == 0 {
        while run >= 11 {
          let take = min(run, 138)
          addItem(18, take - 11)
          extraBits += 7
          run -= take
        }
        if run >= 3 {
          addItem(17, run - 3)
          extraBits += 3
          run = 0
        }
      } else {
        addItem(Int(value), 0)
        run -= 1
        while run >= 3 {
          let take = min(run, 6)
          addItem(16, take - 3)
          extraBits += 2
          run -= take
        }
      }
      for _ in 0..<run { addItem(Int(value), 0) }
    }
    builder.buildLengths(
      frequencies: precodeFrequencies, count: 19, limit: DeflateConstants.maxCodeLengthCodeLength,
      into: &precodeLengths)
    precodeCount = 19
    while precodeCount > 4 && precodeLengths[DeflateConstants.codeLengthOrder[precodeCount - 1]] == 0 {
      precodeCount -= 1
    }
    var bits = 3 + 5 + 5 + 4 + 3 * precodeCount + extraBits
    for symbol in 0..<19 { bits += Int(precodeFrequencies[symbol]) * Int(precodeLengths[symbol]) }
    for symbol in 0..<286 { bits += Int(literalFrequencies[symbol]) * Int(literalLengths[symbol]) }
    for symbol in 0..<30 { bits += Int(distanceFrequencies[symbol]) * Int(distanceLengths[symbol]) }
    return bits
  }

  private mutating func addItem(_ symbol: Int, _ extra: Int) {
    runLengthItems[runLengthCount] = UInt16(symbol | extra << 5)
    runLengthCount += 1
    precodeFrequencies[symbol] += 1
  }

  /// Writes BFINAL and BTYPE, the dynamic header when dynamic, and fills `encodeTable`.
  mutating func writeHeader(_ writer: inout BitWriter, final: Bool) {
    let finalBit: UInt32 = final ? 1 : 0
    if isDynamic {
      writer.write(finalBit | 2 << 1, 3)
      writer.write(UInt32(literalCount - 257), 5)
      writer.write(UInt32(distanceCount - 1), 5)
      writer.write(UInt32(precodeCount - 4), 4)
      for index in 0..<precodeCount {
        writer.write(UInt32(precodeLengths[DeflateConstants.codeLengthOrder[index]]), 3)
      }
      builder.buildCodes(lengths: precodeLengths, count: 19, into: &precodeCodes)
      for index in 0..<runLengthCount {
        let item = Int(runLengthItems[index])
        let symbol = item & 31
        writer.write(UInt32(precodeCodes[symbol]), Int(precodeLengths[symbol]))
        switch symbol {
        case 16: writer.write(UInt32(item >> 5), 2)
        case 17: writer.write(UInt32(item >> 5), 3)
        case 18: writer.write(UInt32(item >> 5), 7)
        default: break
        }
      }
      builder.buildCodes(lengths: literalLengths, count: 286, into: &literalCodes)
      builder.buildCodes(lengths: distanceLengths, count: 30, into: &distanceCodes)
      fillEncodeTable(literalCodes, literalLengths, distanceCodes, distanceLengths, dynamicDistances: true)
    } else {
      writer.write(finalBit | 1 << 1, 3)
      fillEncodeTable(fixedLiteralCodes, fixedLiteralLengths, fixedDistanceCodes, [], dynamicDistances: false)
    }
  }

  private mutating func fillEncodeTable(
    _ literalCodes: [UInt16], _ literalLengths: [UInt8], _ distanceCodes: [UInt16], _ distanceLengths: [UInt8],
    dynamicDistances: Bool
  ) {
    for symbol in 0...256 {
      encodeTable[symbol] = UInt32(literalCodes[symbol]) | UInt32(literalLengths[symbol]) << 24
    }
    for length in 3...258 {
      let symbol = Int(lengthSymbol[length])
      let index = symbol - 257
      let codeLength = UInt32(literalLengths[symbol])
      let extra = UInt32(length - Int(DeflateConstants.lengthBase[index]))
      let bits = UInt32(literalCodes[symbol]) | extra << codeLength
      encodeTable[256 + length] = bits | (codeLength + UInt32(DeflateConstants.lengthExtraBits[index])) << 24
    }
    for symbol in 0..<30 {
      let codeLength = dynamicDistances ? UInt32(distanceLengths[symbol]) : 5
      encodeTable[515 + symbol] = UInt32(distanceCodes[symbol]) | codeLength << 24
    }
  }
}
