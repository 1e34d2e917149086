/// SHA-1, as specified in FIPS 180-4 §6.1.
///
/// - Warning: SHA-1 is broken for collision resistance (practical collisions exist). It is here
///   only for compatibility: HMAC-SHA-1 (RFC 2202) and formats that still name it. Do not use it
///   for new designs. It has no secret-dependent branches or table lookups.
///
/// ```swift
/// let digest = SHA1.hash(Array("abc".utf8))
/// ```
public struct SHA1: HashFunction, MerkleDamgardHash {
  /// A 20-byte SHA-1 digest, stored inline. `==` compares in constant time.
  public struct Digest: HashDigest {
    /// The digest bytes in specification order (each word big-endian in memory).
    @usableFromInline var storage: (UInt32, UInt32, UInt32, UInt32, UInt32)

    @usableFromInline
    init(storage: (UInt32, UInt32, UInt32, UInt32, UInt32)) { self.storage = storage }

    @inlinable
    // SAFETY: `copy` is a local homogeneous tuple of words (contiguous, no padding), so its bytes are the
    // digest in order; they are lent to `body` for the closure only.
    public func withUnsafeBytes<Result, Failure: Error>(
      _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      var copy = storage
      return try Swift.withUnsafeBytes(of: &copy) { (raw) throws(Failure) -> Result in try body(raw) }
    }

    /// Constant-time comparison (see ``ConstantTime``).
    @inlinable
    public static func == (lhs: Digest, rhs: Digest) -> Bool {
      // SAFETY: both digests' bytes, compared inside the closures only.
      lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in ConstantTime.equals(a, b) } }
    }
  }

  /// The five working words H0...H4 (FIPS 180-4 §6.1).
  struct State {
    var h0: UInt32, h1: UInt32, h2: UInt32, h3: UInt32, h4: UInt32
  }

  /// 64: SHA-1 processes 512-bit blocks.
  public static var blockByteCount: Int { 64 }
  /// 20: SHA-1 produces a 160-bit digest.
  public static var digestByteCount: Int { 20 }

  static var blockSize: Int { 64 }
  static var lengthFieldSize: Int { 8 }

  var state: State
  var buffer: BlockBuffer64
  var bufferCount: Int
  var totalByteCount: UInt64

  /// Creates a hasher with the initial hash value of FIPS 180-4 §5.3.1.
  public init() {
    state = State(h0: 0x6745_2301, h1: 0xefcd_ab89, h2: 0x98ba_dcfe, h3: 0x1032_5476, h4: 0xc3d2_e1f0)
    buffer = (0, 0, 0, 0, 0, 0, 0, 0)
    bufferCount = 0
    totalByteCount = 0
  }

  /// Absorbs `bytes` into the running hash (FIPS 180-4 §6.1.2, block by block).
  // SAFETY: `bytes` is lent for the call; absorb (MerkleDamgard+Buffer) reads within its count.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    absorb(bytes)
  }

  /// Pads the message (FIPS 180-4 §5.1.1) and returns the digest H0 || ... || H4.
  public consuming func finalize() -> Digest {
    pad()
    let s = state
    return Digest(storage: (s.h0.bigEndian, s.h1.bigEndian, s.h2.bigEndian, s.h3.bigEndian, s.h4.bigEndian))
  }

  // SAFETY: absorb passes whole blocks only (blockCount * blockSize readable bytes), which the kernel
  // loads unaligned.
  mutating func compress(_ blocks: UnsafeRawPointer, blockCount: Int) {
    SHA1.compress(&state, blocks, blockCount)
  }
}
