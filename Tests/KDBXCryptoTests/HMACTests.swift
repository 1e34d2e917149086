import KDBXCrypto
import Testing
import VectorSupport

@Suite("HMAC")
struct HMACTests {
  /// Checks one RFC record: a `mac` shorter than the digest is a truncated output (compare the prefix).
  static func check<H: HashFunction>(_: H.Type, _ record: VectorRecord) {
    let key = record.bytes("key")
    let message = record.bytes("msg")
    let expected = record.bytes("mac")
    let mac = HMAC<H>.authenticationCode(for: message, key: key)
    #expect(mac.byteCount == H.digestByteCount)
    if expected.count == H.digestByteCount {
      #expect(mac.bytes == expected)
      #expect(mac.matches(expected))
      #expect(HMAC<H>.isValidAuthenticationCode(expected, for: message, key: key))
    } else {
      #expect(Array(mac.bytes.prefix(expected.count)) == expected)
      #expect(mac.matches(truncatedTo: expected))
      #expect(!mac.matches(expected), "a truncated MAC must not pass the full-length check")
    }
    // Streaming, one byte at a time.
    var streaming = HMAC<H>(key: key)
    for byte in message { streaming.update([byte]) }
    #expect(streaming.finalize() == mac)
  }

  @Test("RFC 2202 HMAC-SHA-1", arguments: Vectors.records("hmac/rfc2202-sha1.vec"))
  func rfc2202SHA1(_ record: VectorRecord) { Self.check(SHA1.self, record) }

  @Test("RFC 4231 HMAC-SHA-256", arguments: Vectors.records("hmac/rfc4231-sha256.vec"))
  func rfc4231SHA256(_ record: VectorRecord) { Self.check(SHA256.self, record) }

  @Test("RFC 4231 HMAC-SHA-512", arguments: Vectors.records("hmac/rfc4231-sha512.vec"))
  func rfc4231SHA512(_ record: VectorRecord) { Self.check(SHA512.self, record) }

  @Test func streamingSplitAtEveryPoint() {
    var random = SplitMix64(seed: 11)
    let key = random.bytes(40)
    let message = random.bytes(300)
    let expected = HMAC<SHA256>.authenticationCode(for: message, key: key)
    for split in 0...message.count {
      var hmac = HMAC<SHA256>(key: key)
      hmac.update(message[0..<split])
      hmac.update(message[split...])
      #expect(hmac.finalize() == expected, "split at \(split)")
    }
  }

  @Test func copiedMidStreamStaysCorrect() {
    var random = SplitMix64(seed: 12)
    let key = random.bytes(200)  // longer than the SHA-512 block: hashed first
    let prefix = random.bytes(150)
    let tail = random.bytes(90)
    var original = HMAC<SHA512>(key: key)
    original.update(prefix)
    let copy = original
    original.update(tail)
    #expect(copy.finalize() == HMAC<SHA512>.authenticationCode(for: prefix, key: key))
    #expect(original.finalize() == HMAC<SHA512>.authenticationCode(for: prefix + tail, key: key))
  }

  @Test func keyAndMessageChangesChangeTheMAC() {
    let base = HMAC<SHA256>.authenticationCode(for: Array("message".utf8), key: Array("key".utf8))
    #expect(base != HMAC<SHA256>.authenticationCode(for: Array("messagf".utf8), key: Array("key".utf8)))
    #expect(base != HMAC<SHA256>.authenticationCode(for: Array("message".utf8), key: Array("kez".utf8)))
    // An empty key is allowed; it pads to the same block as a one-zero-byte key (RFC 2104 §2), so the MACs agree.
    #expect(
      HMAC<SHA256>.authenticationCode(for: [1, 2, 3], key: [])
        == HMAC<SHA256>.authenticationCode(for: [1, 2, 3], key: [0]))
    #expect(!base.matches(truncatedTo: []))
  }
}
