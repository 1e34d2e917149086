/// Errors thrown by the public-key code of `KDBXCrypto` (P-256 ECDSA, Ed25519, DER and PEM). Every case describes
/// the input, never a secret in it.
public enum PublicKeyError: Error, Equatable, Sendable {
  /// A private key was not a valid scalar: wrong length, zero, or not below the group order (FIPS 186-5 §A.2,
  /// RFC 8032 §5.1.5 for the 32-byte seed).
  case invalidPrivateKey(reason: String)
  /// A public key was not a valid point: wrong length or prefix, a coordinate not below p, not on the curve, the
  /// point at infinity (SEC 1 §2.3.4), or a non-canonical Ed25519 encoding (RFC 8032 §5.1.3).
  case invalidPublicKey(reason: String)
  /// A signature was not well-formed: wrong length, or DER that is not `SEQUENCE { INTEGER r, INTEGER s }`
  /// (SEC 1 §C.5). A well-formed signature that does not verify is reported by `isValidSignature` as `false`.
  case invalidSignatureEncoding(reason: String)
  /// DER that breaks X.690's distinguished rules or the structure expected: truncated, a lying or non-minimal
  /// length, an indefinite length, too deep, or bytes left over. `offset` is where the reader stopped.
  case malformedDER(reason: String, offset: Int)
  /// PEM text without a well-formed `-----BEGIN label-----` ... `-----END label-----` block or with bad Base64
  /// (RFC 7468 §2-3).
  case malformedPEM(reason: String)
  /// A key of a known algorithm that this library does not sign with (for example `rsaEncryption`, or an
  /// encrypted PKCS#8 key); the name says which.
  case unsupportedAlgorithm(String)
  /// An EC key on a curve other than P-256 (its OID, dotted).
  case unsupportedCurve(String)
  /// A well-formed key of a different type than the caller asked for (for example an Ed25519 key read as P-256).
  case keyTypeMismatch(expected: String, found: String)
}

extension PublicKeyError: CustomStringConvertible {
  /// A one-line description in words.
  public var description: String {
    switch self {
    case .invalidPrivateKey(let reason): return "invalid private key: \(reason)"
    case .invalidPublicKey(let reason): return "invalid public key: \(reason)"
    case .invalidSignatureEncoding(let reason): return "invalid signature encoding: \(reason)"
    case .malformedDER(let reason, let offset): return "malformed DER at byte \(offset): \(reason)"
    case .malformedPEM(let reason): return "malformed PEM: \(reason)"
    case .unsupportedAlgorithm(let name): return "unsupported key algorithm for signing: \(name)"
    case .unsupportedCurve(let oid): return "unsupported curve \(oid)"
    case .keyTypeMismatch(let expected, let found): return "expected a \(expected) key, found \(found)"
    }
  }
}
