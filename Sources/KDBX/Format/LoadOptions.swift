/// Ceilings applied while reading a file, so that a hostile file cannot make the reader allocate or compute without
/// bound. The defaults are far above anything KeePass or KeePassXC let a user configure for a real vault; lower
/// them where resources are tight (for example 64 MiB of KDF memory in an AutoFill extension).
public struct LoadOptions: Sendable, Equatable {
  /// Largest Argon2 memory accepted, in bytes. Default 4 GiB.
  public var maxKDFMemoryBytes: UInt64
  /// Most Argon2 iterations accepted. Default 1,000,000.
  public var maxArgon2Iterations: UInt64
  /// Most Argon2 lanes accepted. Default 256.
  public var maxArgon2Parallelism: UInt32
  /// Most AES-KDF rounds accepted. Default 999,999,999, the most KeePassX's settings allowed (about 20 s on a
  /// laptop); a billion rounds or more is refused before the KDF runs.
  public var maxAESKDFRounds: UInt64
  /// Largest decompressed (or unhashed) payload accepted, in bytes. Default 1 GiB.
  public var maxPayloadByteCount: Int
  /// Largest single outer- or inner-header field accepted, in bytes. Default 16 MiB.
  public var maxHeaderFieldByteCount: Int
  /// Deepest XML element nesting accepted. Default 512.
  public var maxXMLDepth: Int

  public init(
    maxKDFMemoryBytes: UInt64 = 4 << 30, maxArgon2Iterations: UInt64 = 1_000_000, maxArgon2Parallelism: UInt32 = 256,
    maxAESKDFRounds: UInt64 = 999_999_999, maxPayloadByteCount: Int = 1 << 30,
    maxHeaderFieldByteCount: Int = 16 << 20, maxXMLDepth: Int = 512
  ) {
    self.maxKDFMemoryBytes = maxKDFMemoryBytes
    self.maxArgon2Iterations = maxArgon2Iterations
    self.maxArgon2Parallelism = maxArgon2Parallelism
    self.maxAESKDFRounds = maxAESKDFRounds
    self.maxPayloadByteCount = maxPayloadByteCount
    self.maxHeaderFieldByteCount = maxHeaderFieldByteCount
    self.maxXMLDepth = maxXMLDepth
  }

  /// The defaults described on each property.
  public static let `default` = LoadOptions()
}
