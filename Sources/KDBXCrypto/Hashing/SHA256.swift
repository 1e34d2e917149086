/// SHA-256, as specified in FIPS 180-4 §6.2.
///
/// ```swift
/// let digest = SHA256.hash(Array("abc".utf8))
/// var hasher = SHA256()
/// hasher.update(part1); hasher.update(part2)
/// let same = hasher.finalize()
/// ```
///
/// The hasher is a value type with inline state (no heap storage); copying it mid-stream forks the
/// computation. SHA-256 has no secret-dependent branches or table lookups, so it runs in time that
/// depends only on the input length.
public struct SHA256: HashFunction, MerkleDamgardHash {
  /// A 32-byte SHA-256 digest, stored inline. `==` compares in constant time.
  public struct Digest: HashDigest {
    /// The digest bytes in specification order (each word big-endian in memory).
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64)

    @usableFromInline
    init(storage: (UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

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

  /// The eight working words H0...H7 (FIPS 180-4 §6.2).
  typealias State = SHA2State<UInt32>

  /// 64: SHA-256 processes 512-bit blocks.
  public static var blockByteCount: Int { 64 }
  /// 32: SHA-256 produces a 256-bit digest.
  public static var digestByteCount: Int { 32 }

  static var blockSize: Int { 64 }
  static var lengthFieldSize: Int { 8 }

  var state: State
  var buffer: BlockBuffer64
  var bufferCount: Int
  var totalByteCount: UInt64

  /// Creates a hasher with the initial hash value of FIPS 180-4 §5.3.3.
  public init() {
    state = State(
      h0: 0x6a09_e667, h1: 0xbb67_ae85, h2: 0x3c6e_f372, h3: 0xa54f_f53a,
      h4: 0x510e_527f, h5: 0x9b05_688c, h6: 0x1f83_d9ab, h7: 0x5be0_cd19)
    buffer = (0, 0, 0, 0, 0, 0, 0, 0)
    bufferCount = 0
    totalByteCount = 0
  }

  /// Absorbs `bytes` into the running hash (FIPS 180-4 §6.2.2, block by block).
  // SAFETY: `bytes` is lent for the call; absorb (MerkleDamgard+Buffer) reads within its count.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    absorb(bytes)
  }

  /// Pads the message (FIPS 180-4 §5.1.1) and returns the digest H0 || ... || H7.
  public consuming func finalize() -> Digest {
    pad()
    let s = state
    return Digest(
      storage: (
        (UInt64(s.h0) << 32 | UInt64(s.h1)).bigEndian, (UInt64(s.h2) << 32 | UInt64(s.h3)).bigEndian,
        (UInt64(s.h4) << 32 | UInt64(s.h5)).bigEndian, (UInt64(s.h6) << 32 | UInt64(s.h7)).bigEndian
      ))
  }

  // SAFETY: absorb passes whole blocks only (blockCount * blockSize readable bytes), which the kernel
  // loads unaligned.
  mutating func compress(_ blocks: UnsafeRawPointer, blockCount: Int) {
    SHA256.compress(&state, blocks, blockCount)
  }
}
