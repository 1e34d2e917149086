import KDBXBase

extension P256 {
  /// ECDSA over P-256 with SHA-256 (FIPS 186-5 §6.4), with deterministic nonces (RFC 6979 §3.2).
  ///
  /// ```swift
  /// var random = SystemRandomNumberGenerator()
  /// let key = P256.Signing.PrivateKey(generatingWith: &random)
  /// let signature = key.signature(for: message)
  /// let ok = key.publicKey.isValidSignature(signature, for: message)
  /// ```
  public enum Signing {}
}

extension P256.Signing {
  /// An ECDSA P-256 private key: the scalar d, 1 <= d <= n-1 (FIPS 186-5 §6.2.1), held in ``SecureBytes`` and
  /// zeroed when released. Its `description` shows the public key only.
  public struct PrivateKey: Sendable, CustomStringConvertible {
    /// d as 32 big-endian bytes (SEC 1 §2.3.7).
    let secret: SecureBytes
    /// The public key Q = d·G.
    public let publicKey: PublicKey

    /// Reads d from 32 big-endian bytes (SEC 1 §2.3.7) and checks 1 <= d <= n-1 (FIPS 186-5 §A.2).
    public init(rawRepresentation bytes: [UInt8]) throws(PublicKeyError) {
      guard bytes.count == 32 else { throw .invalidPrivateKey(reason: "a P-256 key has 32 bytes, not \(bytes.count)") }
      guard let scalar = P256.scalar(bigEndian: bytes[...]) else {
        throw .invalidPrivateKey(reason: "the scalar is zero or not below the group order")
      }
      self.secret = SecureBytes(bytes)
      self.publicKey = PublicKey(point: P256Point.generatorMultiple(scalar))
    }

    /// Makes a new key from `random` by rejection sampling (FIPS 186-5 §A.2.2): 32 random bytes are drawn until
    /// they form a scalar in 1...n-1 (the first draw fails with probability below 2^-32).
    public init(generatingWith random: inout some RandomNumberGenerator) {
      while true {
        var candidate: [UInt8] = []
        candidate.reserveCapacity(32)
        for _ in 0..<4 {
          let word = random.next()
          for shift in stride(from: 56, through: 0, by: -8) {
            candidate.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
          }
        }
        defer { SecureBytes.wipe(&candidate) }
        if let key = try? PrivateKey(rawRepresentation: candidate) {
          self = key
          return
        }
      }
    }

    /// A copy of d as 32 big-endian bytes. The copy is not protected: zero it with ``SecureBytes/wipe(_:)``.
    public var rawRepresentation: [UInt8] { secret.bytes }

    /// Signs SHA-256(`message`) (FIPS 186-5 §6.4.1) with the RFC 6979 §3.2 nonce.
    public func signature(for message: [UInt8]) -> ECDSASignature {
      signature(forDigest: SHA256.hash(message))
    }

    /// Signs a SHA-256 digest (FIPS 186-5 §6.4.1 steps 3-10) with the nonce of RFC 6979 §3.2 (HMAC-SHA-256).
    /// Scalar multiplication and inversion run in constant time.
    public func signature(forDigest digest: SHA256.Digest) -> ECDSASignature {
      let hash = digest.bytes
      // bits2int(H) for a 256-bit hash and a 256-bit order: the hash as an integer (RFC 6979 §2.3.2).
      let e = Limbs256(bigEndian: hash[...]) ?? .zero
      let eScalar = P256.Scalar(reducing: e)
      var key = secret.bytes
      defer { SecureBytes.wipe(&key) }
      let d = P256.Scalar(reducing: Limbs256(bigEndian: key[...]) ?? .zero)
      var nonces = RFC6979Nonces(key: key, reducedHash: eScalar.value.bigEndianBytes)
      defer { nonces.wipe() }
      while true {
        let k = nonces.next()
        guard let rx = P256Point.generatorMultiple(k).affine?.x else { continue }
        let r = P256.Scalar(reducing: rx)
        let s = P256.Scalar(reducing: k).inverse * (eScalar + r * d)
        // r = 0 or s = 0 happens with probability about 2^-256; RFC 6979 §3.4 then takes the next k.
        guard r.isZeroMask == 0, s.isZeroMask == 0 else { continue }
        return ECDSASignature(r: r.value, s: s.value)
      }
    }

    /// The type and the public key; never the secret.
    public var description: String { "P256.Signing.PrivateKey(public: \(publicKey))" }
  }

  /// An ECDSA P-256 public key: a point Q on the curve other than the point at infinity (SEC 1 §3.2.2).
  public struct PublicKey: Sendable, Equatable, CustomStringConvertible {
    let point: P256Point
    /// The uncompressed SEC 1 encoding, kept for comparison and output.
    let encoded: [UInt8]

    init(point: P256Point) {
      self.point = point
      self.encoded = point.sec1(compressed: false) ?? []
    }

    /// Reads a SEC 1 §2.3.4 point, uncompressed (04 || X || Y, 65 bytes) or compressed (02/03 || X, 33 bytes),
    /// and validates it (SEC 1 §3.2.2.1: coordinates below p, on the curve, not the point at infinity; the
    /// cofactor is 1).
    public init(sec1Representation bytes: [UInt8]) throws(PublicKeyError) {
      guard let point = P256Point(sec1: bytes[...]) else {
        throw .invalidPublicKey(reason: "not a valid SEC 1 P-256 point (\(bytes.count) bytes)")
      }
      self.init(point: point)
    }

    /// The SEC 1 §2.3.3 encoding: 65 bytes 04 || X || Y, or 33 bytes 02/03 || X when `compressed`.
    public func sec1Representation(compressed: Bool = false) -> [UInt8] {
      compressed ? [0x02 | (encoded.last ?? 0) & 1] + encoded[1..<33] : encoded
    }

    /// Whether `signature` is valid for SHA-256(`message`) (FIPS 186-5 §6.4.2).
    public func isValidSignature(_ signature: ECDSASignature, for message: [UInt8]) -> Bool {
      isValidSignature(signature, forDigest: SHA256.hash(message))
    }

    /// Whether `signature` is valid for a SHA-256 digest (FIPS 186-5 §6.4.2): r and s in 1...n-1, then
    /// R = (e·s^-1)·G + (r·s^-1)·Q is not the point at infinity and x(R) mod n = r. A high s is accepted, as ECDSA
    /// allows.
    public func isValidSignature(_ signature: ECDSASignature, forDigest digest: SHA256.Digest) -> Bool {
      let order = P256.order
      let r = signature.r
      let s = signature.s
      guard r.isZeroMask == 0, s.isZeroMask == 0, r.lessThanMask(order) != 0, s.lessThanMask(order) != 0 else {
        return false
      }
      let e = P256.Scalar(reducing: Limbs256(bigEndian: digest.bytes[...]) ?? .zero)
      let w = P256.Scalar(reducing: s).inverse
      let u1 = (e * w).value
      let u2 = (P256.Scalar(reducing: r) * w).value
      guard let x = P256Point.verificationSum(u1, u2, point).affine?.x else { return false }
      return P256.Scalar(reducing: x).value.equalMask(r) != 0
    }

    /// Compares the encodings (public data, so not in constant time).
    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool { lhs.encoded == rhs.encoded }

    /// The uncompressed point in hexadecimal.
    public var description: String { "P256.Signing.PublicKey(\(Hex.encode(encoded)))" }
  }

  /// An ECDSA signature (r, s) (FIPS 186-5 §6.4.1), 1 <= r, s <= n-1 once verified.
  public struct ECDSASignature: Sendable, Equatable {
    let r: Limbs256
    let s: Limbs256

    init(r: Limbs256, s: Limbs256) {
      self.r = r
      self.s = s
    }

    /// Reads r || s, 32 big-endian bytes each (the IEEE P1363 form). Values out of range are kept and rejected
    /// by verification.
    public init(rawRepresentation bytes: [UInt8]) throws(PublicKeyError) {
      guard bytes.count == 64, let r = Limbs256(bigEndian: bytes[0..<32]), let s = Limbs256(bigEndian: bytes[32...])
      else { throw .invalidSignatureEncoding(reason: "a raw P-256 signature has 64 bytes, not \(bytes.count)") }
      self.init(r: r, s: s)
    }

    /// Reads DER `Ecdsa-Sig-Value ::= SEQUENCE { r INTEGER, s INTEGER }` (SEC 1 §C.5, RFC 5480 §2.2.3),
    /// strictly: minimal lengths and integers, no trailing bytes, r and s at most 32 bytes.
    public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
      do throws(PublicKeyError) {
        var outer = DERReader(bytes)
        var sequence = try outer.readSequence("Ecdsa-Sig-Value")
        try outer.finish("the signature")
        let r = try sequence.readUnsignedInteger("r")
        let s = try sequence.readUnsignedInteger("s")
        try sequence.finish("s")
        guard r.count <= 32, s.count <= 32 else {
          throw PublicKeyError.invalidSignatureEncoding(reason: "r or s longer than 32 bytes")
        }
        let pad = { (value: ArraySlice<UInt8>) -> ArraySlice<UInt8> in
          (Array(repeating: 0, count: 32 - value.count) + value)[...]
        }
        self.init(r: Limbs256(bigEndian: pad(r)) ?? .zero, s: Limbs256(bigEndian: pad(s)) ?? .zero)
      } catch {
        if case .malformedDER(let reason, let offset) = error {
          throw .invalidSignatureEncoding(reason: "\(reason) at byte \(offset)")
        }
        throw error
      }
    }

    /// r || s, 64 bytes.
    public var rawRepresentation: [UInt8] { r.bigEndianBytes + s.bigEndianBytes }

    /// DER `SEQUENCE { r INTEGER, s INTEGER }` (SEC 1 §C.5).
    public var derRepresentation: [UInt8] {
      DER.sequence(DER.unsignedInteger(r.bigEndianBytes), DER.unsignedInteger(s.bigEndianBytes))
    }

    /// Compares r and s.
    public static func == (lhs: ECDSASignature, rhs: ECDSASignature) -> Bool {
      lhs.r.equalMask(rhs.r) & lhs.s.equalMask(rhs.s) != 0
    }
  }
}

/// The deterministic nonce generator of RFC 6979 §3.2 for P-256 with HMAC-SHA-256 (qlen = hlen = 256).
struct RFC6979Nonces {
  private var k: [UInt8]
  private var v: [UInt8]
  private var first = true

  /// `key` is int2octets(x), `reducedHash` is bits2octets(h1) (RFC 6979 §2.3.3, §2.3.4); step d to g of §3.2.
  init(key: [UInt8], reducedHash: [UInt8]) {
    v = [UInt8](repeating: 0x01, count: 32)
    k = [UInt8](repeating: 0x00, count: 32)
    var material = v + [0x00] + key + reducedHash
    k = HMAC<SHA256>.authenticationCode(for: material, key: k).bytes
    v = HMAC<SHA256>.authenticationCode(for: v, key: k).bytes
    material = v + [0x01] + key + reducedHash
    k = HMAC<SHA256>.authenticationCode(for: material, key: k).bytes
    SecureBytes.wipe(&material)
    v = HMAC<SHA256>.authenticationCode(for: v, key: k).bytes
  }

  /// Zeroes K and V (the arrays they replaced along the way are gone without being zeroed: see `SecureBytes`).
  mutating func wipe() {
    SecureBytes.wipe(&k)
    SecureBytes.wipe(&v)
  }

  /// The next candidate k in 1...n-1 (step h; after a rejected or unusable k, step h.3 first).
  mutating func next() -> Limbs256 {
    while true {
      if !first {
        k = HMAC<SHA256>.authenticationCode(for: v + [0x00], key: k).bytes
        v = HMAC<SHA256>.authenticationCode(for: v, key: k).bytes
      }
      first = false
      v = HMAC<SHA256>.authenticationCode(for: v, key: k).bytes
      if let candidate = P256.scalar(bigEndian: v[...]) { return candidate }
    }
  }
}
