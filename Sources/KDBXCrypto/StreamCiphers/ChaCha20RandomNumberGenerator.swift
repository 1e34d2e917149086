/// A fast cryptographically secure random number generator: the ChaCha20 key stream (RFC 8439 §2.3-§2.4) under a
/// 256-bit key, with fast key erasure (each 512-byte refill replaces the key with the first 32 bytes it makes, so an
/// attacker who later reads the state cannot recover earlier output).
///
/// For code that draws many small random values, such as the per-value pads of protected fields while a large
/// vault opens: one `getrandom` call seeds it, instead of one system call per value. Seed it from
/// `SystemRandomNumberGenerator` (``init(seededFrom:)``); with a fixed seed (``init(seed:)``) it is deterministic,
/// which suits tests.
public struct ChaCha20RandomNumberGenerator: RandomNumberGenerator, Sendable {
  static let refillByteCount = 512
  static let zeroNonce = [UInt8](repeating: 0, count: 12)

  var key: [UInt8]
  var words: [UInt64] = []
  var index = 0

  /// A generator whose output is determined by the 32-byte `seed`.
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` unless `seed` has 32 bytes.
  public init(seed: [UInt8]) throws(CryptoError) {
    guard seed.count == 32 else { throw CryptoError.invalidKeySize(expected: 32, actual: seed.count) }
    key = seed
  }

  /// A generator keyed with 32 bytes from `source` (for example `SystemRandomNumberGenerator`).
  public init(seededFrom source: inout some RandomNumberGenerator) {
    var seed: [UInt8] = []
    seed.reserveCapacity(32)
    for _ in 0..<4 {
      let word = source.next()
      for shift in stride(from: 0, to: 64, by: 8) { seed.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    key = seed
  }

  public mutating func next() -> UInt64 {
    if index == words.count { refill() }
    let word = words[index]
    words[index] = 0
    index += 1
    return word
  }

  /// Makes 512 bytes of key stream: the first 32 become the next key, the other 480 the next 60 outputs.
  mutating func refill() {
    var stream = [UInt8](repeating: 0, count: Self.refillByteCount)
    do throws(CryptoError) {
      var cipher = try ChaCha20(key: key, nonce: Self.zeroNonce)
      try cipher.apply(to: &stream)
    } catch {
      preconditionFailure("ChaCha20 with a 32-byte key and a 12-byte nonce cannot fail")
    }
    for offset in 0..<32 { key[offset] = stream[offset] }
    words.removeAll(keepingCapacity: true)
    var offset = 32
    while offset < stream.count {
      var word: UInt64 = 0
      for byte in 0..<8 { word |= UInt64(stream[offset + byte]) << UInt64(byte * 8) }
      words.append(word)
      offset += 8
    }
    for offset in 0..<stream.count { stream[offset] = 0 }
    index = 0
  }
}
