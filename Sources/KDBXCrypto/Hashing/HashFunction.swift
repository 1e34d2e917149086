/// A cryptographic hash function with a one-shot and a streaming interface (FIPS 180-4 §1).
///
/// Conforming types are value types: copying a hasher mid-stream and continuing both copies
/// gives two independent, correct digests. Hashers keep their state inline (no heap storage),
/// so copying one is cheap and hashing never allocates.
///
/// ```swift
/// let digest = SHA256.hash(Array("abc".utf8))
/// var hasher = SHA256()
/// hasher.update(Array("ab".utf8))
/// hasher.update(Array("c".utf8))
/// precondition(hasher.finalize() == digest)
/// ```
public protocol HashFunction: Sendable {
  /// The digest type this function produces.
  associatedtype Digest: HashDigest

  /// The size, in bytes, of one compression-function input block (64 for SHA-256, 128 for SHA-512).
  static var blockByteCount: Int { get }

  /// The size, in bytes, of the digest.
  static var digestByteCount: Int { get }

  /// Creates a hasher in its initial state.
  init()

  /// Absorbs `bytes` into the running hash.
  // SAFETY: (contract) implementations read `bytes` only within its count and during the call.
  mutating func update(_ bytes: UnsafeRawBufferPointer)

  /// Finishes the hash (padding per FIPS 180-4 §5.1) and returns the digest.
  consuming func finalize() -> Digest
}

/// The output of a ``HashFunction``. Equality is checked in constant time.
public protocol HashDigest: Sendable, Equatable, CustomStringConvertible {
  /// The digest bytes, in the order the specification writes them. Allocates a new array;
  /// use ``withUnsafeBytes(_:)`` on hot paths.
  var bytes: [UInt8] { get }

  /// Calls `body` with the digest bytes (in specification order) without copying them.
  // SAFETY: (contract) the buffer is valid only inside `body`; implementations lend a local copy.
  func withUnsafeBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result
}

extension HashFunction {
  /// Absorbs the bytes of `bytes` into the running hash.
  @inlinable
  public mutating func update(_ bytes: [UInt8]) {
    // SAFETY: the array's (or slice's) own bytes, read by update inside the closure only.
    bytes.withUnsafeBytes { update($0) }
  }

  /// Absorbs the bytes of `bytes` into the running hash.
  @inlinable
  public mutating func update(_ bytes: ArraySlice<UInt8>) {
    // SAFETY: the array's (or slice's) own bytes, read by update inside the closure only.
    bytes.withUnsafeBytes { update($0) }
  }

  /// Hashes `bytes` in one call.
  @inlinable
  // SAFETY: `bytes` is lent for the call and only read by update.
  public static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
    var hasher = Self()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Hashes `bytes` in one call.
  @inlinable
  public static func hash(_ bytes: [UInt8]) -> Digest {
    var hasher = Self()
    hasher.update(bytes)
    return hasher.finalize()
  }

  /// Hashes `bytes` in one call.
  @inlinable
  public static func hash(_ bytes: ArraySlice<UInt8>) -> Digest {
    var hasher = Self()
    hasher.update(bytes)
    return hasher.finalize()
  }
}

extension HashDigest {
  /// The digest bytes as a new array.
  @inlinable
  public var bytes: [UInt8] {
    // SAFETY: these closures copy, count or compare the digest's bytes and return no pointer; ConstantTime
    // checks the two counts before reading. The hex loop below iterates the buffer (for-in stays in bounds).
    withUnsafeBytes { Array($0) }
  }

  /// The number of bytes in the digest.
  @inlinable
  public var byteCount: Int {
    withUnsafeBytes { $0.count }
  }

  /// Whether the digest equals `other`, compared in constant time (lengths are public).
  @inlinable
  public func matches(_ other: [UInt8]) -> Bool {
    // SAFETY: both buffers are read inside the closures only; ConstantTime.equals checks the counts first.
    withUnsafeBytes { mine in other.withUnsafeBytes { ConstantTime.equals(mine, $0) } }
  }

  /// Lowercase hexadecimal form of the digest. Digests are not secret by themselves, but callers
  /// that hash secrets should not print them.
  public var description: String {
    // SAFETY: the digest's bytes are iterated (for-in stays within the count) inside the closure only.
    withUnsafeBytes { raw in
      let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
      var text = ""
      text.reserveCapacity(raw.count * 2)
      for byte in raw {
        text.append(digits[Int(byte >> 4)])
        text.append(digits[Int(byte & 0x0f)])
      }
      return text
    }
  }
}
