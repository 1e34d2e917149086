import KDBXCrypto
import Testing
import VectorSupport

@Suite("SHA-512")
struct SHA512Tests {
  @Test("NIST CAVP ShortMsg", arguments: Vectors.records("sha512/cavp-shortmsg.vec"))
  func cavpShortMsg(_ record: VectorRecord) { HashTesting.checkMessage(SHA512.self, record) }

  @Test("NIST CAVP LongMsg", arguments: Vectors.records("sha512/cavp-longmsg.vec"))
  func cavpLongMsg(_ record: VectorRecord) { HashTesting.checkMessage(SHA512.self, record) }

  @Test("NIST CAVP Monte Carlo", arguments: Vectors.records("sha512/cavp-monte.vec"))
  func cavpMonte(_ record: VectorRecord) { HashTesting.checkMonteCarlo(SHA512.self, record) }

  @Test("one million 'a'", arguments: Vectors.records("sha512/hashlib-million-a.vec"))
  func millionA(_ record: VectorRecord) { HashTesting.checkRepeated(SHA512.self, record) }
}
