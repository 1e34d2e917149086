/// AES-256 (FIPS 197, Nk = 8, Nr = 14) without table lookups: a bitsliced, constant-time
/// implementation.
///
/// Four blocks are processed together as eight 64-bit bit planes, and the S-box is a Boolean
/// circuit (Boyar-Peralta), so neither memory addresses nor branches depend on the key or the
/// data; the key expansion uses the same circuit. This closes the cache-timing channel of the
/// table-based ``AES``.
///
/// The price is speed where only one or two blocks can run at once: CBC encryption uses one of
/// the four lanes and AES-KDF two; CBC decryption and ECB fill all four. Measured against the
/// table-based ``AES`` on the same machine (medians of back-to-back pairs): AES-KDF about 0.24x
/// (3.3 M against 13.9 M rounds/s, 2026-12-02), CBC decryption 0.40x, CBC encryption 0.14x.
/// Because AES-KDF stays below 0.6x, ``AES`` remains the default there; pass
/// `implementation: .constantTime` to ``AESKDF/transform(key:seed:rounds:progressInterval:implementation:progress:)``
/// or use `CBC<ConstantTimeAES>` when timing side channels matter more than speed.
public struct ConstantTimeAES: BlockCipher {
  /// AES-256 keys are 32 bytes (FIPS 197 §5).
  public static var keyByteCount: Int { 32 }

  /// The 15 round keys (FIPS 197 §5.2) as bit planes, each key broadcast to the four lanes:
  /// 8 words per round key.
  @usableFromInline let roundKeys: [UInt64]

  /// Expands a 32-byte key (FIPS 197 §5.2 KeyExpansion) using the bitsliced S-box.
  ///
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` when `key.count != 32`.
  public init(key: [UInt8]) throws(CryptoError) {
    guard key.count == 32 else { throw CryptoError.invalidKeySize(expected: 32, actual: key.count) }
    func subWord(_ word: UInt32) -> UInt32 {
      var planes = AESPlanes()
      AESBitslice.insert(low: UInt64(word), high: 0, slot: 0, into: &planes)
      planes.subBytes()
      return UInt32(truncatingIfNeeded: AESBitslice.extract(slot: 0, from: planes).low)
    }
    // Words are kept little-endian here (byte 0 in the low bits), so RotWord is a right rotation.
    var w = [UInt32](repeating: 0, count: 60)
    for i in 0..<8 { w[i] = littleEndianWord(key, 4 * i) }
    var rcon: UInt8 = 1
    for i in 8..<60 {
      var temp = w[i - 1]
      if i % 8 == 0 {
        temp = subWord(temp.rotatedRight(by: 8)) ^ UInt32(rcon)
        rcon = aesTimesX(rcon)
      } else if i % 8 == 4 {
        temp = subWord(temp)
      }
      w[i] = w[i - 8] ^ temp
    }
    var keys = [UInt64](repeating: 0, count: 120)
    for round in 0...14 {
      let low = UInt64(w[4 * round]) | UInt64(w[4 * round + 1]) << 32
      let high = UInt64(w[4 * round + 2]) | UInt64(w[4 * round + 3]) << 32
      var planes = AESPlanes()
      for slot in 0..<4 { AESBitslice.insert(low: low, high: high, slot: slot, into: &planes) }
      let words = [planes.q0, planes.q1, planes.q2, planes.q3, planes.q4, planes.q5, planes.q6, planes.q7]
      for k in 0..<8 { keys[8 * round + k] = words[k] }
    }
    roundKeys = keys
  }

  /// Encrypts one block (FIPS 197 §5.1 Cipher).
  public func encryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    var buffer = block
    // SAFETY: the closure gets the 16 bytes of the local `buffer` (one whole block, as encryptBlocks needs)
    // and the kernel keeps no pointer after it returns.
    withUnsafeMutableBytes(of: &buffer) { encryptBlocks($0) }
    return buffer
  }

  /// Decrypts one block (FIPS 197 §5.3 InvCipher).
  public func decryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    var buffer = block
    // SAFETY: as in encryptBlock: one local 16-byte block, used inside the closure only.
    withUnsafeMutableBytes(of: &buffer) { decryptBlocks($0) }
    return buffer
  }
}
