import KDBXCrypto

/// The signature algorithms of passkeys in KeePass vaults, by their COSE identifiers (IANA "COSE Algorithms";
/// RFC 9053 §2.1 for ES256, RFC 8152 §8.2 for EdDSA, RFC 8812 §2 for RS256). KeePassXC creates all three
/// (`BrowserPasskeys::buildCredentialPrivateKey`); this library signs with ES256 and EdDSA and keeps RS256 keys
/// untouched.
public enum PasskeyAlgorithm: Int64, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// ECDSA on P-256 with SHA-256 (COSE -7).
  case es256 = -7
  /// Ed25519 (COSE -8, "EdDSA").
  case edDSA = -8
  /// RSASSA-PKCS1-v1_5 with SHA-256 (COSE -257): recognised, not signed with.
  case rs256 = -257

  /// The COSE name: `ES256`, `EdDSA` or `RS256`.
  public var description: String {
    switch self {
    case .es256: return "ES256"
    case .edDSA: return "EdDSA"
    case .rs256: return "RS256"
    }
  }
}

/// A credential public key as WebAuthn carries it: a COSE_Key (RFC 9052 §7) in CBOR, EC2 for P-256 (RFC 9053
/// §7.1.1: kty 2, alg -7, crv 1, x, y) or OKP for Ed25519 (RFC 9053 §7.2: kty 1, alg -8, crv 6, x), as WebAuthn
/// Level 3 §5.8.5 and §6.5.1.1 describe.
public enum COSEKey: Sendable, Equatable {
  /// A P-256 public key (EC2, uncompressed coordinates).
  case p256(P256.Signing.PublicKey)
  /// An Ed25519 public key (OKP).
  case ed25519(Ed25519.PublicKey)

  /// The algorithm the key is for.
  public var algorithm: PasskeyAlgorithm {
    switch self {
    case .p256: return .es256
    case .ed25519: return .edDSA
    }
  }

  /// The COSE_Key map, with the parameters above.
  package var cbor: CBORValue {
    switch self {
    case .p256(let key):
      let point = key.sec1Representation(compressed: false)  // 0x04 || x || y
      return .map([
        (.integer(1), .integer(2)), (.integer(3), .integer(PasskeyAlgorithm.es256.rawValue)),
        (.integer(-1), .integer(1)), (.integer(-2), .bytes(Array(point[1..<33]))),
        (.integer(-3), .bytes(Array(point[33..<65]))),
      ])
    case .ed25519(let key):
      return .map([
        (.integer(1), .integer(1)), (.integer(3), .integer(PasskeyAlgorithm.edDSA.rawValue)),
        (.integer(-1), .integer(6)), (.integer(-2), .bytes(key.rawRepresentation)),
      ])
    }
  }

  /// The canonical CBOR encoding of ``cbor`` (RFC 8949 §4.2.1; keys 1, 3, -1, -2, -3 in that order).
  public var encoded: [UInt8] {
    // Encoding a fixed two-level map cannot fail.
    (try? cbor.encoded()) ?? []
  }

  /// The key as `SubjectPublicKeyInfo` DER (RFC 5480, RFC 8410), WebAuthn's `getPublicKey()` form.
  public var subjectPublicKeyInfo: [UInt8] {
    switch self {
    case .p256(let key): return SigningPublicKey.p256(key).derRepresentation
    case .ed25519(let key): return SigningPublicKey.ed25519(key).derRepresentation
    }
  }

  /// The key as a `PUBLIC KEY` PEM block (RFC 7468 §13).
  public var pemRepresentation: String {
    switch self {
    case .p256(let key): return key.pemRepresentation
    case .ed25519(let key): return key.pemRepresentation
    }
  }

  /// Reads a COSE_Key of the two kinds above from CBOR (RFC 9053 §7.1.1, §7.2), validating the point.
  public init(cbor value: CBORValue) throws(PasskeyError) {
    guard case .map = value else { throw .malformedCOSEKey("not a map") }
    let kty = value[.integer(1)]
    let alg = value[.integer(3)]
    let crv = value[.integer(-1)]
    switch (kty, alg, crv) {
    case (.integer(2)?, .integer(-7)?, .integer(1)?):
      guard case .bytes(let x)? = value[.integer(-2)], case .bytes(let y)? = value[.integer(-3)], x.count == 32,
        y.count == 32
      else { throw .malformedCOSEKey("EC2 coordinates are not 32-byte strings") }
      do {
        self = .p256(try P256.Signing.PublicKey(sec1Representation: [0x04] + x + y))
      } catch { throw .key(error) }
    case (.integer(1)?, .integer(-8)?, .integer(6)?):
      guard case .bytes(let x)? = value[.integer(-2)] else { throw .malformedCOSEKey("OKP without x") }
      do {
        self = .ed25519(try Ed25519.PublicKey(rawRepresentation: x))
      } catch { throw .key(error) }
    default:
      throw .malformedCOSEKey("not an ES256 P-256 (kty 2, crv 1) or EdDSA Ed25519 (kty 1, crv 6) key")
    }
  }

  /// Whether `signature` is a valid WebAuthn signature by this key over `message` (WebAuthn §6.5.5: ES256
  /// signatures are DER `Ecdsa-Sig-Value`, EdDSA signatures are the 64 raw bytes).
  public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
    switch self {
    case .p256(let key):
      guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
      return key.isValidSignature(parsed, for: message)
    case .ed25519(let key):
      return key.isValidSignature(signature, for: message)
    }
  }
}
