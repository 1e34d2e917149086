/// SHA-512, as specified in FIPS 180-4 §6.4.
///
/// ```swift
/// let digest = SHA512.hash(Array("abc".utf8))
/// var hasher = SHA512()
/// hasher.update(part1); hasher.update(part2)
/// let same = hasher.finalize()
/// ```
///
/// The hasher is a value type with inline state (no heap storage); copying it mid-stream forks the
/// computation. SHA-512 has no secret-dependent branches or table lookups, so it runs in time that
/// depends only on the input length.
public struct SHA512: HashFunction, MerkleDamgardHash {
  /// A 64-byte SHA-512 digest, stored inline. `==` compares in constant time.
  public struct Digest: HashDigest {
    /// The digest bytes in specification order (each word big-endian in memory).
    @usableFromInline var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

    @usableFromInline
    init(storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)) { self.storage = storage }

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

  /// The eight working words H0...H7 (FIPS 180-4 §6.4).
  typealias State = SHA2State<UInt64>

  /// 128: SHA-512 processes 1024-bit blocks.
  public static var blockByteCount: Int { 128 }
  /// 64: SHA-512 produces a 512-bit digest.
  public static var digestByteCount: Int { 64 }

  static var blockSize: Int { 128 }
  static var lengthFieldSize: Int { 16 }

  var state: State
  var buffer: BlockBuffer128
  var bufferCount: Int
  var totalByteCount: UInt64

  /// Creates a hasher with the initial hash value of FIPS 180-4 §5.3.5.
  public init() {
    state = State(
      h0: 0x6a09_e667_f3bc_c908, h1: 0xbb67_ae85_84ca_a73b, h2: 0x3c6e_f372_fe94_f82b, h3: 0xa54f_f53a_5f1d_36f1,
      h4: 0x510e_527f_ade6_82d1, h5: 0x9b05_688c_2b3e_6c1f, h6: 0x1f83_d9ab_fb41_bd6b, h7: 0x5be0_cd19_137e_2179)
    buffer = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    bufferCount = 0
    totalByteCount = 0
  }

  /// Absorbs `bytes` into the running hash (FIPS 180-4 §6.4.2, block by block).
  ///
  /// The message length is kept modulo 2^64 bytes, which covers any input this library can hold.
  // SAFETY: `bytes` is lent for the call; absorb (MerkleDamgard+Buffer) reads within its count.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    absorb(bytes)
  }

  /// Pads the message (FIPS 180-4 §5.1.2) and returns the digest H0 || ... || H7.
  public consuming func finalize() -> Digest {
    pad()
    let s = state
    return Digest(
      storage: (
        s.h0.bigEndian, s.h1.bigEndian, s.h2.bigEndian, s.h3.bigEndian,
        s.h4.bigEndian, s.h5.bigEndian, s.h6.bigEndian, s.h7.bigEndian
      ))
  }

  // SAFETY: absorb passes whole blocks only (blockCount * blockSize readable bytes), which the kernel
  // loads unaligned.
  mutating func compress(_ blocks: UnsafeRawPointer, blockCount: Int) {
    SHA512.compress(&state, blocks, blockCount)
  }
}
