// The CRC-32 slicing-by-16 kernel and its tables.

/// Sixteen 256-entry tables: table k maps a byte to its CRC contribution k bytes further on.
let crc32Tables: [UInt32] = {
  var tables = [UInt32](repeating: 0, count: 16 * 256)
  for byte in 0..<256 {
    var crc = UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    tables[byte] = crc
  }
  for byte in 0..<256 {
    for slice in 1..<16 {
      let previous = tables[(slice - 1) * 256 + byte]
      tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
    }
  }
  return tables
}()

extension CRC32 {
  static func update(_ initial: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
    guard let base = bytes.baseAddress else { return initial }
    let count = bytes.count
    return crc32Tables.withUnsafeBufferPointer { tableBuffer in
      guard let table = tableBuffer.baseAddress else { return initial }
      var crc = initial
      var index = 0
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
