import KDBXCrypto
import Testing
import VectorSupport

@Suite("SHA-1")
struct SHA1Tests {
  @Test("NIST CAVP ShortMsg", arguments: Vectors.records("sha1/cavp-shortmsg.vec"))
  func cavpShortMsg(_ record: VectorRecord) { HashTesting.checkMessage(SHA1.self, record) }

  @Test("NIST CAVP LongMsg", arguments: Vectors.records("sha1/cavp-longmsg.vec"))
  func cavpLongMsg(_ record: VectorRecord) { HashTesting.checkMessage(SHA1.self, record) }

  @Test("NIST CAVP Monte Carlo", arguments: Vectors.records("sha1/cavp-monte.vec"))
  func cavpMonte(_ record: VectorRecord) { HashTesting.checkMonteCarlo(SHA1.self, record) }

  @Test("one million 'a'", arguments: Vectors.records("sha1/hashlib-million-a.vec"))
  func millionA(_ record: VectorRecord) { HashTesting.checkRepeated(SHA1.self, record) }
}
