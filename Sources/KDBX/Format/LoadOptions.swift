/// Ceilings applied while reading a file, so that a hostile file cannot make the reader allocate or compute without
/// bound. The defaults are far above anything KeePass or KeePassXC let a user configure for a real vault; lower
/// them where resources are tight (for example 64 MiB of KDF memory in an AutoFill extension).
///
/// Every limit is checked before the allocation or the work it guards: header and inner-header field lengths
/// before the field is read, KDF costs when the header is parsed (before the KDF runs), block sizes before a block
/// is copied, the gzip output while it is inflated, and the XML depth and node count while the document is read. A
/// file over a limit throws ``KDBXError/limitExceeded(what:value:limit:)`` (``KDBXError/compression(_:)`` with
/// `outputLimitExceeded` for gzip, ``KDBXError/xml(_:)`` with a depth limit for XML).
public struct LoadOptions: Sendable, Equatable {
  /// Largest Argon2 memory accepted, in bytes. Default 4 GiB (KeePassXC's default is 64 MiB, KeePass 2's 1 MiB).
  public var maxKDFMemoryBytes: UInt64
  /// Most Argon2 iterations accepted. Default 1,000,000 (KeePass 2 writes 2; KeePassXC calibrates to about one
  /// second, typically tens of iterations).
  public var maxArgon2Iterations: UInt64
  /// Most Argon2 lanes accepted. Default 256 (KeePass 2 writes 2; KeePassXC the number of CPU cores).
  public var maxArgon2Parallelism: UInt32
  /// Most AES-KDF rounds accepted. Default 999,999,999, the most KeePassX's settings allowed (about 20 s on a
  /// laptop); a billion rounds or more is refused before the KDF runs.
  public var maxAESKDFRounds: UInt64
  /// Largest decompressed (or unhashed) payload accepted, in bytes; also the largest single binary. Default 1 GiB
  /// (real vaults are kilobytes to tens of megabytes, attachments included).
  public var maxPayloadByteCount: Int
  /// Largest single outer- or inner-header field accepted, in bytes (inner-header binaries fall under
  /// ``maxPayloadByteCount`` instead). Default 16 MiB (real header fields are at most a few hundred bytes).
  public var maxHeaderFieldByteCount: Int
  /// Deepest XML element nesting accepted. Default 512 (an entry in a group nested 20 deep is about 30 levels
  /// down).
  public var maxXMLDepth: Int
  /// Most XML nodes (elements, text runs, CDATA sections, comments, processing instructions) accepted in the
  /// database document. Default 16,777,216: `large_5000` (5,000 entries and 1,000 history items, 8 MB of XML),
  /// the corpus file with the most, has 351,749, so the default is 47 times that. Together with the bound on what
  /// the model may hold (three times the document's size plus 16 MiB, see ``DatabaseXMLReader``), it bounds the
  /// work and memory of a hostile document: millions of tiny elements are refused before they are all read.
  public var maxXMLNodeCount: Int

  public init(
    maxKDFMemoryBytes: UInt64 = 4 << 30, maxArgon2Iterations: UInt64 = 1_000_000, maxArgon2Parallelism: UInt32 = 256,
    maxAESKDFRounds: UInt64 = 999_999_999, maxPayloadByteCount: Int = 1 << 30,
    maxHeaderFieldByteCount: Int = 16 << 20, maxXMLDepth: Int = 512, maxXMLNodeCount: Int = 16 << 20
  ) {
    self.maxKDFMemoryBytes = maxKDFMemoryBytes
    self.maxArgon2Iterations = maxArgon2Iterations
    self.maxArgon2Parallelism = maxArgon2Parallelism
    self.maxAESKDFRounds = maxAESKDFRounds
    self.maxPayloadByteCount = maxPayloadByteCount
    self.maxHeaderFieldByteCount = maxHeaderFieldByteCount
    self.maxXMLDepth = maxXMLDepth
    self.maxXMLNodeCount = maxXMLNodeCount
  }

  /// The defaults described on each property.
  public static let `default` = LoadOptions()
}
