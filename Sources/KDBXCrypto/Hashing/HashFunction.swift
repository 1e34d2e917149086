/// A cryptographic hash function with a one-shot and a streaming interface.
///
/// Conforming types are value types: copying a hasher mid-stream and continuing both copies
/// gives two independent, correct digests.
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
  mutating func update(_ bytes: UnsafeRawBufferPointer)

  /// Finishes the hash and returns the digest.
  consuming func finalize() -> Digest
}

/// The output of a ``HashFunction``. Equality is checked in constant time.
public protocol HashDigest: Sendable, Equatable, CustomStringConvertible {
  /// The digest bytes, in the order the specification writes them.
  var bytes: [UInt8] { get }
}

extension HashFunction {
  /// Absorbs the bytes of `bytes` into the running hash.
  @inlinable
  public mutating func update(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { update($0) }
  }

  /// Absorbs the bytes of `bytes` into the running hash.
  @inlinable
  public mutating func update(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBytes { update($0) }
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
  /// Lowercase hexadecimal form of the digest. Digests are not secret by themselves, but callers
  /// that hash secrets should not print them.
  public var description: String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    var text = ""
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0f)])
    }
    return text
  }
}
