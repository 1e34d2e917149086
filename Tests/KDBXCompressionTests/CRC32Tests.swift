import KDBXCompression
import Testing
import VectorSupport

@Suite("CRC-32")
struct CRC32Tests {
  @Test("crc32-python-zlib.vec", arguments: Vectors.records("deflate/crc32-python-zlib.vec"))
  func pythonZlibVectors(_ record: VectorRecord) {
    #expect(CRC32.checksum(record.bytes("msg")) == UInt32(record.int("crc")))
  }

  @Test func checkValue() {
    // CRC-32/ISO-HDLC check value (CRC catalogue): CRC-32 of "123456789" is 0xCBF43926.
    #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
  }

  @Test func streamingSplitAtEveryPointEqualsOneShot() {
    var random = SplitMix64(seed: 32)
    let bytes = random.bytes(300)
    let expected = CRC32.checksum(bytes)
    for split in 0...bytes.count {
      var crc = CRC32()
      crc.update(Array(bytes[..<split]))
      crc.update(bytes, range: split..<bytes.count)
      #expect(crc.value == expected, "split at \(split)")
    }
  }

  @Test func slicedKernelEqualsBytewiseReference() {
    var random = SplitMix64(seed: 33)
    for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 159, 160, 161, 199, 200, 201, 1000, 4099] {
      let bytes = random.bytes(length)
      // Bytewise reference straight from RFC 1952 section 8.
      var reference: UInt32 = 0xFFFF_FFFF
      for byte in bytes {
        reference ^= UInt32(byte)
        for _ in 0..<8 { reference = reference & 1 == 1 ? (reference >> 1) ^ 0xEDB8_8320 : reference >> 1 }
      }
      #expect(CRC32.checksum(bytes) == ~reference, "length \(length)")
    }
  }
}
