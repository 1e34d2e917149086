/// Cipher block chaining (NIST SP 800-38A §6.2) over a 128-bit ``BlockCipher``, with PKCS#7
/// padding (RFC 5652 §6.3) in the one-shot functions.
///
/// One-shot use, as KDBX needs it:
/// ```swift
/// let sealed = try CBC<AES>.encrypt(plaintext, key: key, iv: iv)
/// let opened = try CBC<AES>.decrypt(sealed, key: key, iv: iv)
/// ```
/// `decrypt` takes its input `consuming`: pass a uniquely referenced array (for example with
/// `consume`) and it is decrypted in place, with no copy.
///
/// Streaming use without padding: create `var cbc = try CBC<AES>(key:iv:)` and call
/// ``encrypt(blocksInPlace:)`` or ``decrypt(blocksInPlace:)`` with whole blocks, as often as needed;
/// the chaining value carries over between calls.
///
/// - Important: CBC gives confidentiality only. KDBX 4 authenticates the ciphertext with
///   HMAC-SHA-256 before decrypting it; check the MAC before calling `decrypt`, or a padding error
///   can act as an oracle. The padding check itself does not branch on the padding bytes.
public struct CBC<Cipher: BlockCipher>: Sendable {
  /// The expanded key.
  public let cipher: Cipher
  /// The IV at first, then the last ciphertext block processed.
  public private(set) var chainingValue: SIMD16<UInt8>

  /// Starts a CBC stream with an expanded cipher and a 16-byte IV.
  ///
  /// - Throws: ``CryptoError/invalidNonceSize(expected:actual:)`` when `iv.count != 16`.
  public init(cipher: Cipher, iv: [UInt8]) throws(CryptoError) {
    guard let vector = SIMD16<UInt8>(blockBytes: iv) else {
      throw CryptoError.invalidNonceSize(expected: 16, actual: iv.count)
    }
    self.cipher = cipher
    self.chainingValue = vector
  }

  /// Starts a CBC stream from a raw key and a 16-byte IV.
  ///
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` or
  ///   ``CryptoError/invalidNonceSize(expected:actual:)``.
  public init(key: [UInt8], iv: [UInt8]) throws(CryptoError) {
    try self.init(cipher: Cipher(key: key), iv: iv)
  }

  /// Encrypts whole blocks in place, without padding.
  ///
  /// - Throws: ``CryptoError/invalidCiphertextLength(_:)`` when `bytes.count` is not a multiple
  ///   of 16 (nothing is changed then).
  public mutating func encrypt(blocksInPlace bytes: inout [UInt8]) throws(CryptoError) {
    guard bytes.count % 16 == 0 else { throw CryptoError.invalidCiphertextLength(bytes.count) }
    let cipher = self.cipher
    // SAFETY: the count is a multiple of 16 (checked above); the kernel works in the array's own storage inside
    // the closure only.
    bytes.withUnsafeMutableBytes { cipher.cbcEncrypt($0, chainingValue: &chainingValue) }
  }

  /// Decrypts whole blocks in place, without removing padding.
  ///
  /// - Throws: ``CryptoError/invalidCiphertextLength(_:)`` when `bytes.count` is not a multiple
  ///   of 16 (nothing is changed then).
  public mutating func decrypt(blocksInPlace bytes: inout [UInt8]) throws(CryptoError) {
    guard bytes.count % 16 == 0 else { throw CryptoError.invalidCiphertextLength(bytes.count) }
    let cipher = self.cipher
    // SAFETY: as in encrypt(blocksInPlace:): whole blocks (checked above), the array's storage, closure only.
    bytes.withUnsafeMutableBytes { cipher.cbcDecrypt($0, chainingValue: &chainingValue) }
  }

  // SAFETY: the caller lends `buffer` for the call; the kernels trap (precondition) rather than read past
  // the end when its count is not a multiple of 16, and load unaligned, so any address is fine.
  /// Encrypts whole blocks of a raw buffer in place, without padding.
  ///
  /// - Precondition: `buffer.count` is a multiple of 16.
  public mutating func encrypt(blocksIn buffer: UnsafeMutableRawBufferPointer) {
    cipher.cbcEncrypt(buffer, chainingValue: &chainingValue)
  }

  /// Decrypts whole blocks of a raw buffer in place, without removing padding.
  ///
  /// - Precondition: `buffer.count` is a multiple of 16.
  public mutating func decrypt(blocksIn buffer: UnsafeMutableRawBufferPointer) {
    cipher.cbcDecrypt(buffer, chainingValue: &chainingValue)
  }

  /// Encrypts `plaintext` with PKCS#7 padding (1 to 16 bytes are always added).
  ///
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` or
  ///   ``CryptoError/invalidNonceSize(expected:actual:)``.
  public static func encrypt(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
    try encrypt(plaintext, cipher: Cipher(key: key), iv: iv)
  }

  /// Encrypts `plaintext` with PKCS#7 padding under an already expanded cipher.
  public static func encrypt(_ plaintext: [UInt8], cipher: Cipher, iv: [UInt8]) throws(CryptoError) -> [UInt8] {
    var cbc = try CBC(cipher: cipher, iv: iv)
    let padding = 16 - plaintext.count % 16
    var bytes = plaintext
    bytes.reserveCapacity(plaintext.count + padding)
    for _ in 0..<padding { bytes.append(UInt8(padding)) }
    try cbc.encrypt(blocksInPlace: &bytes)
    return bytes
  }

  /// Decrypts `ciphertext` and removes its PKCS#7 padding.
  ///
  /// - Throws: ``CryptoError/invalidCiphertextLength(_:)`` when the length is zero or not a
  ///   multiple of 16, ``CryptoError/invalidPadding`` when the padding is malformed, and key or
  ///   IV size errors.
  public static func decrypt(_ ciphertext: consuming [UInt8], key: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8]
  {
    try decrypt(ciphertext, cipher: Cipher(key: key), iv: iv)
  }

  /// Decrypts `ciphertext` under an already expanded cipher and removes its PKCS#7 padding.
  public static func decrypt(_ ciphertext: consuming [UInt8], cipher: Cipher, iv: [UInt8]) throws(CryptoError)
    -> [UInt8]
  {
    var bytes = ciphertext
    try decryptInPlace(&bytes, cipher: cipher, iv: iv)
    return bytes
  }

  /// Decrypts `bytes` in place and removes the PKCS#7 padding from its end.
  ///
  /// On error `bytes` is left as it was for length errors, and holds the unchecked plaintext for
  /// ``CryptoError/invalidPadding``.
  public static func decryptInPlace(_ bytes: inout [UInt8], cipher: Cipher, iv: [UInt8]) throws(CryptoError) {
    guard !bytes.isEmpty, bytes.count % 16 == 0 else { throw CryptoError.invalidCiphertextLength(bytes.count) }
    var cbc = try CBC(cipher: cipher, iv: iv)
    try cbc.decrypt(blocksInPlace: &bytes)
    try removePadding(&bytes)
  }

  /// Removes the PKCS#7 padding from the end of a decrypted non-empty multiple of 16 bytes.
  ///
  /// - Throws: ``CryptoError/invalidPadding`` when it is malformed (`bytes` is left as it was).
  static func removePadding(_ bytes: inout [UInt8]) throws(CryptoError) {
    let padding = pkcs7PaddingLength(bytes)
    guard padding > 0 else { throw CryptoError.invalidPadding }
    bytes.removeLast(padding)
  }

  /// Returns the PKCS#7 padding length of a plaintext whose count is a non-zero multiple of 16,
  /// or 0 when the padding is malformed. Looks at the last 16 bytes without branching on them.
  static func pkcs7PaddingLength(_ bytes: [UInt8]) -> Int {
    let last = bytes[bytes.count - 1]
    // valid is all ones while the padding is well formed.
    var valid: UInt8 = 0xff
    // last must be in 1...16: (last - 1) < 16.
    valid &= UInt8(truncatingIfNeeded: (Int(last) &- 1) >> 8) ^ 0xff
    valid &= UInt8(truncatingIfNeeded: (15 &- (Int(last) &- 1)) >> 8) ^ 0xff
    for distance in 1...16 {
      let byte = bytes[bytes.count - distance]
      // inPadding is all ones when distance <= last.
      let inPadding = UInt8(truncatingIfNeeded: (Int(last) &- distance) >> 8) ^ 0xff
      let differs = byte ^ last
      // differsMask is all ones when differs != 0.
      let differsMask = UInt8(truncatingIfNeeded: (0 &- Int(differs)) >> 8)
      valid &= ~(inPadding & differsMask)
    }
    return Int(last) & Int(Int8(bitPattern: valid))
  }
}
