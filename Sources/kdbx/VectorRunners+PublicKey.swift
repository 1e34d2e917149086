import KDBXCrypto

// MARK: - ECDSA P-256, Ed25519, PEM keys, signatures of PyPI cryptography

/// The runners of `Vectors/ecdsa-p256`, `ed25519`, `pem` and `crosscheck`: the same checks as the Swift tests that
/// read those files (`ECDSAP256Tests`, `Ed25519Tests`, `PublicKeyDERTests`, `PublicKeyCrossCheckTests`).
extension VectorRunners {
  static func publicKeyRunner(folder: String, name: String) -> VectorRunner? {
    switch (folder, name) {
    case ("ecdsa-p256", "rfc6979-a25.vec"): return ecdsaDeterministic
    case ("ecdsa-p256", "cavp-sigver.vec"): return ecdsaSigVer
    case ("ecdsa-p256", "cavp-siggen.vec"): return ecdsaSigGen
    case ("ecdsa-p256", "cavp-keypair.vec"): return ecdsaKeyPair
    case ("ecdsa-p256", "edge-cases.vec"): return ecdsaEdgeCase
    case ("ed25519", "rfc8032-7.1.vec"), ("ed25519", "supercop-sign-input.vec"): return ed25519Signature
    case ("ed25519", "negative.vec"): return ed25519Negative
    case ("pem", "keys.vec"): return pemKey
    case ("crosscheck", "cryptography-ecdsa-p256.vec"): return crossChecked(ecdsa: true)
    case ("crosscheck", "cryptography-ed25519.vec"): return crossChecked(ecdsa: false)
    default: return nil
    }
  }

  static func uncompressed(_ record: VectorRecord) throws(VectorMismatch) -> [UInt8] {
    [0x04] + (try record.bytes("qx")) + (try record.bytes("qy"))
  }

  static func ecdsaDeterministic(_ record: VectorRecord) throws(VectorMismatch) {
    let d = try record.bytes("d")
    let key = try attempt { () throws(PublicKeyError) in try P256.Signing.PrivateKey(rawRepresentation: d) }
    try check(key.publicKey.sec1Representation() == uncompressed(record), "public key")
    let message = try record.bytes("msg")
    let signature = key.signature(for: message)
    try check(signature.rawRepresentation == (try record.bytes("r")) + (try record.bytes("s")), "signature")
    try check(key.publicKey.isValidSignature(signature, for: message), "own signature rejected")
  }

  static func ecdsaSigVer(_ record: VectorRecord) throws(VectorMismatch) {
    let raw = (try record.bytes("r")) + (try record.bytes("s"))
    let signature = try attempt { () throws(PublicKeyError) in try P256.Signing.ECDSASignature(rawRepresentation: raw) }
    let valid = try record.int("valid") == 1
    let point = try uncompressed(record)
    guard let key = try? P256.Signing.PublicKey(sec1Representation: point) else {
      return try check(!valid, "a valid record's key did not load")
    }
    try check(key.isValidSignature(signature, for: try record.bytes("msg")) == valid, "verdict")
  }

  static func ecdsaSigGen(_ record: VectorRecord) throws(VectorMismatch) {
    let d = try record.bytes("d")
    let key = try attempt { () throws(PublicKeyError) in try P256.Signing.PrivateKey(rawRepresentation: d) }
    try check(key.publicKey.sec1Representation() == uncompressed(record), "public key")
    let raw = (try record.bytes("r")) + (try record.bytes("s"))
    let signature = try attempt { () throws(PublicKeyError) in try P256.Signing.ECDSASignature(rawRepresentation: raw) }
    let message = try record.bytes("msg")
    try check(key.publicKey.isValidSignature(signature, for: message), "NIST signature rejected")
    try check(key.publicKey.isValidSignature(key.signature(for: message), for: message), "own signature rejected")
  }

  static func ecdsaKeyPair(_ record: VectorRecord) throws(VectorMismatch) {
    let d = try record.bytes("d")
    let key = try attempt { () throws(PublicKeyError) in try P256.Signing.PrivateKey(rawRepresentation: d) }
    try check(key.publicKey.sec1Representation() == uncompressed(record), "public key")
    let compressed = key.publicKey.sec1Representation(compressed: true)
    let parity = (try record.bytes("qy")).last.map { $0 & 1 } ?? 0
    try check(compressed == [0x02 | parity] + (try record.bytes("qx")), "compressed point")
  }

  static func ecdsaEdgeCase(_ record: VectorRecord) throws(VectorMismatch) {
    let valid = try record.int("valid") == 1
    let point = try record.bytes("pk")
    let raw = try record.bytes("sig")
    guard let key = try? P256.Signing.PublicKey(sec1Representation: point),
      let signature = try? P256.Signing.ECDSASignature(rawRepresentation: raw)
    else { return try check(!valid, "a valid record's key or signature did not load") }
    try check(key.isValidSignature(signature, for: try record.bytes("msg")) == valid, "verdict")
  }

  static func ed25519Signature(_ record: VectorRecord) throws(VectorMismatch) {
    let seed = try record.bytes("seed")
    let key = try attempt { () throws(PublicKeyError) in try Ed25519.PrivateKey(rawRepresentation: seed) }
    try check(key.publicKey.rawRepresentation == (try record.bytes("pk")), "public key")
    let message = try record.bytes("msg")
    let expected = try record.bytes("sig")
    try check(key.signature(for: message) == expected, "signature")
    try check(key.publicKey.isValidSignature(expected, for: message), "signature rejected")
    try check(!key.publicKey.isValidSignature(expected, for: message + [0]), "a longer message verified")
  }

  static func ed25519Negative(_ record: VectorRecord) throws(VectorMismatch) {
    let point = try record.bytes("pk")
    guard let key = try? Ed25519.PublicKey(rawRepresentation: point) else { return }
    try check(
      !key.isValidSignature(try record.bytes("sig"), for: try record.bytes("msg")), "an invalid signature verified")
  }

  static func pemKey(_ record: VectorRecord) throws(VectorMismatch) {
    let pem = try record.string("pem")
    let outcome = try record.string("outcome")
    let publicBytes = try record.bytes("public")
    if pem.contains("PUBLIC KEY-----") {
      let parsed = try readPEM(outcome) { () throws(PublicKeyError) in try SigningPublicKey(pemRepresentation: pem) }
      guard let read = parsed else { return }
      switch read {
      case .p256(let key):
        try check(outcome == "p256" && key.sec1Representation() == publicBytes, "P-256 public key")
        try check(key.pemRepresentation == pem, "P-256 public key written back")
      case .ed25519(let key):
        try check(outcome == "ed25519" && key.rawRepresentation == publicBytes, "Ed25519 public key")
        try check(key.pemRepresentation == pem, "Ed25519 public key written back")
      }
      return
    }
    let secret = try record.bytes("secret")
    let parsed = try readPEM(outcome) { () throws(PublicKeyError) in try SigningPrivateKey(pemRepresentation: pem) }
    guard let read = parsed else { return }
    switch read {
    case .p256(let key):
      try check(outcome == "p256" && key.rawRepresentation == secret, "P-256 private key")
      try check(key.publicKey.sec1Representation() == publicBytes, "P-256 public key")
      let written = pem.contains("EC PRIVATE KEY") ? key.sec1PEMRepresentation : key.pemRepresentation
      try check(written == pem, "P-256 private key written back")
    case .ed25519(let key):
      try check(outcome == "ed25519" && key.rawRepresentation == secret, "Ed25519 private key")
      try check(key.publicKey.rawRepresentation == publicBytes, "Ed25519 public key")
      try check(key.pemRepresentation == pem, "Ed25519 private key written back")
    }
  }

  /// The key `read` returns, or `nil` when it refuses the PEM text, as the record's `outcome` must then say.
  static func readPEM<Key>(_ outcome: String, _ read: () throws(PublicKeyError) -> Key) throws(VectorMismatch) -> Key? {
    do throws(PublicKeyError) {
      return try read()
    } catch {
      try check(outcome == pemOutcome(error), "refused as \(error)")
      return nil
    }
  }

  static func pemOutcome(_ error: PublicKeyError) -> String {
    switch error {
    case .unsupportedAlgorithm: return "unsupportedAlgorithm"
    case .unsupportedCurve: return "unsupportedCurve"
    default: return "\(error)"
    }
  }

  /// Signatures made by PyPI cryptography; a record without `pk` uses the key of the record before it.
  static func crossChecked(ecdsa: Bool) -> VectorRunner {
    final class LastKey {
      var bytes: [UInt8] = []
    }
    let last = LastKey()
    return { record throws(VectorMismatch) in
      if record.has("pk") { last.bytes = try record.bytes("pk") }
      let point = last.bytes
      let message = try record.bytes("msg")
      let signature = try record.bytes("sig")
      if ecdsa {
        let key = try attempt { () throws(PublicKeyError) in try P256.Signing.PublicKey(sec1Representation: point) }
        let parsed = try attempt { () throws(PublicKeyError) in
          try P256.Signing.ECDSASignature(derRepresentation: signature)
        }
        try check(key.isValidSignature(parsed, for: message), "cryptography's signature rejected")
        try check(!key.isValidSignature(parsed, for: message + [1]), "a changed message verified")
      } else {
        let key = try attempt { () throws(PublicKeyError) in try Ed25519.PublicKey(rawRepresentation: point) }
        try check(key.isValidSignature(signature, for: message), "cryptography's signature rejected")
      }
    }
  }
}
