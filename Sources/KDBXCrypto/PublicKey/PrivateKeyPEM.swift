/// A signing private key of either supported algorithm, as read from PEM or DER whose type is not known in
/// advance (for example a passkey imported from a file).
///
/// Accepted forms: PKCS#8 `PRIVATE KEY` (RFC 5958 `OneAsymmetricKey`, version 1 or 2) holding a P-256 key
/// (`id-ecPublicKey` with `secp256r1`, the key a SEC 1 `ECPrivateKey`, RFC 5915 §3 and RFC 5480 §2.1.1) or an
/// Ed25519 key (`id-Ed25519`, RFC 8410 §7), and SEC 1 `EC PRIVATE KEY` (RFC 5915 §3). An RSA PKCS#8 key or an
/// encrypted one is recognised and refused with ``PublicKeyError/unsupportedAlgorithm(_:)``.
public enum SigningPrivateKey: Sendable {
  /// An ECDSA P-256 key.
  case p256(P256.Signing.PrivateKey)
  /// An Ed25519 key.
  case ed25519(Ed25519.PrivateKey)

  /// Reads the first PEM block of `text`: `PRIVATE KEY` or `EC PRIVATE KEY` (RFC 7468 §10, §13; RFC 5915 §4).
  public init(pemRepresentation text: String) throws(PublicKeyError) {
    var decoded = try PEM.decode(text)
    defer { SecureBytes.wipe(&decoded.der) }
    let label = decoded.label
    switch label {
    case "PRIVATE KEY", "EC PRIVATE KEY": try self.init(derRepresentation: decoded.der)
    case "ENCRYPTED PRIVATE KEY": throw .unsupportedAlgorithm("encrypted PKCS#8 (RFC 5958 §3)")
    case "RSA PRIVATE KEY": throw .unsupportedAlgorithm("rsaEncryption")
    default: throw .malformedPEM(reason: "expected a PRIVATE KEY or EC PRIVATE KEY block, found \(label)")
    }
  }

  /// Reads DER: PKCS#8 `PrivateKeyInfo`/`OneAsymmetricKey` or SEC 1 `ECPrivateKey`, strictly (X.690 DER, no
  /// bytes left over). A public key inside must match the private key.
  public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
    var outer = DERReader(bytes)
    var key = try outer.readSequence("PrivateKeyInfo")
    try outer.finish("the private key")
    if key.peekTag == DER.sequence {
      throw .unsupportedAlgorithm("encrypted PKCS#8 (RFC 5958 §3)")
    }
    let version = try key.readSmallInteger("version")
    switch key.peekTag {
    case DER.sequence:
      guard version == 0 || version == 1 else { throw key.error("PKCS#8 version \(version) is not 0 or 1") }
      self = try Self.readPKCS8(&key, version: version)
    case DER.octetString:
      guard version == 1 else { throw key.error("ECPrivateKey version \(version) is not 1") }
      self = .p256(try Self.readECPrivateKey(&key, needsCurve: true))
    default:
      throw key.error("neither PKCS#8 nor SEC 1")
    }
  }

  /// The P-256 key; ``PublicKeyError/keyTypeMismatch(expected:found:)`` for an Ed25519 one.
  func p256Key() throws(PublicKeyError) -> P256.Signing.PrivateKey {
    switch self {
    case .p256(let key): return key
    case .ed25519: throw .keyTypeMismatch(expected: "P-256", found: "Ed25519")
    }
  }

  /// The Ed25519 key; ``PublicKeyError/keyTypeMismatch(expected:found:)`` for a P-256 one.
  func ed25519Key() throws(PublicKeyError) -> Ed25519.PrivateKey {
    switch self {
    case .ed25519(let key): return key
    case .p256: throw .keyTypeMismatch(expected: "Ed25519", found: "P-256")
    }
  }

  /// The rest of a PKCS#8 `OneAsymmetricKey` after its version (RFC 5958 §2).
  static func readPKCS8(_ key: inout DERReader, version: Int) throws(PublicKeyError) -> SigningPrivateKey {
    var algorithm = try key.readSequence("privateKeyAlgorithm")
    let kind = try AlgorithmIdentifier.read(&algorithm)
    var inner = DERReader(try key.read(tag: DER.octetString, "privateKey"), depth: key.depth + 1)
    if key.peekTag == DER.contextConstructed(0) { _ = try key.read() }  // attributes: not used for signing
    var publicKey: ArraySlice<UInt8>?
    if key.peekTag == 0x81 {  // [1] IMPLICIT BIT STRING, version 2 only
      guard version == 1 else { throw key.error("a public key in a version 1 PKCS#8 key") }
      let contents = try key.read(tag: 0x81, "publicKey")
      guard contents.first == 0 else { throw key.error("publicKey with unused bits") }
      publicKey = contents.dropFirst()
    }
    try key.finish("OneAsymmetricKey")
    switch kind {
    case .p256:
      var sequence = try inner.readSequence("ECPrivateKey")
      try inner.finish("ECPrivateKey")
      let version = try sequence.readSmallInteger("version")
      guard version == 1 else { throw sequence.error("ECPrivateKey version \(version) is not 1") }
      let parsed = try readECPrivateKey(&sequence, needsCurve: false)
      if let publicKey, Array(publicKey) != parsed.publicKey.sec1Representation() {
        throw .invalidPrivateKey(reason: "the public key does not match the private key")
      }
      return .p256(parsed)
    case .ed25519:
      var seed = Array(try inner.read(tag: DER.octetString, "CurvePrivateKey"))
      defer { SecureBytes.wipe(&seed) }
      try inner.finish("CurvePrivateKey")
      let parsed = try Ed25519.PrivateKey(rawRepresentation: seed)
      if let publicKey, Array(publicKey) != parsed.publicKey.rawRepresentation {
        throw .invalidPrivateKey(reason: "the public key does not match the private key")
      }
      return .ed25519(parsed)
    }
  }

  /// The rest of a SEC 1 `ECPrivateKey` after its version (RFC 5915 §3): the 32-byte key, the optional curve
  /// (required when `needsCurve`; it must be secp256r1) and the optional public key, which must match.
  static func readECPrivateKey(
    _ sequence: inout DERReader, needsCurve: Bool
  ) throws(PublicKeyError) -> P256.Signing.PrivateKey {
    var secret = Array(try sequence.read(tag: DER.octetString, "privateKey"))
    defer { SecureBytes.wipe(&secret) }
    var sawCurve = false
    if sequence.peekTag == DER.contextConstructed(0) {
      var parameters = try sequence.readConstructed(tag: DER.contextConstructed(0), "parameters")
      guard parameters.peekTag == DER.objectIdentifier else {
        throw .unsupportedCurve("explicit or implicit curve parameters")
      }
      let curve = try parameters.readObjectIdentifier("namedCurve")
      try parameters.finish("parameters")
      guard Array(curve) == DER.secp256r1 else { throw .unsupportedCurve(DER.dotted(curve)) }
      sawCurve = true
    }
    var publicKey: [UInt8]?
    if sequence.peekTag == DER.contextConstructed(1) {
      var wrapper = try sequence.readConstructed(tag: DER.contextConstructed(1), "publicKey")
      publicKey = Array(try wrapper.readBitString("publicKey"))
      try wrapper.finish("publicKey")
    }
    try sequence.finish("ECPrivateKey")
    guard sawCurve || !needsCurve else { throw .unsupportedCurve("no named curve in an EC PRIVATE KEY") }
    let key = try P256.Signing.PrivateKey(rawRepresentation: secret)
    if let publicKey {
      let given = try P256.Signing.PublicKey(sec1Representation: publicKey)
      guard given == key.publicKey else {
        throw .invalidPrivateKey(reason: "the public key does not match the private key")
      }
    }
    return key
  }
}

/// The algorithms of `AlgorithmIdentifier` this library signs with (RFC 5280 §4.1.1.2).
enum AlgorithmIdentifier {
  case p256
  case ed25519

  /// Reads the contents of an `AlgorithmIdentifier` SEQUENCE: `id-ecPublicKey` with `secp256r1` (RFC 5480
  /// §2.1.1), or `id-Ed25519` with absent parameters (RFC 8410 §3). Other algorithms are named in the error.
  static func read(_ algorithm: inout DERReader) throws(PublicKeyError) -> AlgorithmIdentifier {
    let oid = Array(try algorithm.readObjectIdentifier("algorithm"))
    switch oid {
    case DER.idECPublicKey:
      guard algorithm.peekTag == DER.objectIdentifier else {
        throw .unsupportedCurve("explicit or implicit curve parameters")
      }
      let curve = try algorithm.readObjectIdentifier("namedCurve")
      try algorithm.finish("AlgorithmIdentifier")
      guard Array(curve) == DER.secp256r1 else { throw .unsupportedCurve(DER.dotted(curve)) }
      return .p256
    case DER.idEd25519:
      try algorithm.finish("AlgorithmIdentifier (RFC 8410 §3: parameters absent)")
      return .ed25519
    case DER.rsaEncryption:
      throw .unsupportedAlgorithm("rsaEncryption")
    default:
      throw .unsupportedAlgorithm(DER.dotted(oid[...]))
    }
  }

  /// The DER of this identifier.
  var der: [UInt8] {
    switch self {
    case .p256: return DER.sequence(DER.objectIdentifier(DER.idECPublicKey), DER.objectIdentifier(DER.secp256r1))
    case .ed25519: return DER.sequence(DER.objectIdentifier(DER.idEd25519))
    }
  }

  var name: String {
    switch self {
    case .p256: return "P-256"
    case .ed25519: return "Ed25519"
    }
  }

  /// PKCS#8 `PrivateKeyInfo` DER (RFC 5958 §2, version 0) of a key of this algorithm, `privateKey` the contents of
  /// its `privateKey` OCTET STRING. The array holds the secret: zero it with ``SecureBytes/wipe(_:)``.
  func privateKeyInfo(_ privateKey: [UInt8]) -> [UInt8] {
    var parts = DER.unsignedInteger([0]) + der + DER.octetString(privateKey)
    defer { SecureBytes.wipe(&parts) }
    return DER.element(DER.sequence, parts)
  }
}

extension PEM {
  /// ``encode(label:der:)`` of the secret DER that `der` returns, which is zeroed once it is encoded.
  static func encode(label: String, secret der: () -> [UInt8]) -> String {
    var bytes = der()
    defer { SecureBytes.wipe(&bytes) }
    return encode(label: label, der: bytes)
  }
}

extension P256.Signing.PrivateKey {
  /// Reads a P-256 key from PEM: `PRIVATE KEY` (PKCS#8, RFC 5958) or `EC PRIVATE KEY` (SEC 1, RFC 5915).
  public init(pemRepresentation text: String) throws(PublicKeyError) {
    self = try SigningPrivateKey(pemRepresentation: text).p256Key()
  }

  /// Reads a P-256 key from DER: PKCS#8 (RFC 5958) or SEC 1 `ECPrivateKey` (RFC 5915).
  public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
    self = try SigningPrivateKey(derRepresentation: bytes).p256Key()
  }

  /// SEC 1 `ECPrivateKey` (RFC 5915 §3) with the public key and, when `namedCurve`, the curve.
  func ecPrivateKey(namedCurve: Bool) -> [UInt8] {
    var secret = rawRepresentation
    defer { SecureBytes.wipe(&secret) }
    var parts = DER.unsignedInteger([1]) + DER.octetString(secret)
    if namedCurve { parts += DER.element(DER.contextConstructed(0), DER.objectIdentifier(DER.secp256r1)) }
    parts += DER.element(DER.contextConstructed(1), DER.bitString(publicKey.sec1Representation()))
    defer { SecureBytes.wipe(&parts) }
    return DER.element(DER.sequence, parts)
  }

  /// PKCS#8 `PrivateKeyInfo` DER (RFC 5958 §2, version 0) holding the SEC 1 `ECPrivateKey` with its public key,
  /// as OpenSSL writes it. The array holds the secret: zero it with ``SecureBytes/wipe(_:)``.
  public var derRepresentation: [UInt8] {
    var inner = ecPrivateKey(namedCurve: false)
    defer { SecureBytes.wipe(&inner) }
    return AlgorithmIdentifier.p256.privateKeyInfo(inner)
  }

  /// PKCS#8 PEM, label `PRIVATE KEY` (RFC 7468 §10).
  public var pemRepresentation: String { PEM.encode(label: "PRIVATE KEY", secret: { derRepresentation }) }

  /// SEC 1 `ECPrivateKey` DER with the named curve and the public key (RFC 5915 §3).
  public var sec1DERRepresentation: [UInt8] { ecPrivateKey(namedCurve: true) }

  /// SEC 1 PEM, label `EC PRIVATE KEY` (RFC 5915 §4).
  public var sec1PEMRepresentation: String {
    PEM.encode(label: "EC PRIVATE KEY", secret: { sec1DERRepresentation })
  }
}

extension Ed25519.PrivateKey {
  /// Reads an Ed25519 key from PEM `PRIVATE KEY` (PKCS#8, RFC 8410 §7).
  public init(pemRepresentation text: String) throws(PublicKeyError) {
    self = try SigningPrivateKey(pemRepresentation: text).ed25519Key()
  }

  /// Reads an Ed25519 key from PKCS#8 DER (RFC 8410 §7, RFC 5958 §2).
  public init(derRepresentation bytes: [UInt8]) throws(PublicKeyError) {
    self = try SigningPrivateKey(derRepresentation: bytes).ed25519Key()
  }

  /// PKCS#8 DER, version 0 (RFC 8410 §7): the seed as `CurvePrivateKey ::= OCTET STRING`. The array holds the
  /// secret: zero it with ``SecureBytes/wipe(_:)``.
  public var derRepresentation: [UInt8] {
    var seed = rawRepresentation
    defer { SecureBytes.wipe(&seed) }
    var inner = DER.octetString(seed)
    defer { SecureBytes.wipe(&inner) }
    return AlgorithmIdentifier.ed25519.privateKeyInfo(inner)
  }

  /// PKCS#8 PEM, label `PRIVATE KEY` (RFC 7468 §10, RFC 8410 §10.3).
  public var pemRepresentation: String { PEM.encode(label: "PRIVATE KEY", secret: { derRepresentation }) }
}
