import KDBX
import KDBXCrypto
import KDBXPasskeys
import Testing
import VectorSupport

/// Registration and assertion, checked field by field against WebAuthn Level 3 §6.1, §6.5 and our own strict
/// decoder, and the client data checks.
@Suite struct WebAuthnTests {
  static let challenge = [UInt8](repeating: 7, count: 32)

  static func passkey(_ algorithm: PasskeyAlgorithm, backedUp: Bool = true) throws -> Passkey {
    var random = SplitMix64(seed: 11)
    var passkey = try Passkey.generate(
      relyingParty: "example.com", userName: "alice", userHandle: [5, 6, 7], algorithm: algorithm, random: &random)
    passkey.isBackedUp = backedUp
    return passkey
  }

  @Test(arguments: [PasskeyAlgorithm.es256, .edDSA])
  func registrationIsAWellFormedNoneAttestation(_ algorithm: PasskeyAlgorithm) throws {
    let passkey = try Self.passkey(algorithm)
    let registration = try passkey.registration(challenge: Self.challenge, origin: "https://example.com")
    let object = try CBORValue(decoding: registration.attestationObject)
    #expect(try object.encoded() == registration.attestationObject, "canonical CBOR")
    #expect(object[.text("fmt")] == .text("none"))
    #expect(object[.text("attStmt")] == .map([]))
    guard case .bytes(let authData)? = object[.text("authData")] else {
      Issue.record("no authData")
      return
    }
    #expect(authData == registration.authenticatorData)
    #expect(Array(authData[0..<32]) == SHA256.hash(Array("example.com".utf8)).bytes, "rpIdHash")
    #expect(authData[32] == 0x5D, "UP | UV | BE | BS | AT")
    #expect(Array(authData[33..<37]) == [0, 0, 0, 0], "sign count 0")
    #expect(Array(authData[37..<53]) == [UInt8](repeating: 0, count: 16), "AAGUID")
    #expect(Array(authData[53..<55]) == [0, 32])
    #expect(Array(authData[55..<87]) == passkey.credentialID)
    let (coseValue, used) = try CBORValue.decodePrefix(of: authData[87...])
    #expect(used == authData.count - 87, "nothing after the key (no extensions)")
    let key = try COSEKey(cbor: coseValue)
    #expect(key == (try passkey.publicKey()))
    #expect(Array(authData[87...]) == key.encoded)
    #expect(key.algorithm == algorithm)
    // COSE parameters of RFC 9053 in canonical order: kty, alg, crv, x(, y).
    let expectedPrefix: [UInt8] =
      algorithm == .es256 ? [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01] : [0xA4, 0x01, 0x01, 0x03, 0x27, 0x20, 0x06]
    #expect(Array(key.encoded.prefix(7)) == expectedPrefix)
    let json = String(decoding: try #require(registration.clientDataJSON), as: UTF8.self)
    #expect(
      json == "{\"type\":\"webauthn.create\",\"challenge\":\"BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc\","
        + "\"origin\":\"https://example.com\",\"crossOrigin\":false}")
    #expect(
      registration.publicKeyCredentialJSON.contains(
        "\"attestationObject\": \"\(Base64URL.encode(registration.attestationObject))\""))
  }

  @Test(arguments: [PasskeyAlgorithm.es256, .edDSA])
  func assertionSignsAuthenticatorDataAndTheClientDataHash(_ algorithm: PasskeyAlgorithm) throws {
    let passkey = try Self.passkey(algorithm, backedUp: false)
    let assertion = try passkey.assertion(
      challenge: Self.challenge, origin: "https://login.example.com", userVerified: false)
    let clientData = try #require(assertion.clientDataJSON)
    #expect(assertion.authenticatorData.count == 37)
    #expect(assertion.authenticatorData[32] == 0x09, "UP | BE, no UV, no BS, no AT")
    #expect(assertion.userHandle == [5, 6, 7])
    #expect(assertion.credentialID == passkey.credentialID)
    let key = try passkey.publicKey()
    let signed = assertion.authenticatorData + SHA256.hash(clientData).bytes
    #expect(key.isValidSignature(assertion.signature, for: signed))
    var tampered = signed
    tampered[32] ^= 0x04
    #expect(!key.isValidSignature(assertion.signature, for: tampered), "the check can fail")
    if algorithm == .es256 {
      #expect(assertion.signature.first == 0x30, "DER Ecdsa-Sig-Value")
    } else {
      #expect(assertion.signature.count == 64)
    }
  }

  @Test func clientDataChecksTheChallengeAndTheOrigin() throws {
    let passkey = try Self.passkey(.es256)
    #expect(throws: PasskeyError.invalidChallenge(byteCount: 1 << 20)) {
      try passkey.assertion(challenge: [UInt8](repeating: 1, count: 1 << 20), origin: "https://example.com")
    }
    #expect(throws: PasskeyError.invalidChallenge(byteCount: 15)) {
      try passkey.registration(challenge: [UInt8](repeating: 1, count: 15), origin: "https://example.com")
    }
    for origin in [
      "http://example.com", "https://evil.com", "https://example.com.evil.com", "https://notexample.com",
      "https://example.com/path", "https://user@example.com", "example.com", "",
    ] {
      #expect(throws: PasskeyError.originMismatch(origin: origin, relyingParty: "example.com")) {
        try passkey.assertion(challenge: Self.challenge, origin: origin)
      }
    }
    _ = try passkey.assertion(challenge: Self.challenge, origin: "https://a.b.example.com:8443")
    #expect(throws: PasskeyError.originMismatch(origin: "https://a.co.uk", relyingParty: "co.uk")) {
      try WebAuthnClientData(
        ceremony: .get, challenge: Self.challenge, origin: "https://a.co.uk", relyingParty: "co.uk")
    }
    #expect(throws: PasskeyError.invalidRelyingParty("")) {
      try WebAuthnClientData(ceremony: .get, challenge: Self.challenge, origin: "https://a.com", relyingParty: "")
    }
    let local = try WebAuthnClientData(
      ceremony: .get, challenge: Self.challenge, origin: "http://localhost:8080", relyingParty: "localhost")
    #expect(String(decoding: local.json, as: UTF8.self).hasPrefix("{\"type\":\"webauthn.get\""))
    var empty = passkey
    empty.relyingParty = ""
    #expect(throws: PasskeyError.invalidRelyingParty("")) {
      try empty.assertion(clientDataHash: [UInt8](repeating: 0, count: 32))
    }
  }

  @Test func coseKeysAreValidated() throws {
    #expect(throws: PasskeyError.malformedCOSEKey("not a map")) { try COSEKey(cbor: .integer(1)) }
    let offCurve = CBORValue.map([
      (.integer(1), .integer(2)), (.integer(3), .integer(-7)), (.integer(-1), .integer(1)),
      (.integer(-2), .bytes([UInt8](repeating: 1, count: 32))),
      (.integer(-3), .bytes([UInt8](repeating: 2, count: 32))),
    ])
    #expect(throws: PasskeyError.self) { try COSEKey(cbor: offCurve) }
    let p384 = CBORValue.map([(.integer(1), .integer(2)), (.integer(3), .integer(-35)), (.integer(-1), .integer(2))])
    #expect(throws: PasskeyError.self) { try COSEKey(cbor: p384) }
  }

  @Test func base64URLIsStrict() {
    #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    #expect(Base64URL.decode("-_8=") == [0xFB, 0xFF])
    #expect(Base64URL.decode("") == [])
    #expect(Base64URL.decode("a") == nil)
    #expect(Base64URL.decode("-_9") == nil, "non-zero trailing bits")
    #expect(Base64URL.decode("ab cd") == nil)
    #expect(Base64URL.decode("ab!d") == nil)
    for count in 0..<40 {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
      #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }
  }
}
