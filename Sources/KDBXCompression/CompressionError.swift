/// Errors thrown by `KDBXCompression`.
///
/// Every malformed-input case carries `offset`: the byte offset in the input where the problem was
/// found (for a Huffman-coded symbol, the byte holding its first unread bit). Each case is one
/// failure class; ``failureClass`` gives its stable name, which the invalid-stream fixtures in
/// `Vectors/deflate/invalid/` use.
public enum CompressionError: Error, Equatable, Sendable {
  /// The input ended before the stream was complete (RFC 1951 §3.2, RFC 1952 §2.2).
  case truncated(offset: Int)
  /// A block header has BTYPE = 11, which RFC 1951 §3.2.3 reserves.
  case reservedBlockType(offset: Int)
  /// A stored block's NLEN is not the one's complement of LEN (RFC 1951 §3.2.4).
  case invalidStoredLength(offset: Int)
  /// A set of code lengths leaves some codes unused (RFC 1951 §3.2.2); only a single one-bit code
  /// may be incomplete, and the literal/length code must code end-of-block.
  case incompleteCodeLengths(offset: Int)
  /// A set of code lengths uses more codes than exist for the lengths (RFC 1951 §3.2.2).
  case oversubscribedCodeLengths(offset: Int)
  /// The code-length sequence of a dynamic block header is invalid (RFC 1951 §3.2.7): a repeat
  /// (symbol 16) with no previous length, a repeat that runs past HLIT + HDIST, HLIT above 286 or
  /// HDIST above 30.
  case invalidCodeLengthSequence(offset: Int)
  /// A decoded code is not assigned, or decodes to a symbol RFC 1951 §3.2.5 never uses
  /// (literal/length 286 and 287, distance 30 and 31).
  case invalidSymbol(offset: Int)
  /// A distance points before the start of the output (RFC 1951 §3.2.3).
  case distanceTooFar(offset: Int)
  /// Bytes follow the end of the stream (after the final block, or after the last gzip member).
  case trailingGarbage(offset: Int)
  /// A gzip header is malformed: wrong ID1/ID2, a compression method other than 8, or reserved
  /// flag bits set (RFC 1952 §2.3.1).
  case invalidHeader(offset: Int)
  /// The CRC-32 of the output, or the header CRC-16 (FHCRC), does not match (RFC 1952 §2.3.1).
  case checksumMismatch(offset: Int)
  /// ISIZE does not match the output length modulo 2^32 (RFC 1952 §2.3.1).
  case sizeMismatch(offset: Int)
  /// Decompressing would produce more than the caller's `maxOutputByteCount` bytes.
  case outputLimitExceeded(limit: Int)

  /// The input byte offset where the problem was found, or `nil` for `outputLimitExceeded`.
  public var offset: Int? {
    switch self {
    case .truncated(let offset), .reservedBlockType(let offset), .invalidStoredLength(let offset),
      .incompleteCodeLengths(let offset), .oversubscribedCodeLengths(let offset),
      .invalidCodeLengthSequence(let offset), .invalidSymbol(let offset), .distanceTooFar(let offset),
      .trailingGarbage(let offset), .invalidHeader(let offset), .checksumMismatch(let offset),
      .sizeMismatch(let offset):
      return offset
    case .outputLimitExceeded:
      return nil
    }
  }

  /// The stable name of the failure class, for example `"distance-too-far"`.
  public var failureClass: String {
    switch self {
    case .truncated: return "truncated"
    case .reservedBlockType: return "reserved-block-type"
    case .invalidStoredLength: return "invalid-stored-length"
    case .incompleteCodeLengths: return "incomplete-code-lengths"
    case .oversubscribedCodeLengths: return "oversubscribed-code-lengths"
    case .invalidCodeLengthSequence: return "invalid-code-length-sequence"
    case .invalidSymbol: return "invalid-symbol"
    case .distanceTooFar: return "distance-too-far"
    case .trailingGarbage: return "trailing-garbage"
    case .invalidHeader: return "invalid-header"
    case .checksumMismatch: return "checksum-mismatch"
    case .sizeMismatch: return "size-mismatch"
    case .outputLimitExceeded: return "output-limit-exceeded"
    }
  }
}
