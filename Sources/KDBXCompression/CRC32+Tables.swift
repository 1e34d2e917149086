// The CRC-32 kernels and their tables: five interleaved lanes of 8-byte words (a braid, as zlib
// 1.2.12+ does) for long inputs, slicing-by-16 for the rest.

/// 40 tables of 256 entries: table k maps a byte to its CRC contribution k bytes further on.
/// Tables 0...15 serve slicing-by-16; tables 32...39 advance a lane by one 40-byte stride.
let crc32Tables: [UInt32] = {
  var tables = [UInt32](repeating: 0, count: 40 * 256)
  for byte in 0..<256 {
    var crc = UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    tables[byte] = crc
  }
  for byte in 0..<256 {
    for slice in 1..<40 {
      let previous = tables[(slice - 1) * 256 + byte]
      tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
    }
  }
  return tables
}()

extension CRC32 {
  // SAFETY: `bytes` is lent for the call and read below its count (the braid covers whole 40-byte strides of
  // `count`, the tail byte by byte); the table is the immutable 40 * 256-entry global, read inside its closure.
  static func update(_ initial: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return initial }
    let count = bytes.count
    return crc32Tables.withUnsafeBufferPointer { tableBuffer in
      guard let table = tableBuffer.baseAddress else { return initial }
      var crc = initial
      var index = 0
      // Braid: five lanes, each a CRC register for every fifth 8-byte word, so that five lookup
      // chains run in parallel; the lanes are folded back in the last 40-byte block.
      if count >= 160 {
        let strides = count / 40
        var lane0 = UInt64(crc)
        var lane1: UInt64 = 0
        var lane2: UInt64 = 0
        var lane3: UInt64 = 0
        var lane4: UInt64 = 0
        @inline(__always) func advance(_ word: UInt64) -> UInt64 {
          // SAFETY: table offsets (32 + k) * 256 + byte < 40 * 256.
          let a = table[39 * 256 + Int(word & 0xFF)] ^ table[38 * 256 + Int((word >> 8) & 0xFF)]
          let b = table[37 * 256 + Int((word >> 16) & 0xFF)] ^ table[36 * 256 + Int((word >> 24) & 0xFF)]
          let c = table[35 * 256 + Int((word >> 32) & 0xFF)] ^ table[34 * 256 + Int((word >> 40) & 0xFF)]
          let d = table[33 * 256 + Int((word >> 48) & 0xFF)] ^ table[32 * 256 + Int(word >> 56)]
          return UInt64((a ^ b) ^ (c ^ d))
        }
        @inline(__always) func load(_ offset: Int) -> UInt64 {
          // SAFETY: offset + 8 <= strides * 40 <= count.
          UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        for _ in 0..<(strides - 1) {
          let word0 = load(index) ^ lane0
          let word1 = load(index &+ 8) ^ lane1
          let word2 = load(index &+ 16) ^ lane2
          let word3 = load(index &+ 24) ^ lane3
          let word4 = load(index &+ 32) ^ lane4
          lane0 = advance(word0)
          lane1 = advance(word1)
          lane2 = advance(word2)
          lane3 = advance(word3)
          lane4 = advance(word4)
          index &+= 40
        }
        // Fold: the last stride's words, in order, through an ordinary 8-byte step.
        @inline(__always) func step(_ word: UInt64) -> UInt32 {
          let a = table[7 * 256 + Int(word & 0xFF)] ^ table[6 * 256 + Int((word >> 8) & 0xFF)]
          let b = table[5 * 256 + Int((word >> 16) & 0xFF)] ^ table[4 * 256 + Int((word >> 24) & 0xFF)]
          let c = table[3 * 256 + Int((word >> 32) & 0xFF)] ^ table[2 * 256 + Int((word >> 40) & 0xFF)]
          let d = table[256 + Int((word >> 48) & 0xFF)] ^ table[Int(word >> 56)]
          return (a ^ b) ^ (c ^ d)
        }
        crc = step(load(index) ^ lane0)
        crc = step(load(index &+ 8) ^ lane1 ^ UInt64(crc))
        crc = step(load(index &+ 16) ^ lane2 ^ UInt64(crc))
        crc = step(load(index &+ 24) ^ lane3 ^ UInt64(crc))
        crc = step(load(index &+ 32) ^ lane4 ^ UInt64(crc))
        index &+= 40
      }
      while count - index >= 16 {
        // SAFETY: index + 16 <= count; table indices are bytes plus k * 256 with k < 16.
        let word0 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let word1 = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index &+ 8, as: UInt64.self))
        let low = UInt32(truncatingIfNeeded: word0) ^ crc
        let high = UInt32(truncatingIfNeeded: word0 >> 32)
        let third = UInt32(truncatingIfNeeded: word1)
        let fourth = UInt32(truncatingIfNeeded: word1 >> 32)
        // Only the first four lookups depend on the running CRC; the XOR tree keeps that chain short.
        let independent =
          ((table[11 * 256 + Int(high & 0xFF)] ^ table[10 * 256 + Int((high >> 8) & 0xFF)])
            ^ (table[9 * 256 + Int((high >> 16) & 0xFF)] ^ table[8 * 256 + Int(high >> 24)]))
          ^ ((table[7 * 256 + Int(third & 0xFF)] ^ table[6 * 256 + Int((third >> 8) & 0xFF)])
            ^ (table[5 * 256 + Int((third >> 16) & 0xFF)] ^ table[4 * 256 + Int(third >> 24)]))
          ^ ((table[3 * 256 + Int(fourth & 0xFF)] ^ table[2 * 256 + Int((fourth >> 8) & 0xFF)])
            ^ (table[256 + Int((fourth >> 16) & 0xFF)] ^ table[Int(fourth >> 24)]))
        crc =
          ((table[15 * 256 + Int(low & 0xFF)] ^ table[14 * 256 + Int((low >> 8) & 0xFF)])
            ^ (table[13 * 256 + Int((low >> 16) & 0xFF)] ^ table[12 * 256 + Int(low >> 24)])) ^ independent
        index &+= 16
      }
      while index < count {
        // SAFETY: index < count.
        crc = (crc >> 8) ^ table[Int((crc ^ UInt32(base.load(fromByteOffset: index, as: UInt8.self))) & 0xFF)]
        index &+= 1
      }
      return crc
    }
  }
}
