import KDBX
import KDBXAutoFill
import KDBXBase
import KDBXCrypto

/// The flags byte of authenticator data (WebAuthn Level 3 §6.1, "flags").
package struct AuthenticatorFlags: OptionSet, Sendable, Hashable {
  package let rawValue: UInt8
  package init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit 0, UP: user present.
  package static let userPresent = AuthenticatorFlags(rawValue: 0x01)
  /// Bit 2, UV: user verified.
  package static let userVerified = AuthenticatorFlags(rawValue: 0x04)
  /// Bit 3, BE: backup eligible.
  package static let backupEligible = AuthenticatorFlags(rawValue: 0x08)
  /// Bit 4, BS: backed up.
  package static let backedUp = AuthenticatorFlags(rawValue: 0x10)
  /// Bit 6, AT: attested credential data included.
  package static let attestedCredentialData = AuthenticatorFlags(rawValue: 0x40)
  /// Bit 7, ED: extension data included.
  package static let extensionData = AuthenticatorFlags(rawValue: 0x80)
}

/// The client data of a ceremony, for callers that are not a browser: the `clientDataJSON` a browser would build
/// (WebAuthn Level 3 §5.8.1, serialized as §5.8.1.1 prescribes: `type`, `challenge`, `origin`, `crossOrigin`).
public struct WebAuthnClientData: Sendable, Equatable {
  /// The largest challenge accepted, in bytes (relying parties send 16 to 64).
  public static let maximumChallengeByteCount = 1024

  /// `webauthn.create` or `webauthn.get`.
  public enum Ceremony: Sendable, Equatable {
    case create
    case get
  }

  public let ceremony: Ceremony
  public let challenge: [UInt8]
  public let origin: String

  /// Checks the challenge length (16 to ``maximumChallengeByteCount`` bytes) and that `origin` is
  /// `https://host[:port]` (or `http://localhost[:port]`) with a host that is `relyingParty` or a subdomain of it,
  /// where `relyingParty` is not a public suffix (WebAuthn Level 3 §5.1.3 step 8, §5.1.4.1 step 7).
  public init(
    ceremony: Ceremony, challenge: [UInt8], origin: String, relyingParty: String
  ) throws(PasskeyError) {
    guard (16...WebAuthnClientData.maximumChallengeByteCount).contains(challenge.count) else {
      throw .invalidChallenge(byteCount: challenge.count)
    }
    try RelyingPartyID.validate(relyingParty)
    try WebAuthnClientData.checkOrigin(origin, relyingParty: relyingParty)
    self.ceremony = ceremony
    self.challenge = challenge
    self.origin = origin
  }

  /// The JSON bytes, members in the order of WebAuthn Level 3 §5.8.1.1.
  public var json: [UInt8] {
    let type = ceremony == .create ? "webauthn.create" : "webauthn.get"
    let text =
      "{\"type\":\"\(type)\",\"challenge\":\"\(Base64URL.encode(challenge))\",\"origin\":"
      + JSONValue.quoted(origin) + ",\"crossOrigin\":false}"
    return Array(text.utf8)
  }

  /// SHA-256 of ``json``: the `clientDataHash` the authenticator signs (WebAuthn Level 3 §5.8.1).
  public var hash: [UInt8] { SHA256.hash(json).bytes }

  static func checkOrigin(_ origin: String, relyingParty: String) throws(PasskeyError) {
    let mismatch = PasskeyError.originMismatch(origin: origin, relyingParty: relyingParty)
    guard origin.utf8.count <= 2048, let address = WebAddress(origin), address.path.isEmpty,
      !origin.contains("@"), !origin.contains("?"), !origin.contains("#")
    else { throw mismatch }
    let local = address.host == "localhost" || address.host.hasSuffix(".localhost")
    guard address.scheme == "https" || (address.scheme == "http" && local) else { throw mismatch }
    guard address.host == relyingParty || address.host.hasSuffix("." + relyingParty) else { throw mismatch }
    if relyingParty != "localhost" && PublicSuffixList.builtIn.registrableDomain(of: relyingParty) == nil {
      throw mismatch
    }
  }
}

/// What a registration returns (WebAuthn Level 3 §5.2.1 `AuthenticatorAttestationResponse`), with attestation
/// format `none` (§8.7).
public struct PasskeyRegistration: Sendable, Equatable {
  /// The credential ID.
  public var credentialID: [UInt8]
  /// The credential public key.
  public var publicKey: COSEKey
  /// Authenticator data with attested credential data (§6.1, §6.5.1).
  public var authenticatorData: [UInt8]
  /// The attestation object: `{"fmt": "none", "attStmt": {}, "authData": ...}` in canonical CBOR (§6.5.4).
  public var attestationObject: [UInt8]
  /// The client data JSON, when the registration was made from a challenge and an origin.
  public var clientDataJSON: [UInt8]?

  /// The `RegistrationResponseJSON` of WebAuthn Level 3 §5.1.8 (`PublicKeyCredential.toJSON()`), binary members
  /// base64url: what a relying party's server verifies. Needs ``clientDataJSON``.
  public var publicKeyCredentialJSON: String {
    let response: JSONValue = .object([
      ("clientDataJSON", .string(Base64URL.encode(clientDataJSON ?? []))),
      ("attestationObject", .string(Base64URL.encode(attestationObject))),
      ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
      ("transports", .array([.string("internal")])),
      ("publicKey", .string(Base64URL.encode(publicKey.subjectPublicKeyInfo))),
      ("publicKeyAlgorithm", .number(Int(publicKey.algorithm.rawValue))),
    ])
    return credentialJSON(id: credentialID, response: response)
  }
}

/// What an assertion returns (WebAuthn Level 3 §5.2.2 `AuthenticatorAssertionResponse`).
public struct PasskeyAssertion: Sendable, Equatable {
  /// The credential ID.
  public var credentialID: [UInt8]
  /// Authenticator data without attested credential data (§6.1).
  public var authenticatorData: [UInt8]
  /// The signature over `authenticatorData || clientDataHash` (§6.3.3 step 11).
  public var signature: [UInt8]
  /// The user handle, `nil` when the passkey has none.
  public var userHandle: [UInt8]?
  /// The client data JSON, when the assertion was made from a challenge and an origin.
  public var clientDataJSON: [UInt8]?

  /// The `AuthenticationResponseJSON` of WebAuthn Level 3 §5.1.8, binary members base64url. Needs
  /// ``clientDataJSON``.
  public var publicKeyCredentialJSON: String {
    let response: JSONValue = .object([
      ("clientDataJSON", .string(Base64URL.encode(clientDataJSON ?? []))),
      ("authenticatorData", .string(Base64URL.encode(authenticatorData))),
      ("signature", .string(Base64URL.encode(signature))),
      ("userHandle", userHandle.map { .string(Base64URL.encode($0)) } ?? .null),
    ])
    return credentialJSON(id: credentialID, response: response)
  }
}

private func credentialJSON(id: [UInt8], response: JSONValue) -> String {
  JSONValue.object([
    ("id", .string(Base64URL.encode(id))), ("rawId", .string(Base64URL.encode(id))), ("type", .string("public-key")),
    ("authenticatorAttachment", .string("platform")), ("response", response), ("clientExtensionResults", .object([])),
  ]).rendered()
}

extension Passkey {
  /// The AAGUID in attested credential data: all zero, as WebAuthn Level 3 §6.5.1 allows with attestation `none`.
  package static let aaguid = [UInt8](repeating: 0, count: 16)

  /// The flags for this passkey: UP, UV when `userVerified`, BE and BS as stored.
  func flags(userVerified: Bool) -> AuthenticatorFlags {
    var flags: AuthenticatorFlags = [.userPresent]
    if userVerified { flags.insert(.userVerified) }
    if isBackupEligible { flags.insert(.backupEligible) }
    if isBackedUp { flags.insert(.backedUp) }
    return flags
  }

  /// `rpIdHash || flags || signCount` (WebAuthn Level 3 §6.1), the sign count 0 as KeePassXC keeps it (§6.1.1: an
  /// authenticator that does not count sends 0).
  func authenticatorDataPrefix(_ flags: AuthenticatorFlags) throws(PasskeyError) -> [UInt8] {
    try RelyingPartyID.validate(relyingParty)
    return SHA256.hash(Array(relyingParty.utf8)).bytes + [flags.rawValue, 0, 0, 0, 0]
  }

  /// The registration of this passkey for `clientDataHash` (WebAuthn Level 3 §6.3.2 steps 10-13): authenticator data
  /// with UP, UV as `userVerified` says, BE and BS as stored, AT, sign count 0, and the attested credential data
  /// (zero AAGUID, credential ID, COSE public key); the attestation object with format `none`.
  public func registration(clientDataHash: [UInt8], userVerified: Bool = true) throws(PasskeyError)
    -> PasskeyRegistration
  {
    guard clientDataHash.count == 32 else { throw .invalidChallenge(byteCount: clientDataHash.count) }
    guard (1...1023).contains(credentialID.count) else { throw .invalidCredentialID(byteCount: credentialID.count) }
    let key = try publicKey()
    var authenticatorData = try authenticatorDataPrefix(
      flags(userVerified: userVerified).union(.attestedCredentialData))
    authenticatorData += Passkey.aaguid
    authenticatorData += [UInt8(credentialID.count >> 8), UInt8(truncatingIfNeeded: credentialID.count)]
    authenticatorData += credentialID
    authenticatorData += key.encoded
    let attestation = CBORValue.map([
      (.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authenticatorData)),
    ])
    let encoded: [UInt8]
    do { encoded = try attestation.encoded() } catch { throw .cbor(error) }
    return PasskeyRegistration(
      credentialID: credentialID, publicKey: key, authenticatorData: authenticatorData, attestationObject: encoded,
      clientDataJSON: nil)
  }

  /// ``registration(clientDataHash:userVerified:)`` for `challenge` and `origin`, building the client data
  /// (``WebAuthnClientData``, which checks the challenge and the origin against the relying party).
  public func registration(challenge: [UInt8], origin: String, userVerified: Bool = true) throws(PasskeyError)
    -> PasskeyRegistration
  {
    let clientData = try WebAuthnClientData(
      ceremony: .create, challenge: challenge, origin: origin, relyingParty: relyingParty)
    var result = try registration(clientDataHash: clientData.hash, userVerified: userVerified)
    result.clientDataJSON = clientData.json
    return result
  }

  /// An assertion for `clientDataHash` (WebAuthn Level 3 §6.3.3 steps 9-12): authenticator data with UP, UV as
  /// `userVerified` says, BE and BS as stored, sign count 0; the signature over
  /// `authenticatorData || clientDataHash`; the user handle.
  public func assertion(clientDataHash: [UInt8], userVerified: Bool = true) throws(PasskeyError) -> PasskeyAssertion {
    guard clientDataHash.count == 32 else { throw .invalidChallenge(byteCount: clientDataHash.count) }
    let authenticatorData = try authenticatorDataPrefix(flags(userVerified: userVerified))
    let signature = try signature(for: authenticatorData + clientDataHash)
    return PasskeyAssertion(
      credentialID: credentialID, authenticatorData: authenticatorData, signature: signature,
      userHandle: userHandle.isEmpty ? nil : userHandle, clientDataJSON: nil)
  }

  /// ``assertion(clientDataHash:userVerified:)`` for `challenge` and `origin`, building the client data.
  public func assertion(challenge: [UInt8], origin: String, userVerified: Bool = true) throws(PasskeyError)
    -> PasskeyAssertion
  {
    let clientData = try WebAuthnClientData(
      ceremony: .get, challenge: challenge, origin: origin, relyingParty: relyingParty)
    var result = try assertion(clientDataHash: clientData.hash, userVerified: userVerified)
    result.clientDataJSON = clientData.json
    return result
  }
}
