/// The Salsa20/20 stream cipher (D. J. Bernstein, "Salsa20 specification", 2005) with a 256-bit
/// key, a 64-bit nonce and a 64-bit block counter: the form KeePass uses for KDBX 3.1 protected
/// values (inner random stream id 2).
///
/// ```swift
/// var cipher = try Salsa20(key: key, nonce: nonce)
/// cipher.apply(to: &bytes)   // XORs the keystream in place
/// ```
/// Several `apply` calls act as one call on the joined input; ``seek(toBlock:)`` jumps to a block.
///
/// Timing: only 32-bit additions, XORs and fixed rotations, so it is constant-time.
///
/// The bulk kernel computes nine blocks per step (eight `SIMD8<UInt32>` lanes and one block in
/// general-purpose registers, in one round loop; see ``ChaCha20``), shorter runs four `SIMD4`
/// lanes; ``block(key:nonce:counter:)`` is the plain "Salsa20 expansion" of the specification
/// (§8-§10), kept as the reference. Speed on the baseline x86-64 target (SSE2, 2-vCPU AMD EPYC,
/// 16 MiB, thread CPU time): about 1.45x the former four-block kernel, about 0.7x libsodium's AVX2
/// code in the same run; built with `-target-cpu haswell` (AVX2) the same code runs about 1.3x the
/// SSE2 build, about 0.95x libsodium.
public struct Salsa20: Sendable {
  @usableFromInline var keyWords: SIMD8<UInt32>
  @usableFromInline var nonceWords: SIMD2<UInt32>
  /// The counter of the next keystream block (wraps modulo 2^64, after 2^70 bytes).
  @usableFromInline var nextBlock: UInt64
  @usableFromInline var pending: SIMD16<UInt32>
  @usableFromInline var pendingCount: Int

  /// Creates a cipher positioned at block `counter`.
  ///
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` unless `key` has 32 bytes, and
  ///   ``CryptoError/invalidNonceSize(expected:actual:)`` unless `nonce` has 8 bytes.
  public init(key: [UInt8], nonce: [UInt8], counter: UInt64 = 0) throws(CryptoError) {
    guard key.count == 32 else { throw CryptoError.invalidKeySize(expected: 32, actual: key.count) }
    guard nonce.count == 8 else { throw CryptoError.invalidNonceSize(expected: 8, actual: nonce.count) }
    keyWords = SIMD8()
    for index in 0..<8 { keyWords[index] = littleEndianWord(key, 4 * index) }
    nonceWords = SIMD2(littleEndianWord(nonce, 0), littleEndianWord(nonce, 4))
    nextBlock = counter
    pending = SIMD16()
    pendingCount = 0
  }

  /// Moves to the start of keystream block `block` (byte offset 64 · block).
  public mutating func seek(toBlock block: UInt64) {
    nextBlock = block
    pendingCount = 0
  }

  /// XORs the keystream into `bytes`, continuing where the previous call stopped.
  public mutating func apply(to bytes: inout [UInt8]) {
    // SAFETY: the kernel reads and writes only the array's own `count` bytes, inside the closure (its bounds
    // are noted in Salsa20+Block.swift) and keeps no pointer.
    bytes.withUnsafeMutableBytes { apply(to: $0) }
  }

  /// The Salsa20 expansion of the key, nonce and block counter (specification §9-§10): 64 bytes.
  ///
  /// - Throws: the key and nonce size errors of ``init(key:nonce:counter:)``.
  public static func block(key: [UInt8], nonce: [UInt8], counter: UInt64) throws(CryptoError) -> [UInt8] {
    let cipher = try Salsa20(key: key, nonce: nonce, counter: counter)
    let words = cipher.referenceBlock(counter: counter)
    var out = [UInt8](repeating: 0, count: 64)
    for index in 0..<64 { out[index] = UInt8(truncatingIfNeeded: words[index / 4] >> (8 * UInt32(index % 4))) }
    return out
  }
}
