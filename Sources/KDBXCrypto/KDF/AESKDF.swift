/// The KeePass AES key derivation ("AES-KDF", KDBX 3.1 and 4 KDF UUID c9d9f39a-628a-4460-bf74-0d08c18a4fea).
///
/// The transform encrypts the 32-byte composite key `rounds` times with AES-256 in ECB mode
/// under the 32-byte seed (FIPS 197 §5.1 with the seed as the cipher key), each 16-byte half on
/// its own, and returns SHA-256 (FIPS 180-4 §6.2) of the result. The two halves never mix before
/// the hash, so ``transformConcurrently(key:seed:rounds:progressInterval:progress:)`` runs them on
/// two cores.
///
/// Databases may ask for tens of millions of rounds, so both forms call `progress` every
/// `progressInterval` rounds with `(roundsDone, rounds)`; returning `false` stops the work and
/// throws ``CryptoError/cancelled``.
///
/// - Important: Timing. By default the rounds use the table-based ``AES`` kernel, which is not
///   constant-time (see ``AES``). The seed is public (stored in the file header) but the key is
///   secret. `implementation: .constantTime` selects the bitsliced ``ConstantTimeAES`` instead:
///   same result, about 0.24x the rounds per second (3.3 M against 13.9 M rounds/s on one core of
///   a 2-vCPU AMD EPYC, 2026-12-02), which is why it is not the default.
public enum AESKDF {
  /// A progress callback: receives rounds done and total rounds, returns whether to continue.
  public typealias Progress = (_ roundsDone: UInt64, _ rounds: UInt64) -> Bool

  /// Which AES kernel runs the rounds.
  public enum Implementation: Sendable {
    /// The table-based ``AES`` (fast, not constant-time).
    case tableBased
    /// The bitsliced ``ConstantTimeAES`` (constant-time, slower; see its docs).
    case constantTime
  }

  /// The default number of rounds between progress calls.
  public static var defaultProgressInterval: UInt64 { 1 << 16 }

  /// Checks sizes and expands the seed into an AES-256 key schedule.
  static func prepare(key: [UInt8], seed: [UInt8]) throws(CryptoError) -> (AES, AESWords, AESWords) {
    guard key.count == 32 else { throw CryptoError.invalidKeySize(expected: 32, actual: key.count) }
    guard seed.count == 32 else {
      throw CryptoError.invalidParameter(name: "seed", reason: "must be 32 bytes, got \(seed.count)")
    }
    let aes = try AES(key: seed)
    let first = AESWords(SIMD16<UInt8>(blockBytes: Array(key[0..<16])) ?? SIMD16())
    let second = AESWords(SIMD16<UInt8>(blockBytes: Array(key[16..<32])) ?? SIMD16())
    return (aes, first, second)
  }

  /// SHA-256 of the two transformed halves.
  static func finish(_ first: AESWords, _ second: AESWords) -> [UInt8] {
    SHA256.hash(first.block.blockBytes + second.block.blockBytes).bytes
  }

  /// Derives the transformed key on the calling thread (both halves interleaved).
  ///
  /// - Parameters:
  ///   - key: the 32-byte composite key (SHA-256 of the key parts).
  ///   - seed: the 32-byte transform seed from the header (the AES key).
  ///   - rounds: the number of encryptions of each half; 0 is allowed (then only the hash runs).
  ///   - progressInterval: rounds between calls to `progress` (at least 1).
  ///   - implementation: the AES kernel; both give the same result.
  ///   - progress: called with `(roundsDone, rounds)` after every `progressInterval` rounds and at
  ///     the end; returning `false` cancels.
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)``,
  ///   ``CryptoError/invalidParameter(name:reason:)`` for a bad seed, or ``CryptoError/cancelled``.
  public static func transform(
    key: [UInt8], seed: [UInt8], rounds: UInt64, progressInterval: UInt64 = defaultProgressInterval,
    implementation: Implementation = .tableBased, progress: Progress = { _, _ in true }
  ) throws(CryptoError) -> [UInt8] {
    var (aes, first, second) = try prepare(key: key, seed: seed)
    let bitsliced = implementation == .constantTime ? try ConstantTimeAES(key: seed) : nil
    let interval = max(progressInterval, 1)
    var done: UInt64 = 0
    while done < rounds {
      let step = min(interval, rounds - done)
      if let bitsliced {
        bitsliced.encryptRepeatedly(&first, &second, count: step)
      } else {
        aes.encryptRepeatedly(&first, &second, count: step)
      }
      done += step
      guard progress(done, rounds) else { throw CryptoError.cancelled }
    }
    return finish(first, second)
  }
}
