/// HMAC, the keyed-hash message authentication code of RFC 2104 (also FIPS 198-1), over any
/// ``HashFunction``.
///
/// ```swift
/// let mac = HMAC<SHA256>.authenticationCode(for: message, key: key)
/// var streaming = HMAC<SHA256>(key: key)
/// streaming.update(part1); streaming.update(part2)
/// precondition(streaming.finalize() == mac)   // constant-time comparison
/// ```
///
/// The key is absorbed once at initialisation (RFC 2104 §2 steps 1-3 and the outer pad), so a
/// streaming MAC costs the same as hashing the message plus two short finalizations. The value
/// keeps key-derived hash states; copying it mid-stream forks the computation. The code is
/// generic and `@inlinable`, so `HMAC<SHA256>` is specialised in the caller's module.
public struct HMAC<H: HashFunction>: Sendable {
  /// An HMAC output: the outer hash's digest. `==` compares in constant time.
  public struct MAC: Sendable, Equatable, CustomStringConvertible {
    /// The underlying digest of the outer hash (RFC 2104 §2 step 7).
    public let digest: H.Digest

    @inlinable
    init(digest: H.Digest) { self.digest = digest }

    /// The MAC bytes (a new array).
    @inlinable
    public var bytes: [UInt8] { digest.bytes }

    /// The number of bytes in the MAC (the digest size of `H`).
    @inlinable
    public var byteCount: Int { digest.byteCount }

    /// Calls `body` with the MAC bytes without copying them.
    @inlinable
    // SAFETY: forwards to the digest's own withUnsafeBytes, which lends a local copy's bytes for `body` only.
    public func withUnsafeBytes<Result, Failure: Error>(
      _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
      try digest.withUnsafeBytes(body)
    }

    /// Whether this MAC equals `expected`, compared in constant time. `expected` must have the
    /// full MAC length; a shorter (truncated, RFC 2104 §5) value never matches here, use
    /// ``matches(truncatedTo:_:)`` for that.
    @inlinable
    public func matches(_ expected: [UInt8]) -> Bool {
      digest.matches(expected)
    }

    /// Whether the first `expected.count` bytes of this MAC equal `expected`, in constant time
    /// (RFC 2104 §5 truncated output). Returns `false` when `expected` is empty or longer than the MAC.
    @inlinable
    public func matches(truncatedTo expected: [UInt8]) -> Bool {
      let mine = digest.bytes
      guard !expected.isEmpty, expected.count <= mine.count else { return false }
      return ConstantTime.equals(Array(mine[0..<expected.count]), expected)
    }

    /// Constant-time comparison.
    @inlinable
    public static func == (lhs: MAC, rhs: MAC) -> Bool { lhs.digest == rhs.digest }

    /// Lowercase hexadecimal form. MACs are not secret by themselves, but do not log them needlessly.
    public var description: String { digest.description }
  }

  /// The inner hash, already fed (K ^ ipad) (RFC 2104 §2 steps 2-3).
  @usableFromInline var inner: H
  /// The outer hash, already fed (K ^ opad) (RFC 2104 §2 step 5).
  @usableFromInline var outer: H

  /// Starts an HMAC with `key` (RFC 2104 §2). Keys longer than the hash's block size are hashed
  /// first (§3); any length, including empty, is accepted.
  @inlinable
  public init(key: [UInt8]) {
    let blockSize = H.blockByteCount
    // RFC 2104 §2: K is zero-padded to the block size B (after hashing when longer than B).
    var block = key.count > blockSize ? H.hash(key).bytes : key
    precondition(block.count <= blockSize, "HMAC needs a digest no longer than the hash's block")
    block.append(contentsOf: repeatElement(0, count: blockSize - block.count))
    for index in 0..<blockSize { block[index] ^= 0x36 }
    inner = H()
    inner.update(block)
    for index in 0..<blockSize { block[index] ^= 0x36 ^ 0x5c }
    outer = H()
    outer.update(block)
    for index in 0..<blockSize { block[index] = 0 }
  }

  /// Starts an HMAC with the key bytes in `key` (RFC 2104 §2).
  @inlinable
  // SAFETY: the caller lends `key` for the call; it is copied into an array at once.
  public init(key: UnsafeRawBufferPointer) {
    self.init(key: Array(key))
  }

  /// Absorbs `bytes` into the MAC (RFC 2104 §2 step 3, the "text").
  @inlinable
  // SAFETY: the caller lends `bytes` for the call; the hash reads within its count and keeps no pointer.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    inner.update(bytes)
  }

  /// Absorbs `bytes` into the MAC.
  @inlinable
  public mutating func update(_ bytes: [UInt8]) {
    inner.update(bytes)
  }

  /// Absorbs `bytes` into the MAC.
  @inlinable
  public mutating func update(_ bytes: ArraySlice<UInt8>) {
    inner.update(bytes)
  }

  /// Finishes the MAC: H((K ^ opad) || H((K ^ ipad) || text)) (RFC 2104 §2 steps 4-7).
  @inlinable
  public consuming func finalize() -> MAC {
    let innerDigest = inner.finalize()
    var outerHash = outer
    // SAFETY: the digest's bytes are read by the hasher inside the closure only.
    innerDigest.withUnsafeBytes { outerHash.update($0) }
    return MAC(digest: outerHash.finalize())
  }

  /// Computes the HMAC of `bytes` under `key` in one call.
  @inlinable
  public static func authenticationCode(for bytes: [UInt8], key: [UInt8]) -> MAC {
    var hmac = HMAC(key: key)
    hmac.update(bytes)
    return hmac.finalize()
  }

  /// Computes the HMAC of `bytes` under `key` in one call.
  @inlinable
  public static func authenticationCode(for bytes: ArraySlice<UInt8>, key: [UInt8]) -> MAC {
    var hmac = HMAC(key: key)
    hmac.update(bytes)
    return hmac.finalize()
  }

  /// Computes the HMAC of `bytes` under `key` in one call.
  @inlinable
  // SAFETY: both buffers are only read during the call (the key copied, the bytes hashed).
  public static func authenticationCode(for bytes: UnsafeRawBufferPointer, key: UnsafeRawBufferPointer) -> MAC {
    var hmac = HMAC(key: key)
    hmac.update(bytes)
    return hmac.finalize()
  }

  /// Whether `code` is the full-length HMAC of `bytes` under `key`, compared in constant time.
  @inlinable
  public static func isValidAuthenticationCode(_ code: [UInt8], for bytes: [UInt8], key: [UInt8]) -> Bool {
    authenticationCode(for: bytes, key: key).matches(code)
  }
}
