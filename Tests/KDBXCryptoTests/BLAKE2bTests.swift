import KDBXCrypto
import Testing
import VectorSupport

@Suite("BLAKE2b")
struct BLAKE2bTests {
  @Test("RFC 7693 Appendix A", arguments: Vectors.records("blake2b/rfc7693-appendix-a.vec"))
  func rfc7693AppendixA(_ record: VectorRecord) throws {
    let digest = try BLAKE2b.hash(record.bytes("msg"), outputByteCount: record.int("out"))
    #expect(digest == record.bytes("md"))
  }

  @Test("cryptography-vectors blake2b.txt", arguments: Vectors.records("blake2b/cryptography-vectors-blake2b.vec"))
  func cryptographyVectors(_ record: VectorRecord) throws {
    #expect(try BLAKE2b.hash(record.bytes("msg")) == record.bytes("md"))
  }

  @Test("BLAKE2 keyed KAT", arguments: Vectors.records("blake2b/blake2-kat-keyed.vec"))
  func keyedKAT(_ record: VectorRecord) throws {
    #expect(try BLAKE2b.hash(record.bytes("in"), key: record.bytes("key")) == record.bytes("md"))
  }

  @Test("digest and key lengths", arguments: Vectors.records("blake2b/hashlib-lengths.vec"))
  func lengths(_ record: VectorRecord) throws {
    let digest = try BLAKE2b.hash(record.bytes("in"), outputByteCount: record.int("out"), key: record.bytes("key"))
    #expect(digest == record.bytes("md"))
  }

  @Test("streaming split at every point equals one-shot")
  func streamingSplits() throws {
    var random = SplitMix64(seed: 0xb1a2e)
    let message = random.bytes(300)
    let key = random.bytes(17)
    let expected = try BLAKE2b.hash(message, outputByteCount: 40, key: key)
    for split in 0...message.count {
      var hasher = try BLAKE2b(outputByteCount: 40, key: key)
      hasher.update(message[..<split])
      hasher.update(message[split...])
      #expect(hasher.finalize() == expected, "split at \(split)")
    }
    // Byte-at-a-time and three-way splits around the block size.
    var bytewise = try BLAKE2b(outputByteCount: 40, key: key)
    for byte in message { bytewise.update([byte]) }
    #expect(bytewise.finalize() == expected)
    var threeWay = try BLAKE2b(outputByteCount: 40, key: key)
    threeWay.update(message[..<127])
    threeWay.update(message[127..<129])
    threeWay.update(message[129...])
    #expect(threeWay.finalize() == expected)
  }

  @Test("copying a hasher mid-stream gives independent digests")
  func copySemantics() throws {
    var first = try BLAKE2b(outputByteCount: 32)
    first.update(Array("abc".utf8))
    var second = first
    second.update(Array("def".utf8))
    #expect(first.finalize() == (try BLAKE2b.hash(Array("abc".utf8), outputByteCount: 32)))
    #expect(second.finalize() == (try BLAKE2b.hash(Array("abcdef".utf8), outputByteCount: 32)))
  }

  @Test("bad digest length is refused", arguments: [0, -1, 65, 1000])
  func badOutputLength(_ length: Int) {
    #expect(throws: CryptoError.self) { try BLAKE2b(outputByteCount: length) }
  }

  @Test("a key longer than 64 bytes is refused")
  func longKey() {
    #expect(throws: CryptoError.invalidKeySize(expected: 64, actual: 65)) {
      try BLAKE2b(key: [UInt8](repeating: 1, count: 65))
    }
  }
}
