/// Errors thrown by `KDBXCrypto`. Every case describes bad input or parameters; none carries secret data.
public enum CryptoError: Error, Equatable, Sendable {
  /// A key had the wrong length for the algorithm.
  case invalidKeySize(expected: Int, actual: Int)
  /// A nonce or IV had the wrong length for the algorithm.
  case invalidNonceSize(expected: Int, actual: Int)
  /// A ciphertext's length is not a multiple of the cipher's block size.
  case invalidCiphertextLength(Int)
  /// PKCS#7 padding was not valid after decryption.
  case invalidPadding
  /// A parameter was outside the range the algorithm allows; `name` is the parameter's name in its spec.
  case invalidParameter(name: String, reason: String)
  /// A computation would need more memory than the caller's ceiling allows.
  case memoryLimitExceeded(requiredBytes: Int, limitBytes: Int)
  /// Memory within the ceiling could not be had: the caller's memory provider or its page-mapping hook reported
  /// failure (for example `mmap` or `madvise(MADV_POPULATE_WRITE)` failing with `ENOMEM`). Nothing was derived.
  case memoryUnavailable(requiredBytes: Int)
  /// A stream cipher's counter would wrap.
  case counterOverflow
  /// A long-running computation was cancelled by its caller.
  case cancelled
}
