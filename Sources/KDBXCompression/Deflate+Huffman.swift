/// Builds length-limited canonical Huffman codes for the encoder (RFC 1951 §3.2.2).
///
/// Lengths come from a two-queue Huffman construction over the symbols sorted by frequency; when
/// the longest code exceeds the limit (15 bits, or 7 for the code-length code), the length counts
/// are clamped and rebalanced until the Kraft sum is exactly one, and the longest lengths go to
/// the rarest symbols. All scratch space is allocated once.
struct HuffmanCodeBuilder {
  private var keys = [UInt64](repeating: 0, count: 288)
  private var internalWeight = [UInt64](repeating: 0, count: 288)
  private var leafParent = [Int](repeating: 0, count: 288)
  private var internalParent = [Int](repeating: 0, count: 288)
  private var internalDepth = [Int](repeating: 0, count: 288)
  private var lengthCount = [Int](repeating: 0, count: 32)
  private var nextCode = [Int](repeating: 0, count: 16)

  /// Fills `lengths[0..<count]` with code lengths of at most `limit` bits for `frequencies`.
  ///
  /// The code always has at least two codewords (an unused symbol gets length 1 when only one is
  /// used), so it is complete, which every decoder accepts.
  mutating func buildLengths(
    frequencies: [UInt32], count: Int, limit: Int, into lengths: inout [UInt8]
  ) {
    var used = 0
    for symbol in 0..<count {
      lengths[symbol] = 0
      if frequencies[symbol] != 0 {
        keys[used] = UInt64(frequencies[symbol]) << 16 | UInt64(symbol)
        used += 1
      }
    }
    if used < 2 {
      let only = used == 1 ? Int(keys[0] & 0xFFFF) : 0
      lengths[only] = 1
      lengths[only == 0 ? 1 : 0] = 1
      return
    }
    sortKeys(used)
    // Two queues: leaves in frequency order, internal nodes in creation (= weight) order.
    var leaf = 0
    var next = 0
    for node in 0..<(used - 1) {
      var weight: UInt64 = 0
      for _ in 0..<2 {
        if leaf < used && (next >= node || keys[leaf] >> 16 <= internalWeight[next]) {
          weight += keys[leaf] >> 16
          leafParent[leaf] = node
          leaf += 1
        } else {
          weight += internalWeight[next]
          internalParent[next] = node
          next += 1
        }
      }
      internalWeight[node] = weight
    }
    let root = used - 2
    internalDepth[root] = 0
    for node in stride(from: root - 1, through: 0, by: -1) {
      internalDepth[node] = internalDepth[internalParent[node]] + 1
    }
    for length in 0..<32 { lengthCount[length] = 0 }
    for index in 0..<used {
      let depth = min(internalDepth[leafParent[index]] + 1, 31)
      lengthCount[depth] += 1
    }
    // Clamp to `limit`, then restore the Kraft equality: each step removes one codeword at `limit`
    // and splits the deepest shorter codeword into two one bit longer.
    for length in (limit + 1)..<32 {
      lengthCount[limit] += lengthCount[length]
      lengthCount[length] = 0
    }
    var kraft = 0
    for length in 1...limit { kraft += lengthCount[length] << (limit - length) }
    while kraft > 1 << limit {
      lengthCount[limit] -= 1
      for length in stride(from: limit - 1, through: 1, by: -1) where lengthCount[length] != 0 {
        lengthCount[length] -= 1
        lengthCount[length + 1] += 2
        break
      }
      kraft -= 1
    }
    // The rarest symbols (first in `keys`) get the longest codes.
    var index = 0
    for length in stride(from: limit, through: 1, by: -1) {
      for _ in 0..<lengthCount[length] {
        lengths[Int(keys[index] & 0xFFFF)] = UInt8(length)
        index += 1
      }
    }
  }

  /// Assigns canonical codes (RFC 1951 §3.2.2), bit-reversed for the LSB-first bit writer.
  mutating func buildCodes(lengths: [UInt8], count: Int, into codes: inout [UInt16]) {
    for length in 0..<16 { lengthCount[length] = 0 }
    for symbol in 0..<count { lengthCount[Int(lengths[symbol])] += 1 }
    lengthCount[0] = 0
    var code = 0
    for length in 1..<16 {
      code = (code + lengthCount[length - 1]) << 1
      nextCode[length] = code
    }
    for symbol in 0..<count {
      let length = Int(lengths[symbol])
      if length == 0 {
        codes[symbol] = 0
        continue
      }
      codes[symbol] = UInt16(HuffmanAlphabet.reversed(nextCode[length], length))
      nextCode[length] += 1
    }
  }

  /// Shell sort of `keys[0..<count]` (at most 288 keys; no allocation).
  private mutating func sortKeys(_ count: Int) {
    for gap in [57, 23, 10, 4, 1] where gap < count {
      for index in gap..<count {
        let key = keys[index]
        var position = index
        while position >= gap && keys[position - gap] > key {
          keys[position] = keys[position - gap]
          position -= gap
        }
        keys[position] = key
      }
    }
  }
}
