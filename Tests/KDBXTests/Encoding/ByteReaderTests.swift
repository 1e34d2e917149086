import KDBX
import KDBXBase
import Testing

@Suite struct ByteReaderTests {
  @Test func readsLittleEndianIntegers() throws {
    var reader = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0xFF, 0xFF, 0xFF, 0xFF])
    #expect(try reader.readUInt16() == 0x0201)
    #expect(try reader.readUInt32() == 0x0605_0403)
    #expect(try reader.readUInt16() == 0x0807)
    #expect(try reader.readInt32() == -1)
    #expect(reader.isAtEnd)
  }

  @Test func truncationReportsOffsetAndNeed() {
    var reader = ByteReader([1, 2, 3])
    #expect(throws: KDBXError.truncated(offset: 0, needed: 4)) { try reader.readUInt32() }
    #expect(throws: KDBXError.truncated(offset: 0, needed: -1)) { try reader.readBytes(-1) }
    _ = try? reader.readUInt16()
    #expect(throws: KDBXError.truncated(offset: 2, needed: 8)) { try reader.readUInt64() }
    #expect(reader.offset == 2)
  }

  @Test func writerRoundTripsThroughReader() throws {
    var writer = ByteWriter()
    writer.write(0xABCD as UInt16)
    writer.write(UInt32(0xDEAD_BEEF))
    writer.write(Int64(-2))
    writer.write([9, 8, 7])
    #expect(writer.bytes.prefix(6) == [0xCD, 0xAB, 0xEF, 0xBE, 0xAD, 0xDE])
    var reader = ByteReader(writer.bytes)
    #expect(try reader.readUInt16() == 0xABCD)
    #expect(try reader.readUInt32() == 0xDEAD_BEEF)
    #expect(try reader.readInt64() == -2)
    #expect(try reader.readBytes(3) == [9, 8, 7])
  }
}
