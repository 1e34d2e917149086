import KDBXCrypto
import Testing
import VectorSupport

@Suite("ChaCha20 random number generator")
struct ChaCha20RandomNumberGeneratorTests {
  @Test("outputs match pycryptodome's ChaCha20", arguments: Vectors.records("chacha20/csprng-pycryptodome.vec"))
  func vectors(_ record: VectorRecord) throws {
    var generator = try ChaCha20RandomNumberGenerator(seed: record.bytes("seed"))
    let expected = record.bytes("outputs")
    var produced: [UInt8] = []
    while produced.count < expected.count {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) { produced.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    #expect(produced == expected)
  }

  @Test("seeds must be 32 bytes; system seeding gives different streams")
  func seeding() throws {
    #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 16)) {
      try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 0, count: 16))
    }
    var system = SystemRandomNumberGenerator()
    var a = ChaCha20RandomNumberGenerator(seededFrom: &system)
    var b = ChaCha20RandomNumberGenerator(seededFrom: &system)
    #expect((0..<4).map { _ in a.next() } != (0..<4).map { _ in b.next() })
  }
}
