/// A signing public key of either supported algorithm, as read from a `PUBLIC KEY` PEM block or
/// `SubjectPublicKeyInfo` DER (RFC 5280 §4.1.2.7) whose type is not known in advance.
public enum SigningPublicKey: Sendable, Equatable {
  /// An ECDSA P-256 key (RFC 5480 §2).
  case p256(P256.Signing.PublicKey)
  /// An Ed25519 key (RFC 8410 §4).
  case ed25519(Ed25519.PublicKey)

  /// Reads the first PEM block of `text`, which must be `PUBLIC KEY` (RFC 7468 §13).
  public init(pemRepresentation text: String) throws(PublicKeyError) {
    let (label, der) = try PEM.decode(text)
    guard label == "PUBLIC KEY" else { throw .malformedPEM(reason: "expected a PUBLIC KEY block, found \(label)") }
    try self.init(derRepresentation: der)
  }

  /// Reads `SubjectPublicKeyInfo ::= SEQUENCE { algorithm AlgorithmIdentifier, subjectPublicKey BIT STRING }`
  /// (RFC 5280 §4.1.2.7): a P-256 point, uncompressed or compressed (RFC 5480 §2.2), or a 32-byte Ed25519 key
  /// (RFC 8410 §4). The key is validated.
  public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
    var outer = DERReader(bytes)
    var info = try outer.readSequence("SubjectPublicKeyInfo")
    try outer.finish("the public key")
    var algorithm = try info.readSequence("algorithm")
    let kind = try AlgorithmIdentifier.read(&algorithm)
    let key = Array(try info.readBitString("subjectPublicKey"))
    try info.finish("SubjectPublicKeyInfo")
    switch kind {
    case .p256: self = .p256(try P256.Signing.PublicKey(sec1Representation: key))
    case .ed25519: self = .ed25519(try Ed25519.PublicKey(rawRepresentation: key))
    }
  }

  /// `SubjectPublicKeyInfo` DER.
  public var derRepresentation: [UInt8] {
    switch self {
    case .p256(let key): return key.derRepresentation
    case .ed25519(let key): return key.derRepresentation
    }
  }
}

extension P256.Signing.PublicKey {
  /// Reads a `PUBLIC KEY` PEM block holding a P-256 key (RFC 7468 §13, RFC 5480).
  public init(pemRepresentation text: String) throws(PublicKeyError) {
    switch try SigningPublicKey(pemRepresentation: text) {
    case .p256(let key): self = key
    case .ed25519: throw .keyTypeMismatch(expected: "P-256", found: "Ed25519")
    }
  }

  /// Reads `SubjectPublicKeyInfo` DER holding a P-256 key (RFC 5480 §2).
  public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
    switch try SigningPublicKey(derRepresentation: bytes) {
    case .p256(let key): self = key
    case .ed25519: throw .keyTypeMismatch(expected: "P-256", found: "Ed25519")
    }
  }

  /// `SubjectPublicKeyInfo` DER with `id-ecPublicKey`, `secp256r1` and the uncompressed point (RFC 5480 §2).
  public var derRepresentation: [UInt8] {
    DER.sequence(AlgorithmIdentifier.p256.der, DER.bitString(sec1Representation()))
  }

  /// PEM, label `PUBLIC KEY` (RFC 7468 §13).
  public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }
}

extension Ed25519.PublicKey {
  /// Reads a `PUBLIC KEY` PEM block holding an Ed25519 key (RFC 8410 §4, §10.1).
  public init(pemRepresentation text: String) throws(PublicKeyError) {
    switch try SigningPublicKey(pemRepresentation: text) {
    case .ed25519(let key): self = key
    case .p256: throw .keyTypeMismatch(expected: "Ed25519", found: "P-256")
    }
  }

  /// Reads `SubjectPublicKeyInfo` DER holding an Ed25519 key (RFC 8410 §4).
  public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
    switch try SigningPublicKey(derRepresentation: bytes) {
    case .ed25519(let key): self = key
    case .p256: throw .keyTypeMismatch(expected: "Ed25519", found: "P-256")
    }
  }

  /// `SubjectPublicKeyInfo` DER with `id-Ed25519` (RFC 8410 §4).
  public var derRepresentation: [UInt8] {
    DER.sequence(AlgorithmIdentifier.ed25519.der, DER.bitString(rawRepresentation))
  }

  /// PEM, label `PUBLIC KEY` (RFC 8410 §10.1).
  public var pemRepresentation: String { PEM.encode(label: "PUBLIC KEY", der: derRepresentation) }
}
