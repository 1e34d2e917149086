/// Decode tables for canonical Huffman codes (RFC 1951 §3.2.2), in the layout the inflate kernel
/// reads: a primary table indexed by the next `primaryBits` input bits (LSB first), whose entries
/// either decode a symbol directly or point at a subtable for longer codes.
///
/// An entry is a `UInt32`:
/// - bits 0...7: how many bits to consume (codeword length plus extra bits; for a subtable
///   pointer, `primaryBits`);
/// - bits 8...11: the codeword length (for a subtable pointer, the subtable's index bits);
/// - bits 12...15: flags (`literal`, `endOfBlock`, `subtable`, `invalid`);
/// - bits 16...31: the literal byte, the base length or distance, or the subtable's start.
enum HuffmanEntry {
  static let literal: UInt32 = 0x1000
  static let endOfBlock: UInt32 = 0x2000
  static let subtable: UInt32 = 0x4000
  static let invalid: UInt32 = 0x8000
  static let flagMask: UInt32 = 0xF000
  /// Entries that are neither a literal nor a length: the fast loop tests them once.
  static let exceptional: UInt32 = subtable | endOfBlock | invalid

  static let literalLengthPrimaryBits = 11
  static let distancePrimaryBits = 8
  static let codeLengthPrimaryBits = 7
  /// Sizes that hold the primary table plus every subtable for any complete code (the bounds
  /// zlib's `enough` tool gives for 288 symbols at 11 bits and 32 symbols at 8 bits, max 15).
  static let literalLengthTableSize = 2342
  static let distanceTableSize = 402
  static let codeLengthTableSize = 128
  /// Where the distance table starts in the inflate state's `decodeTables`, and their total size.
  static let distanceTableStart = literalLengthTableSize
  static let decodeTablesSize = literalLengthTableSize + distanceTableSize
}

/// Which alphabet a table decodes; it decides what each symbol's entry holds.
enum HuffmanAlphabet {
  case literalLength
  case distance
  case codeLength

  /// The entry for `symbol` without its length fields.
  @inline(__always)
  func template(_ symbol: Int) -> (base: UInt32, extra: UInt32) {
    switch self {
    case .literalLength:
      if symbol < 256 { return (UInt32(symbol) << 16 | HuffmanEntry.literal, 0) }
      if symbol == 256 { return (HuffmanEntry.endOfBlock, 0) }
      let index = symbol - 257
      if index >= 29 { return (HuffmanEntry.invalid, 0) }
      return (
        UInt32(DeflateConstants.lengthBase[index]) << 16, UInt32(DeflateConstants.lengthExtraBits[index])
      )
    case .distance:
      if symbol >= 30 { return (HuffmanEntry.invalid, 0) }
      return (
        UInt32(DeflateConstants.distanceBase[symbol]) << 16, UInt32(DeflateConstants.distanceExtraBits[symbol])
      )
    case .codeLength:
      return (UInt32(symbol) << 16, 0)
    }
  }
}

/// Scratch space reused for every table build, so building allocates nothing per block.
struct HuffmanBuildScratch {
  var count = [Int](repeating: 0, count: 16)
  var offsets = [Int](repeating: 0, count: 16)
  var sorted = [UInt16](repeating: 0, count: 288)
}

extension HuffmanAlphabet {
  /// Builds the decode table for `lengths[start ..< start + symbolCount]` into
  /// `table[tableStart ..< tableStart + size]` (subtable starts in its entries count from `tableStart`).
  ///
  /// Throws `oversubscribedCodeLengths` or `incompleteCodeLengths` (at `offset`) for lengths that do
  /// not form a complete prefix code. As zlib does, a literal/length or distance code with a single
  /// one-bit codeword is accepted (RFC 1951 §3.2.7 allows one distance code), and an all-zero
  /// distance code is accepted (a block with only literals); its entries decode as invalid.
  func buildTable(
    lengths: [UInt8], start: Int, symbolCount: Int, primaryBits: Int, into table: inout [UInt32],
    at tableStart: Int, size: Int, scratch: inout HuffmanBuildScratch, offset: Int
  ) throws(CompressionError) {
    for length in 0..<16 { scratch.count[length] = 0 }
    for symbol in 0..<symbolCount { scratch.count[Int(lengths[start + symbol])] += 1 }
    var maxLength = 0
    for length in 1..<16 where scratch.count[length] != 0 { maxLength = length }
    // Kraft sum: `left` codes remain unused at each length.
    var left = 1
    for length in 1..<16 {
      left <<= 1
      left -= scratch.count[length]
      if left < 0 { throw .oversubscribedCodeLengths(offset: offset) }
    }
    let primarySize = 1 << primaryBits
    let invalidEntry = HuffmanEntry.invalid | UInt32(primaryBits)
    if left > 0 {
      let singleCode = maxLength == 1 && scratch.count[1] == 1 && self != .codeLength
      let empty = maxLength == 0 && self == .distance
      if !(singleCode || empty) { throw .incompleteCodeLengths(offset: offset) }
      for index in 0..<primarySize { table[tableStart + index] = invalidEntry }
    }
    if maxLength == 0 { return }
    // Sort the symbols by (length, symbol): the canonical order of RFC 1951 §3.2.2.
    scratch.offsets[1] = 0
    for length in 1..<15 { scratch.offsets[length + 1] = scratch.offsets[length] + scratch.count[length] }
    for symbol in 0..<symbolCount {
      let length = Int(lengths[start + symbol])
      if length != 0 {
        scratch.sorted[scratch.offsets[length]] = UInt16(symbol)
        scratch.offsets[length] += 1
      }
    }
    var code = 0  // the canonical codeword, most significant bit first
    var length = 1
    var remainingAtLength = scratch.count[1]
    var subtablePrefix = -1
    var subtableStart = 0
    var subtableBits = 0
    var nextFree = primarySize
    let total = left > 0 ? 1 : (scratch.count[1...].reduce(0, +))
    for position in 0..<total {
      while remainingAtLength == 0 {
        code <<= 1
        length += 1
        remainingAtLength = scratch.count[length]
      }
      let symbol = Int(scratch.sorted[position])
      let (base, extra) = template(symbol)
      if length <= primaryBits {
        let entry = base | UInt32(length) << 8 | (UInt32(length) + extra)
        var index = Self.reversed(code, length)
        while index < primarySize {
          table[tableStart + index] = entry
          index += 1 << length
        }
      } else {
        let prefix = code >> (length - primaryBits)
        if prefix != subtablePrefix {
          // A new subtable: as many index bits as the remaining codes with this prefix need.
          subtablePrefix = prefix
          var bits = length - primaryBits
          var room = 1 << bits
          while bits + primaryBits < maxLength {
            room -= scratch.count[bits + primaryBits]
            if room <= 0 { break }
            bits += 1
            room <<= 1
          }
          subtableBits = bits
          subtableStart = nextFree
          nextFree += 1 << bits
          if nextFree > size { throw .oversubscribedCodeLengths(offset: offset) }
          table[tableStart + Self.reversed(prefix, primaryBits)] =
            HuffmanEntry.subtable | UInt32(subtableStart) << 16 | UInt32(bits) << 8 | UInt32(primaryBits)
        }
        let subLength = length - primaryBits
        let entry = base | UInt32(subLength) << 8 | (UInt32(subLength) + extra)
        let low = code & ((1 << subLength) - 1)
        var index = Self.reversed(low, subLength)
        while index < 1 << subtableBits {
          table[tableStart + subtableStart + index] = entry
          index += 1 << subLength
        }
      }
      code += 1
      remainingAtLength -= 1
      scratch.count[length] -= 1
    }
  }

  /// Reverses the low `count` bits of `value` (DEFLATE sends Huffman codes most significant bit first
  /// into an LSB-first bit stream, RFC 1951 §3.1.1).
  @inline(__always)
  static func reversed(_ value: Int, _ count: Int) -> Int {
    var input = value
    var output = 0
    for _ in 0..<count {
      output = output << 1 | input & 1
      input >>= 1
    }
    return output
  }
}
