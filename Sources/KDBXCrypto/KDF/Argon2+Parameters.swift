// Argon2 parameters (RFC 9106 §3.1), their validation, and cost planning.

extension Argon2 {
  /// The Argon2 variant, the `y` input of RFC 9106 §3.1.
  public enum Variant: UInt32, Sendable, CaseIterable {
    /// Argon2d: data-dependent addressing. Fastest and most resistant to GPU cracking, but its memory
    /// access pattern depends on the password, so it is **not** resistant to cache-timing side channels.
    case d = 0
    /// Argon2i: data-independent addressing (RFC 9106 §3.4.2). Side-channel resistant.
    case i = 1
    /// Argon2id: data-independent addressing for the first half of the first pass, then data-dependent.
    /// The variant RFC 9106 §4 recommends.
    case id = 2
  }

  /// The Argon2 version, the `v` input of RFC 9106 §3.1.
  public enum Version: UInt32, Sendable, CaseIterable {
    /// Version 1.0, which overwrote blocks in later passes instead of XORing into them. Still found in
    /// KDBX 4 files written by some clients; prefer ``v0x13``.
    case v0x10 = 0x10
    /// Version 1.3, the version RFC 9106 specifies.
    case v0x13 = 0x13
  }

  /// Validated Argon2 parameters (RFC 9106 §3.1).
  ///
  /// The initializer refuses values outside the ranges of RFC 9106 §3.1, so a `Parameters` value read from
  /// an untrusted file header is always safe to plan with ``Argon2/estimate(parameters:)``. Whether the
  /// memory it asks for is acceptable is decided separately, by the memory ceiling of the derivation.
  public struct Parameters: Sendable, Equatable {
    /// The variant (`y`).
    public let variant: Variant
    /// The version (`v`).
    public let version: Version
    /// The number of passes over memory (`t`), 1...2^32-1.
    public let iterations: Int
    /// The memory size in KiB (`m`), 8 * lanes...2^32-1.
    public let memoryKiB: Int
    /// The degree of parallelism (`p`), 1...2^24-1.
    public let lanes: Int
    /// The tag length in bytes (`T`), 4...2^32-1.
    public let outputLength: Int
    /// The optional secret value (`K`), at most 2^32-1 bytes.
    public let secret: [UInt8]
    /// The optional associated data (`X`), at most 2^32-1 bytes.
    public let associatedData: [UInt8]

    /// Creates validated parameters.
    ///
    /// - Throws: ``CryptoError/invalidParameter(name:reason:)`` naming the RFC 9106 §3.1 input (`t`, `m`,
    ///   `p`, `T`, `K`, `X`) that is out of range.
    public init(
      variant: Variant = .id, version: Version = .v0x13, iterations: Int, memoryKiB: Int, lanes: Int,
      outputLength: Int = 32, secret: [UInt8] = [], associatedData: [UInt8] = []
    ) throws(CryptoError) {
      guard Argon2.fitsUInt32(iterations, minimum: 1) else {
        throw CryptoError.invalidParameter(name: "t", reason: "Argon2 iterations must be 1...2^32-1")
      }
      guard lanes >= 1 && lanes <= 0xff_ffff else {
        throw CryptoError.invalidParameter(name: "p", reason: "Argon2 lanes must be 1...2^24-1")
      }
      guard Argon2.fitsUInt32(memoryKiB, minimum: 8 * lanes) else {
        throw CryptoError.invalidParameter(name: "m", reason: "Argon2 memory must be 8*p...2^32-1 KiB")
      }
      guard Argon2.fitsUInt32(outputLength, minimum: 4) else {
        throw CryptoError.invalidParameter(name: "T", reason: "Argon2 tag length must be 4...2^32-1 bytes")
      }
      guard Argon2.fitsUInt32(secret.count, minimum: 0) else {
        throw CryptoError.invalidParameter(name: "K", reason: "Argon2 secret must be at most 2^32-1 bytes")
      }
      guard Argon2.fitsUInt32(associatedData.count, minimum: 0) else {
        throw CryptoError.invalidParameter(name: "X", reason: "Argon2 associated data must be at most 2^32-1 bytes")
      }
      self.variant = variant
      self.version = version
      self.iterations = iterations
      self.memoryKiB = memoryKiB
      self.lanes = lanes
      self.outputLength = outputLength
      self.secret = secret
      self.associatedData = associatedData
    }
  }

  /// What a derivation with given parameters costs (RFC 9106 §3.2 steps 3-6).
  public struct Cost: Sendable, Equatable {
    /// The number of 1 KiB blocks, `m' = 4 * p * floor(m / 4p)`.
    public let blockCount: Int
    /// The bytes of block memory a derivation needs: `m' * 1024`. Nothing else of note is allocated.
    public let memoryByteCount: Int
    /// The blocks per lane, `q = m' / p`.
    public let laneLength: Int
    /// The blocks per segment, `q / 4`.
    public let segmentLength: Int
    /// The work units: calls of the compression function G that fill memory, `m' * t - 2p`.
    /// Time is roughly proportional to this (plus one page fault per 4 KiB page on the first pass).
    public let blockCompressions: Int
  }

  /// The memory and work a derivation with `parameters` needs, without running it.
  ///
  /// On a 32-bit platform a block count too large to address gives a `memoryByteCount` of `Int.max`,
  /// which every memory ceiling refuses.
  public static func estimate(parameters: Parameters) -> Cost {
    let lanes = parameters.lanes
    let blockCount = 4 * lanes * (parameters.memoryKiB / (4 * lanes))
    let (bytes, overflow) = blockCount.multipliedReportingOverflow(by: 1024)
    let (work, workOverflow) = blockCount.multipliedReportingOverflow(by: parameters.iterations)
    return Cost(
      blockCount: blockCount, memoryByteCount: overflow ? Int.max : bytes, laneLength: blockCount / lanes,
      segmentLength: blockCount / lanes / 4, blockCompressions: workOverflow ? Int.max : work - 2 * lanes)
  }

  /// Whether `value` lies in `minimum...2^32-1`, without trapping where `Int` is 32 bits wide.
  static func fitsUInt32(_ value: Int, minimum: Int) -> Bool {
    value >= minimum && UInt64(value) <= UInt64(UInt32.max)
  }
}
