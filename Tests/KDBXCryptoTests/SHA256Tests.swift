import KDBXCrypto
import Testing
import VectorSupport

@Suite("SHA-256")
struct SHA256Tests {
  @Test("FIPS 180-4 examples", arguments: Vectors.records("sha256/fips180-4-examples.vec"))
  func fipsExamples(_ record: VectorRecord) {
    #expect(SHA256.hash(record.bytes("msg")).bytes == record.bytes("md"))
  }

  @Test("NIST CAVP ShortMsg", arguments: Vectors.records("sha256/cavp-shortmsg.vec"))
  func cavpShortMsg(_ record: VectorRecord) { HashTesting.checkMessage(SHA256.self, record) }

  @Test("NIST CAVP LongMsg", arguments: Vectors.records("sha256/cavp-longmsg.vec"))
  func cavpLongMsg(_ record: VectorRecord) { HashTesting.checkMessage(SHA256.self, record) }

  @Test("NIST CAVP Monte Carlo", arguments: Vectors.records("sha256/cavp-monte.vec"))
  func cavpMonte(_ record: VectorRecord) { HashTesting.checkMonteCarlo(SHA256.self, record) }

  @Test("one million 'a'", arguments: Vectors.records("sha256/hashlib-million-a.vec"))
  func millionA(_ record: VectorRecord) { HashTesting.checkRepeated(SHA256.self, record) }
}
