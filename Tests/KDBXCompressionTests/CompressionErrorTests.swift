import KDBXCompression
import Testing

@Test func compressionErrorsCarryOffsets() {
  #expect(CompressionError.truncated(offset: 1) != CompressionError.truncated(offset: 2))
}
