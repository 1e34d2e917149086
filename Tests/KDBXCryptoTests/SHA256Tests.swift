import KDBXCrypto
import Testing
import VectorSupport

@Suite("SHA-256")
struct SHA256Tests {
  @Test("FIPS 180-4 examples", arguments: Vectors.records("sha256/fips180-4-examples.vec"))
  func fipsExamples(_ record: VectorRecord) {
    #expect(SHA256.hash(record.bytes("msg")).bytes == record.bytes("md"))
  }
}
