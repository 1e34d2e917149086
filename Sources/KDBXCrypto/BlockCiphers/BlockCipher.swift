/// A block cipher with a 128-bit block, used through a mode of operation such as ``CBC``.
///
/// Conforming types are immutable value types holding an expanded key, so one instance can be
/// shared between tasks. The block functions work on a `SIMD16<UInt8>` whose lanes are the block's
/// bytes in the order the specification writes them.
public protocol BlockCipher: Sendable {
  /// The key length, in bytes, this type accepts.
  static var keyByteCount: Int { get }

  /// Expands `key`. Throws ``CryptoError/invalidKeySize(expected:actual:)`` when `key.count` is not
  /// ``keyByteCount``.
  init(key: [UInt8]) throws(CryptoError)

  /// Encrypts one 16-byte block.
  func encryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8>

  /// Decrypts one 16-byte block.
  func decryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8>

  // SAFETY: every implementation (CBC+Block, AES+Block, Twofish+Block, ConstantTimeAES+Block) checks
  // `buffer.count % 16 == 0` with a precondition before touching the buffer, loads and stores unaligned 16-byte
  // blocks at offsets below `count`, and keeps no pointer after returning.
  /// CBC-encrypts whole blocks in place (NIST SP 800-38A §6.2), starting from and updating
  /// `chainingValue` (the IV, then the last ciphertext block).
  ///
  /// - Precondition: `buffer.count` is a multiple of 16 (callers validate first).
  func cbcEncrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>)

  // SAFETY: as for cbcEncrypt: whole blocks checked by a precondition, unaligned loads within `count`.
  /// CBC-decrypts whole blocks in place (NIST SP 800-38A §6.2), starting from and updating
  /// `chainingValue` (the IV, then the last ciphertext block).
  ///
  /// - Precondition: `buffer.count` is a multiple of 16 (callers validate first).
  func cbcDecrypt(_ buffer: UnsafeMutableRawBufferPointer, chainingValue: inout SIMD16<UInt8>)
}

extension BlockCipher {
  /// The block length in bytes: 16 for every cipher here.
  @inlinable public static var blockByteCount: Int { 16 }

  /// Encrypts one block given as 16 bytes; returns `nil` when `block.count != 16`.
  @inlinable
  public func encryptBlock(_ block: [UInt8]) -> [UInt8]? {
    guard let vector = SIMD16<UInt8>(blockBytes: block) else { return nil }
    return encryptBlock(vector).blockBytes
  }

  /// Decrypts one block given as 16 bytes; returns `nil` when `block.count != 16`.
  @inlinable
  public func decryptBlock(_ block: [UInt8]) -> [UInt8]? {
    guard let vector = SIMD16<UInt8>(blockBytes: block) else { return nil }
    return decryptBlock(vector).blockBytes
  }
}

extension SIMD16 where Scalar == UInt8 {
  /// Builds a block from exactly 16 bytes, or returns `nil`.
  @inlinable
  init?(blockBytes bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    self.init()
    for index in 0..<16 { self[index] = bytes[index] }
  }

  /// The block's 16 bytes.
  @inlinable
  var blockBytes: [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    for index in 0..<16 { out[index] = self[index] }
    return out
  }
}
