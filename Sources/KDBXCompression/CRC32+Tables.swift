// The CRC-32 slicing-by-8 kernel and its tables.

/// The eight 256-entry tables: table k maps a byte to its CRC contribution k bytes further on.
let crc32Tables: [UInt32] = {
  var tables = [UInt32](repeating: 0, count: 8 * 256)
  for byte in 0..<256 {
    var crc = UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    tables[byte] = crc
  }
  for byte in 0..<256 {
    for slice in 1..<8 {
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
      while count - index >= 8 {
        // SAFETY: index + 8 <= count; table indices are bytes plus k * 256 with k < 8.
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let low = UInt32(truncatingIfNeeded: word) ^ crc
        let high = UInt32(truncatingIfNeeded: word >> 32)
        crc =
          table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int((low >> 8) & 0xFF)]
          ^ table[5 * 256 + Int((low >> 16) & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
          ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
          ^ table[256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
        index &+= 8
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
