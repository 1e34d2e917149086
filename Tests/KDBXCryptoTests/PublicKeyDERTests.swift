import KDBXCrypto
import Testing
import VectorSupport

@Suite("Public-key DER and PEM")
struct PublicKeyDERTests {
  /// The outcome our reader gives for a PEM text, in the words of keys.vec.
  static func outcome(_ pem: String) -> String {
    do {
      if pem.contains("PUBLIC KEY-----") {
        switch try SigningPublicKey(pemRepresentation: pem) {
        case .p256: return "p256"
        case .ed25519: return "ed25519"
        }
      }
      switch try SigningPrivateKey(pemRepresentation: pem) {
      case .p256: return "p256"
      case .ed25519: return "ed25519"
      }
    } catch {
      switch error {
      case .unsupportedAlgorithm: return "unsupportedAlgorithm"
      case .unsupportedCurve: return "unsupportedCurve"
      default: return "\(error)"
      }
    }
  }

  @Test("keys written by cryptography", arguments: Vectors.records("pem/keys.vec"))
  func cryptographyKeys(_ record: VectorRecord) throws {
    let pem = record.string("pem")
    #expect(Self.outcome(pem) == record.string("outcome"))
    let secret = record.bytes("secret")
    let publicBytes = record.bytes("public")
    if pem.contains("PUBLIC KEY-----") {
      switch try? SigningPublicKey(pemRepresentation: pem) {
      case .p256(let key):
        #expect(key.sec1Representation() == publicBytes)
        #expect(key.pemRepresentation == pem)
      case .ed25519(let key):
        #expect(key.rawRepresentation == publicBytes)
        #expect(key.pemRepresentation == pem)
      case nil: break
      }
      return
    }
    switch try? SigningPrivateKey(pemRepresentation: pem) {
    case .p256(let key):
      #expect(key.rawRepresentation == secret)
      #expect(key.publicKey.sec1Representation() == publicBytes)
      // Our writers give the same bytes as OpenSSL's for both forms.
      #expect(pem.contains("EC PRIVATE KEY") ? key.sec1PEMRepresentation == pem : key.pemRepresentation == pem)
      #expect(try P256.Signing.PrivateKey(pemRepresentation: pem).rawRepresentation == secret)
      #expect(throws: PublicKeyError.keyTypeMismatch(expected: "Ed25519", found: "P-256")) {
        try Ed25519.PrivateKey(pemRepresentation: pem)
      }
    case .ed25519(let key):
      #expect(key.rawRepresentation == secret)
      #expect(key.publicKey.rawRepresentation == publicBytes)
      #expect(key.pemRepresentation == pem)
      #expect(throws: PublicKeyError.keyTypeMismatch(expected: "P-256", found: "Ed25519")) {
        try P256.Signing.PrivateKey(pemRepresentation: pem)
      }
    case nil: break
    }
  }

  @Test func rsaIsUnsupportedNotDamaged() throws {
    let record = Vectors.records("pem/keys.vec").first { $0.string("name").hasPrefix("rsa-1024 PKCS#8") }
    let pem = try #require(record).string("pem")
    #expect(throws: PublicKeyError.unsupportedAlgorithm("rsaEncryption")) {
      try SigningPrivateKey(pemRepresentation: pem)
    }
    #expect(throws: PublicKeyError.unsupportedAlgorithm("rsaEncryption")) {
      try P256.Signing.PrivateKey(pemRepresentation: pem)
    }
  }

  @Test func roundTripsOfRandomKeys() throws {
    var random = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 3, count: 32))
    for _ in 0..<8 {
      let p256 = P256.Signing.PrivateKey(generatingWith: &random)
      #expect(
        try P256.Signing.PrivateKey(pemRepresentation: p256.pemRepresentation).rawRepresentation
          == p256.rawRepresentation)
      #expect(
        try P256.Signing.PrivateKey(pemRepresentation: p256.sec1PEMRepresentation).rawRepresentation
          == p256.rawRepresentation)
      #expect(try P256.Signing.PrivateKey(derRepresentation: p256.derRepresentation).publicKey == p256.publicKey)
      #expect(try P256.Signing.PublicKey(pemRepresentation: p256.publicKey.pemRepresentation) == p256.publicKey)
      let ed = Ed25519.PrivateKey(generatingWith: &random)
      #expect(try Ed25519.PrivateKey(pemRepresentation: ed.pemRepresentation).rawRepresentation == ed.rawRepresentation)
      #expect(try Ed25519.PublicKey(pemRepresentation: ed.publicKey.pemRepresentation) == ed.publicKey)
      #expect(try Ed25519.PublicKey(derRepresentation: ed.publicKey.derRepresentation) == ed.publicKey)
    }
  }

  /// Every prefix of a valid key fails cleanly, and so does every single-byte change of its DER structure.
  @Test func truncatedAndMutatedDERNeverTraps() throws {
    var random = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 4, count: 32))
    let p256 = P256.Signing.PrivateKey(generatingWith: &random)
    let ed = Ed25519.PrivateKey(generatingWith: &random)
    for der in [p256.derRepresentation, p256.sec1DERRepresentation, ed.derRepresentation] {
      for length in 0..<der.count {
        #expect(throws: PublicKeyError.self) { try SigningPrivateKey(derRepresentation: Array(der.prefix(length))) }
      }
      #expect(throws: PublicKeyError.self) { try SigningPrivateKey(derRepresentation: der + [0]) }
      for index in 0..<der.count {
        for flip: UInt8 in [0x01, 0x80, 0xff] {
          var mutated = der
          mutated[index] ^= flip
          _ = try? SigningPrivateKey(derRepresentation: mutated)
        }
      }
    }
    for der in [p256.publicKey.derRepresentation, ed.publicKey.derRepresentation] {
      for length in 0..<der.count {
        #expect(throws: PublicKeyError.self) { try SigningPublicKey(derRepresentation: Array(der.prefix(length))) }
      }
      for index in 0..<der.count {
        var mutated = der
        mutated[index] ^= 0x01
        _ = try? SigningPublicKey(derRepresentation: mutated)
      }
    }
  }

  @Test func malformedDER() {
    let cases: [(String, [UInt8])] = [
      ("empty", []),
      ("lying length", [0x30, 0x7f, 0x02, 0x01, 0x00]),
      ("indefinite length", [0x30, 0x80, 0x02, 0x01, 0x00, 0x00, 0x00]),
      ("five length bytes", [0x30, 0x85, 0x00, 0x00, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00]),
      ("huge length", [0x30, 0x84, 0x7f, 0xff, 0xff, 0xff, 0x02]),
      ("non-minimal length", [0x30, 0x81, 0x03, 0x02, 0x01, 0x00]),
      ("high tag number", [0x1f, 0x81, 0x00]),
      ("not a sequence", [0x04, 0x01, 0x00]),
      ("version 2", [0x30, 0x03, 0x02, 0x01, 0x02]),
      ("negative version", [0x30, 0x03, 0x02, 0x01, 0xff]),
    ]
    for (name, der) in cases {
      #expect(throws: PublicKeyError.self, "\(name)") { try SigningPrivateKey(derRepresentation: der) }
      #expect(throws: PublicKeyError.self, "\(name)") { try SigningPublicKey(derRepresentation: der) }
    }
    // Deep nesting: 10,000 nested SEQUENCEs with definite lengths.
    var nested: [UInt8] = [0x05, 0x00]
    for _ in 0..<2000 {
      let count = nested.count
      var length: [UInt8] = count < 0x80 ? [UInt8(count)] : []
      if count >= 0x80 {
        var bytes: [UInt8] = []
        var remaining = count
        while remaining > 0 {
          bytes.insert(UInt8(remaining & 0xff), at: 0)
          remaining >>= 8
        }
        length = [0x80 | UInt8(bytes.count)] + bytes
      }
      nested = [0x30] + length + nested
    }
    #expect(throws: PublicKeyError.self) { try SigningPrivateKey(derRepresentation: nested) }
    #expect(throws: PublicKeyError.self) { try SigningPublicKey(derRepresentation: nested) }
    #expect(throws: PublicKeyError.self) { try P256.Signing.ECDSASignature(derRepresentation: nested) }
  }

  @Test func wrongCurveAndMismatchedPublicKey() throws {
    var random = try ChaCha20RandomNumberGenerator(seed: [UInt8](repeating: 5, count: 32))
    let key = P256.Signing.PrivateKey(generatingWith: &random)
    let other = P256.Signing.PrivateKey(generatingWith: &random)
    // secp256k1 (1.3.132.0.10) in place of secp256r1 in the SEC 1 form.
    let sec1 = key.sec1DERRepresentation
    let secp256r1: [UInt8] = [0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]
    let index = try #require(firstIndex(of: secp256r1, in: sec1))
    var k1 = Array(sec1[..<index]) + [0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x0a] + sec1[(index + secp256r1.count)...]
    k1[1] = UInt8(Int(k1[1]) - 3)
    k1[index - 1] = 7
    #expect(throws: PublicKeyError.unsupportedCurve("1.3.132.0.10")) { try SigningPrivateKey(derRepresentation: k1) }
    // The public key of another key inside.
    var swapped = sec1
    let mine = key.publicKey.sec1Representation()
    let position = try #require(firstIndex(of: mine, in: sec1))
    swapped.replaceSubrange(position..<(position + mine.count), with: other.publicKey.sec1Representation())
    #expect(throws: PublicKeyError.self) { try SigningPrivateKey(derRepresentation: swapped) }
  }

  @Test func malformedPEM() {
    let good =
      "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----\n"
    #expect((try? SigningPublicKey(pemRepresentation: good)) != nil)
    let bad = [
      "", "no block", "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA\n",
      good.replacingOccurrences("END PUBLIC", "END PRIVATE"),
      good.replacingOccurrences("MCow", "MC*w"),
      good.replacingOccurrences("ZuE=", "ZuE"),
      good.replacingOccurrences("ZuE=", "Z=E="),
      good.replacingOccurrences("ZuE=", "ZuF="),  // non-canonical: bits under the padding set
      good.replacingOccurrences("PUBLIC KEY", "CERTIFICATE"),
    ]
    for text in bad {
      #expect(throws: PublicKeyError.self, "\(text)") { try SigningPublicKey(pemRepresentation: text) }
    }
    // Text before the block and CRLF line breaks are fine (RFC 7468 §2, §3).
    let crlf = "comment\r\n" + good.replacingOccurrences("\n", "\r\n")
    #expect((try? SigningPublicKey(pemRepresentation: crlf)) != nil)
  }

  func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }
  }
}

extension String {
  /// Replaces every occurrence of `target` (no Foundation).
  fileprivate func replacingOccurrences(_ target: String, _ replacement: String) -> String {
    var result = ""
    var rest = Substring(self)
    while let range = rest.firstRange(of: target) {
      result += rest[..<range.lowerBound] + replacement
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
