/// Errors thrown by `KDBXCompression`. Each malformed-input case carries the byte offset in the
/// input where the problem was found.
public enum CompressionError: Error, Equatable, Sendable {
  /// The input ended before the stream was complete.
  case truncated(offset: Int)
  /// The stream is malformed at `offset`; `reason` names the failure class.
  case malformed(offset: Int, reason: String)
  /// Decompressing would produce more than the caller's `maxOutputByteCount`.
  case outputLimitExceeded(limit: Int)
  /// A checksum (CRC-32 or ISIZE) did not match.
  case checksumMismatch(offset: Int)
}
