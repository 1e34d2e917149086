/// Ed25519 signatures (RFC 8032 §5.1): the edwards25519 curve with SHA-512, pure mode (no prehash, no context).
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let key = Ed25519.PrivateKey(generatingWith: &random)
/// let signature = key.signature(for: message)          // 64 bytes R || S
/// let ok = key.publicKey.isValidSignature(signature, for: message)
/// ```

import KDBXBase

public enum Ed25519 {}

extension Ed25519 {
  /// An Ed25519 private key: the 32-byte seed of RFC 8032 §5.1.5, held in ``SecureBytes`` and zeroed when
  /// released. Its `description` shows the public key only.
  public struct PrivateKey: Sendable, CustomStringConvertible {
    let seed: SecureBytes
    /// The public key A = [s]B (RFC 8032 §5.1.5).
    public let publicKey: PublicKey

    /// Uses a 32-byte seed (RFC 8032 §5.1.5, "the private key is 32 octets of cryptographically secure random
    /// data").
    public init(rawRepresentation bytes: [UInt8]) throws(PublicKeyError) {
      guard bytes.count == 32 else {
        throw .invalidPrivateKey(reason: "an Ed25519 seed has 32 bytes, not \(bytes.count)")
      }
      self.init(validSeed: bytes)
    }

    /// Uses a seed of exactly 32 bytes.
    init(validSeed bytes: [UInt8]) {
      self.seed = SecureBytes(bytes)
      var expanded = Self.expand(seed)
      defer { SecureBytes.wipe(&expanded) }
      let a = Self.clampedScalar(expanded)
      self.publicKey = PublicKey(point: Ed25519Point.baseMultiple(a))
    }

    /// Makes a new key from 32 bytes of `random`.
    public init(generatingWith random: inout some RandomNumberGenerator) {
      var bytes: [UInt8] = []
      bytes.reserveCapacity(32)
      for _ in 0..<4 {
        let word = random.next()
        for shift in stride(from: 0, through: 56, by: 8) {
          bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
        }
      }
      defer { SecureBytes.wipe(&bytes) }
      self.init(validSeed: bytes)
    }

    /// A copy of the 32-byte seed. The copy is not protected: zero it with ``SecureBytes/wipe(_:)``.
    public var rawRepresentation: [UInt8] { seed.bytes }

    /// SHA-512(seed) (RFC 8032 §5.1.5 step 1).
    static func expand(_ seed: SecureBytes) -> [UInt8] {
      var copy = seed.bytes
      defer { SecureBytes.wipe(&copy) }
      return SHA512.hash(copy).bytes
    }

    /// The first half of the expanded key, pruned (RFC 8032 §5.1.5 step 2): low three bits and the top bit
    /// cleared, bit 254 set.
    static func clampedScalar(_ expanded: [UInt8]) -> Limbs256 {
      var half = Array(expanded.prefix(32))
      defer { SecureBytes.wipe(&half) }
      half[0] &= 248
      half[31] &= 127
      half[31] |= 64
      return Limbs256(littleEndian: half[...]) ?? .zero
    }

    /// Signs `message` (RFC 8032 §5.1.6): R = [r]B with r = SHA-512(prefix || M) mod L, and
    /// S = (r + SHA-512(R || A || M)·s) mod L. Returns R || S, 64 bytes. Deterministic; the scalar
    /// multiplication runs in constant time.
    public func signature(for message: [UInt8]) -> [UInt8] {
      var expanded = Self.expand(seed)
      defer { SecureBytes.wipe(&expanded) }
      let s = Scalar(reducing: Self.clampedScalar(expanded))
      var hasher = SHA512()
      hasher.update(expanded[32..<64])
      hasher.update(message)
      let r = Ed25519.scalar(reducingWide: hasher.finalize().bytes)
      let encodedR = Ed25519Point.baseMultiple(r.value).encoded
      var challenge = SHA512()
      challenge.update(encodedR)
      challenge.update(publicKey.rawRepresentation)
      challenge.update(message)
      let k = Ed25519.scalar(reducingWide: challenge.finalize().bytes)
      let bigS = r + k * s
      return encodedR + bigS.value.littleEndianBytes
    }

    /// The type and the public key; never the seed.
    public var description: String { "Ed25519.PrivateKey(public: \(publicKey))" }
  }

  /// An Ed25519 public key: the 32-byte encoding of the point A (RFC 8032 §5.1.2).
  public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
    /// The encoding A.
    public let rawRepresentation: [UInt8]
    let point: Ed25519Point

    init(point: Ed25519Point) {
      self.point = point
      self.rawRepresentation = point.encoded
    }

    /// Reads a 32-byte encoded point and decodes it (RFC 8032 §5.1.3): a non-canonical y (y >= p), a y with no
    /// x, or x = 0 with the sign bit set is refused.
    public init(rawRepresentation bytes: [UInt8]) throws(PublicKeyError) {
      guard bytes.count == 32 else {
        throw .invalidPublicKey(reason: "an Ed25519 public key has 32 bytes, not \(bytes.count)")
      }
      guard let point = Ed25519Point(encoded: bytes) else {
        throw .invalidPublicKey(reason: "not the encoding of a point of edwards25519")
      }
      self.point = point
      self.rawRepresentation = bytes
    }

    /// Whether `signature` (R || S, 64 bytes) is valid for `message` (RFC 8032 §5.1.7): S must be below L,
    /// and [S]B - [k]A, with k = SHA-512(R || A || M) mod L, must encode to R (the cofactorless check, which also
    /// refuses a non-canonical R).
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
      guard signature.count == 64, let bigS = Limbs256(littleEndian: signature[32..<64]),
        bigS.lessThanMask(Ed25519.order) != 0
      else { return false }
      let encodedR = Array(signature[0..<32])
      var challenge = SHA512()
      challenge.update(encodedR)
      challenge.update(rawRepresentation)
      challenge.update(message)
      let k = Ed25519.scalar(reducingWide: challenge.finalize().bytes)
      let check = Ed25519Point.baseMultiple(bigS) + point.multiplied(by: k.value).negated
      return check.encoded == encodedR
    }

    /// Compares the encodings.
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.rawRepresentation == rhs.rawRepresentation }

    /// The encoding in hexadecimal.
    public var description: String { "Ed25519.PublicKey(\(Hex.encode(rawRepresentation)))" }
  }
}
