/// BLAKE2b, as specified in RFC 7693: a keyed or unkeyed hash with a digest of 1 to 64 bytes.
///
/// ```swift
/// let digest = try BLAKE2b.hash(Array("abc".utf8))               // 64-byte digest
/// var hasher = try BLAKE2b(outputByteCount: 32, key: macKey)      // keyed, 32-byte digest
/// hasher.update(part1); hasher.update(part2)
/// let tag = hasher.finalize()
/// ```
///
/// The digest length and the key length are mixed into the parameter block (RFC 7693 §2.5), so a
/// 32-byte BLAKE2b digest is not a prefix of the 64-byte one. BLAKE2b runs in time that depends
/// only on the input length, not on the input or key contents.
public struct BLAKE2b: Sendable {
  /// The size, in bytes, of one compression-function input block (RFC 7693 §2.1: bb = 128).
  public static var blockByteCount: Int { 128 }

  /// The largest digest, in bytes (RFC 7693 §2.1: nn <= 64).
  public static var maximumOutputByteCount: Int { 64 }

  /// The largest key, in bytes (RFC 7693 §2.1: kk <= 64).
  public static var maximumKeyByteCount: Int { 64 }

  /// The chained state h[0..7].
  @usableFromInline var state: SIMD8<UInt64>
  /// Bytes waiting to be compressed. Always holds the last block until `finalize`, because the
  /// final block must be compressed with the finalization flag (RFC 7693 §3.3).
  @usableFromInline var buffer: [UInt8]
  @usableFromInline var bufferCount: Int
  /// The byte counter t, as a 128-bit value split into two words (RFC 7693 §3.2).
  @usableFromInline var counterLow: UInt64
  @usableFromInline var counterHigh: UInt64
  /// The digest length nn.
  public let outputByteCount: Int

  /// RFC 7693 §2.6: the initialization vector (the SHA-512 IV).
  @usableFromInline static let initializationVector = SIMD8<UInt64>(
    0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
    0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179)

  /// Creates a hasher for a digest of `outputByteCount` bytes, keyed with `key` when it is not empty.
  ///
  /// RFC 7693 §3.3: the parameter block is `0x0101kknn`, and a key is padded to one full block
  /// that is hashed before the message.
  /// - Throws: ``CryptoError/invalidParameter(name:reason:)`` when `outputByteCount` is not in
  ///   1...64, ``CryptoError/invalidKeySize(expected:actual:)`` when the key is longer than 64 bytes.
  public init(outputByteCount: Int = 64, key: [UInt8] = []) throws(CryptoError) {
    guard outputByteCount >= 1 && outputByteCount <= 64 else {
      throw CryptoError.invalidParameter(name: "nn", reason: "BLAKE2b digest length must be 1...64 bytes")
    }
    guard key.count <= 64 else {
      throw CryptoError.invalidKeySize(expected: 64, actual: key.count)
    }
    self.init(validatedOutputByteCount: outputByteCount, key: key)
  }

  /// Creates a hasher whose arguments the caller has already checked (1...64 and a key of at most 64 bytes).
  @usableFromInline
  init(validatedOutputByteCount outputByteCount: Int, key: [UInt8] = []) {
    precondition(outputByteCount >= 1 && outputByteCount <= 64 && key.count <= 64)
    self.outputByteCount = outputByteCount
    var initial = BLAKE2b.initializationVector
    initial[0] ^= 0x0101_0000 ^ (UInt64(key.count) << 8) ^ UInt64(outputByteCount)
    state = initial
    buffer = [UInt8](repeating: 0, count: 128)
    bufferCount = 0
    counterLow = 0
    counterHigh = 0
    if !key.isEmpty {
      for index in 0..<key.count { buffer[index] = key[index] }
      bufferCount = 128
    }
  }

  /// Absorbs `bytes` into the running hash (RFC 7693 §3.3).
  // SAFETY: `bytes` is lent for the call. The buffered block is the 128-byte `buffer` array, lent to compress
  // inside its closure; input blocks are rebased slices `offset..<offset + 128` taken only while
  // `bytes.count - offset > 128`, and the copy loop stays below `take` <= both remainders. compress loads
  // unaligned, 128 bytes.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    var offset = 0
    while offset < bytes.count {
      if bufferCount == 128 {
        // More input follows, so the buffered block is not the last one.
        addToCounter(128)
        let block = buffer
        block.withUnsafeBytes { compress(block: $0, isFinal: false) }
        bufferCount = 0
      }
      if bufferCount == 0 {
        // Compress whole blocks straight from the input, keeping at least one byte back.
        while bytes.count - offset > 128 {
          addToCounter(128)
          // SAFETY: offset + 128 < bytes.count (the loop condition), so the rebased slice lies inside `bytes`.
          compress(block: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 128]), isFinal: false)
          offset += 128
        }
      }
      let take = Swift.min(128 - bufferCount, bytes.count - offset)
      for index in 0..<take { buffer[bufferCount + index] = bytes[offset + index] }
      bufferCount += take
      offset += take
    }
  }

  /// Absorbs the bytes of `bytes` into the running hash.
  @inlinable
  public mutating func update(_ bytes: [UInt8]) {
    // SAFETY: the array's (or slice's) own bytes, read inside the closure only.
    bytes.withUnsafeBytes { update($0) }
  }

  /// Absorbs the bytes of `bytes` into the running hash.
  @inlinable
  public mutating func update(_ bytes: ArraySlice<UInt8>) {
    // SAFETY: the array's (or slice's) own bytes, read inside the closure only.
    bytes.withUnsafeBytes { update($0) }
  }

  /// Finishes the hash and returns the `outputByteCount`-byte digest (RFC 7693 §3.3).
  public consuming func finalize() -> [UInt8] {
    addToCounter(UInt64(bufferCount))
    for index in bufferCount..<128 { buffer[index] = 0 }
    let block = buffer
    // SAFETY: `block` is the 128-byte buffer array, lent to compress inside the closure only.
    block.withUnsafeBytes { compress(block: $0, isFinal: true) }
    var out = [UInt8]()
    out.reserveCapacity(outputByteCount)
    for index in 0..<outputByteCount {
      out.append(UInt8(truncatingIfNeeded: state[index >> 3] >> (UInt64(index & 7) * 8)))
    }
    return out
  }

  /// Hashes `bytes` in one call, giving an `outputByteCount`-byte digest, keyed with `key` when it is not empty.
  /// - Throws: the errors of ``init(outputByteCount:key:)``.
  public static func hash(_ bytes: [UInt8], outputByteCount: Int = 64, key: [UInt8] = []) throws(CryptoError)
    -> [UInt8]
  {
    var hasher = try BLAKE2b(outputByteCount: outputByteCount, key: key)
    hasher.update(bytes)
    return hasher.finalize()
  }

  @inline(__always)
  mutating func addToCounter(_ count: UInt64) {
    let (sum, overflow) = counterLow.addingReportingOverflow(count)
    counterLow = sum
    if overflow { counterHigh &+= 1 }
  }
}
