import KDBX
import KDBXBase
import KDBXCrypto

// The stored form is KeePassXC's (2.7.7+), which KeePassium and KeePassDX read and write too. What was checked in
// KeePassXC's sources (src/browser/BrowserService.cpp `addPasskeyToEntry`, src/browser/PasskeyUtils.cpp,
// src/core/EntryAttributes.cpp, src/browser/BrowserPasskeys.cpp, src/browser/BrowserMessageBuilder.cpp):
// - `KPEX_PASSKEY_USERNAME` (plain), `KPEX_PASSKEY_CREDENTIAL_ID` (protected), `KPEX_PASSKEY_PRIVATE_KEY_PEM`
//   (protected), `KPEX_PASSKEY_RELYING_PARTY` (plain), `KPEX_PASSKEY_USER_HANDLE` (protected): the
//   `attributes()->set(name, value, protect)` calls of `addPasskeyToEntry`, which also adds the tag "Passkey".
// - `KPEX_PASSKEY_FLAG_BE` and `KPEX_PASSKEY_FLAG_BS`: written "1" (the macOS AutoFill provider and the passkey
//   importer); read as set when the value is "1" or "true", and as `DEFAULT_BE_FLAG`/`DEFAULT_BS_FLAG` (true) when
//   the attribute is absent.
// - Credential ID and user handle: base64url without padding (`getBase64FromArray`: `Base64UrlEncoding |
//   OmitTrailingEquals`); a new credential ID has 32 random bytes (`ID_BYTES`).
// - The private key: PKCS#8 PEM (`Botan::PKCS8::PEM_encode`), ECDSA P-256, Ed25519 or RSA.
// - Reading: `PasskeyUtils::getUsernameFromEntry` prefers the older `KPXC_PASSKEY_USERNAME` when present, and
//   `getCredentialIdFromEntry` prefers `KPEX_PASSKEY_GENERATED_USER_ID` (Strongbox) when present.
// - `EntryAttributes::hasPasskey`: any attribute whose name starts with `KPEX_PASSKEY`.

/// A passkey (a WebAuthn discoverable credential) stored in an entry as KeePassXC stores it.
///
/// The private key stays a ``ProtectedValue`` (the PKCS#8 PEM text of the attribute): it is parsed only to sign,
/// and never given out as a `String`. ``description`` shows the relying party, the user and the algorithm only.
///
/// ```swift
/// import KDBX
///
/// var random = SystemRandomNumberGenerator()
/// let passkey = try Passkey.generate(
///   relyingParty: "example.com", userName: "alice", userHandle: [1, 2, 3], random: &random)
/// var entry = Entry.passkeyEntry(passkey, clock: clock, random: &random)
/// let assertion = try entry.passkey()?.assertion(challenge: challenge, origin: "https://example.com")
/// ```
public struct Passkey: Sendable, Equatable, CustomStringConvertible {
  /// `KPEX_PASSKEY_USERNAME`: the user name the relying party gave (`user.name`, WebAuthn Level 3 §5.4.3).
  package static let userNameAttribute = "KPEX_PASSKEY_USERNAME"
  /// `KPXC_PASSKEY_USERNAME`: KeePassXC's older name for the user name, read first when present.
  package static let legacyUserNameAttribute = "KPXC_PASSKEY_USERNAME"
  /// `KPEX_PASSKEY_CREDENTIAL_ID`: the credential ID, base64url, protected.
  package static let credentialIDAttribute = "KPEX_PASSKEY_CREDENTIAL_ID"
  /// `KPEX_PASSKEY_GENERATED_USER_ID`: Strongbox's credential ID, read first when present.
  package static let generatedUserIDAttribute = "KPEX_PASSKEY_GENERATED_USER_ID"
  /// `KPEX_PASSKEY_PRIVATE_KEY_PEM`: the private key, PKCS#8 PEM, protected.
  package static let privateKeyAttribute = "KPEX_PASSKEY_PRIVATE_KEY_PEM"
  /// `KPEX_PASSKEY_RELYING_PARTY`: the relying party ID (WebAuthn Level 3 §5.4.2, `rp.id`).
  package static let relyingPartyAttribute = "KPEX_PASSKEY_RELYING_PARTY"
  /// `KPEX_PASSKEY_USER_HANDLE`: the user handle (`user.id`), base64url, protected.
  package static let userHandleAttribute = "KPEX_PASSKEY_USER_HANDLE"
  /// `KPEX_PASSKEY_FLAG_BE`: backup eligibility, "1" or "0".
  package static let backupEligibleAttribute = "KPEX_PASSKEY_FLAG_BE"
  /// `KPEX_PASSKEY_FLAG_BS`: backup state, "1" or "0".
  package static let backedUpAttribute = "KPEX_PASSKEY_FLAG_BS"
  /// The prefix KeePassXC recognises passkey attributes by (`EntryAttributes::hasPasskey`).
  public static let attributePrefix = "KPEX_PASSKEY"
  /// The tag KeePassXC gives a passkey entry.
  package static let tag = "Passkey"

  /// The relying party ID, such as `example.com`.
  public var relyingParty: String
  /// The user name shown for the passkey.
  public var userName: String
  /// The credential ID (raw bytes).
  public var credentialID: [UInt8]
  /// The user handle (raw bytes); empty when the entry has none.
  public var userHandle: [UInt8]
  /// The BE flag of authenticator data (WebAuthn Level 3 §6.1, bit 3).
  public var isBackupEligible: Bool
  /// The BS flag of authenticator data (WebAuthn Level 3 §6.1, bit 4).
  public var isBackedUp: Bool
  /// The key's algorithm, from the PKCS#8 algorithm identifier.
  public let algorithm: PasskeyAlgorithm
  /// The PKCS#8 PEM text, protected in memory.
  let privateKeyPEM: ProtectedValue

  /// The relying party, user and algorithm; never the key.
  public var description: String { "Passkey(\(relyingParty), user: \(userName), \(algorithm))" }

  /// A passkey with the private key `privateKeyPEM` (PKCS#8 or SEC 1 PEM, read to find the algorithm; an RSA key
  /// is kept as ``PasskeyAlgorithm/rs256``). Throws for a key that cannot be read.
  public init(
    relyingParty: String, userName: String, credentialID: [UInt8], userHandle: [UInt8], privateKeyPEM: ProtectedValue,
    isBackupEligible: Bool = true, isBackedUp: Bool = true
  ) throws(PasskeyError) {
    self.relyingParty = relyingParty
    self.userName = userName
    self.credentialID = credentialID
    self.userHandle = userHandle
    self.isBackupEligible = isBackupEligible
    self.isBackedUp = isBackedUp
    self.privateKeyPEM = privateKeyPEM
    self.algorithm = try Passkey.algorithm(of: privateKeyPEM)
  }

  /// A new passkey: a fresh key pair of `algorithm` and a 32-byte random credential ID (as KeePassXC makes
  /// them), backup eligible and backed up (KeePassXC's defaults: a vault is synced by its user).
  ///
  /// - Throws: ``PasskeyError/invalidRelyingParty(_:)`` for an empty or malformed relying party ID,
  ///   ``PasskeyError/invalidUserHandle(byteCount:)`` for a user handle of 0 or more than 64 bytes,
  ///   ``PasskeyError/unsupportedAlgorithm(_:)`` for RS256.
  public static func generate(
    relyingParty: String, userName: String, userHandle: [UInt8], algorithm: PasskeyAlgorithm = .es256,
    random: inout some RandomNumberGenerator
  ) throws(PasskeyError) -> Passkey {
    try RelyingPartyID.validate(relyingParty)
    guard (1...64).contains(userHandle.count) else { throw .invalidUserHandle(byteCount: userHandle.count) }
    var credentialID = [UInt8](repeating: 0, count: 32)
    for index in 0..<credentialID.count { credentialID[index] = UInt8(truncatingIfNeeded: random.next()) }
    var der: [UInt8]
    switch algorithm {
    case .es256: der = P256.Signing.PrivateKey(generatingWith: &random).derRepresentation
    case .edDSA: der = Ed25519.PrivateKey(generatingWith: &random).derRepresentation
    case .rs256: throw .unsupportedAlgorithm(.rs256)
    }
    defer { SecureBytes.wipe(&der) }
    var pem = Array(PEM.encode(label: "PRIVATE KEY", der: der).utf8)
    defer { SecureBytes.wipe(&pem) }
    return try Passkey(
      relyingParty: relyingParty, userName: userName, credentialID: credentialID, userHandle: userHandle,
      privateKeyPEM: ProtectedValue(bytes: pem, using: &random))
  }

  /// The algorithm of the PEM key: ES256 for P-256, EdDSA for Ed25519, RS256 for an RSA PKCS#8 key.
  static func algorithm(of pem: ProtectedValue) throws(PasskeyError) -> PasskeyAlgorithm {
    do {
      switch try signingKey(pem) {
      case .p256: return .es256
      case .ed25519: return .edDSA
      }
    } catch .key(.unsupportedAlgorithm("rsaEncryption")) {
      return .rs256
    }
  }

  /// Parses the protected PEM. The text exists in the clear only for the parse.
  static func signingKey(_ pem: ProtectedValue) throws(PasskeyError) -> SigningPrivateKey {
    var bytes = pem.revealBytes()
    defer { SecureBytes.wipe(&bytes) }
    let text = String(decoding: bytes, as: UTF8.self)
    guard text.utf8.elementsEqual(bytes) else { throw .key(.malformedPEM(reason: "the text is not UTF-8")) }
    do { return try SigningPrivateKey(pemRepresentation: text) } catch { throw .key(error) }
  }

  /// The credential public key.
  public func publicKey() throws(PasskeyError) -> COSEKey {
    switch algorithm {
    case .rs256: throw .unsupportedAlgorithm(.rs256)
    case .es256, .edDSA:
      switch try Passkey.signingKey(privateKeyPEM) {
      case .p256(let key): return .p256(key.publicKey)
      case .ed25519(let key): return .ed25519(key.publicKey)
      }
    }
  }

  /// Signs `message` as WebAuthn asks (Level 3 §6.5.5): ES256 gives a DER `Ecdsa-Sig-Value` (RFC 6979
  /// deterministic nonce), EdDSA the 64-byte RFC 8032 signature. RS256 keys throw
  /// ``PasskeyError/unsupportedAlgorithm(_:)``.
  public func signature(for message: [UInt8]) throws(PasskeyError) -> [UInt8] {
    if algorithm == .rs256 { throw .unsupportedAlgorithm(.rs256) }
    switch try Passkey.signingKey(privateKeyPEM) {
    case .p256(let key): return key.signature(for: message).derRepresentation
    case .ed25519(let key): return key.signature(for: message)
    }
  }

  /// The private key's PKCS#8 PEM, protected: for an export the user asked for (`--show-protected`).
  public var protectedPrivateKeyPEM: ProtectedValue { privateKeyPEM }
}

/// Relying party IDs (WebAuthn Level 3 §5.1.3 step 8: a valid domain string, RFC 1034 §3.5 labels).
enum RelyingPartyID {
  static func validate(_ id: String) throws(PasskeyError) {
    let bytes = Array(id.utf8)
    guard !bytes.isEmpty, bytes.count <= 253 else { throw .invalidRelyingParty(id) }
    var labelLength = 0
    for (index, byte) in bytes.enumerated() {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        labelLength += 1
      case UInt8(ascii: "-"):
        guard labelLength > 0, index + 1 < bytes.count, bytes[index + 1] != UInt8(ascii: ".") else {
          throw .invalidRelyingParty(id)
        }
        labelLength += 1
      case UInt8(ascii: "."):
        guard labelLength > 0 else { throw .invalidRelyingParty(id) }
        labelLength = 0
      default:
        throw .invalidRelyingParty(id)
      }
      guard labelLength <= 63 else { throw .invalidRelyingParty(id) }
    }
    guard labelLength > 0 else { throw .invalidRelyingParty(id) }
  }
}

extension Entry {
  /// Whether the entry has passkey attributes (KeePassXC `EntryAttributes::hasPasskey`: any attribute whose name
  /// starts with `KPEX_PASSKEY`).
  public var hasPasskey: Bool { fields.contains { $0.key.hasPrefix(Passkey.attributePrefix) } }

  /// The entry's passkey, or `nil` when it has none (``hasPasskey``). Read as KeePassXC reads it: the user name
  /// from `KPXC_PASSKEY_USERNAME` when present, else `KPEX_PASSKEY_USERNAME`; the credential ID from
  /// `KPEX_PASSKEY_GENERATED_USER_ID` when present, else `KPEX_PASSKEY_CREDENTIAL_ID`; an absent flag is set.
  ///
  /// - Throws: ``PasskeyError/missingAttribute(_:)`` without a relying party, credential ID or private key,
  ///   ``PasskeyError/notBase64URL(attribute:)`` for a credential ID or user handle that is not base64url,
  ///   ``PasskeyError/key(_:)`` for a private key that cannot be read.
  public func passkey() throws(PasskeyError) -> Passkey? {
    guard hasPasskey else { return nil }
    guard let relyingParty = self[field: Passkey.relyingPartyAttribute]?.reveal() else {
      throw .missingAttribute(Passkey.relyingPartyAttribute)
    }
    let idName =
      self[field: Passkey.generatedUserIDAttribute] != nil
      ? Passkey.generatedUserIDAttribute : Passkey.credentialIDAttribute
    guard let idText = self[field: idName]?.reveal() else { throw .missingAttribute(Passkey.credentialIDAttribute) }
    guard let credentialID = Base64URL.decode(idText.trimmingASCIIWhitespace()) else {
      throw .notBase64URL(attribute: idName)
    }
    var userHandle: [UInt8] = []
    if let handleText = self[field: Passkey.userHandleAttribute]?.reveal() {
      guard let decoded = Base64URL.decode(handleText.trimmingASCIIWhitespace()) else {
        throw .notBase64URL(attribute: Passkey.userHandleAttribute)
      }
      userHandle = decoded
    }
    guard case .some(let keyValue) = self[field: Passkey.privateKeyAttribute] else {
      throw .missingAttribute(Passkey.privateKeyAttribute)
    }
    var random = SystemRandomNumberGenerator()
    let pem: ProtectedValue
    switch keyValue {
    case .protected(let value): pem = value
    case .plain(let text): pem = ProtectedValue(text, using: &random)
    }
    let userName =
      (self[field: Passkey.legacyUserNameAttribute] ?? self[field: Passkey.userNameAttribute])?.reveal() ?? ""
    return try Passkey(
      relyingParty: relyingParty, userName: userName, credentialID: credentialID, userHandle: userHandle,
      privateKeyPEM: pem, isBackupEligible: flag(Passkey.backupEligibleAttribute),
      isBackedUp: flag(Passkey.backedUpAttribute))
  }

  /// A flag attribute: set when absent (KeePassXC's defaults), else when "1" or "true".
  private func flag(_ name: String) -> Bool {
    guard let value = self[field: name]?.reveal() else { return true }
    return value == "1" || value == "true"
  }

  /// Stores `passkey` in the entry's attributes as KeePassXC's `addPasskeyToEntry` does: the user name and relying
  /// party plain, the credential ID, private key and user handle protected (`Protected="True"` in the file), the
  /// two flags as "1" or "0", and the tag "Passkey". The older `KPXC_PASSKEY_USERNAME` and
  /// `KPEX_PASSKEY_GENERATED_USER_ID`, which readers prefer, are removed so that the new values are the ones read.
  /// To keep the previous version in the history, call this inside `Database.editEntry`.
  public mutating func setPasskey(_ passkey: Passkey) {
    var random = SystemRandomNumberGenerator()
    func protected(_ text: String) -> FieldValue { .protected(ProtectedValue(text, using: &random)) }
    self[field: Passkey.userNameAttribute] = .plain(passkey.userName)
    self[field: Passkey.credentialIDAttribute] = protected(Base64URL.encode(passkey.credentialID))
    self[field: Passkey.privateKeyAttribute] = .protected(passkey.privateKeyPEM)
    self[field: Passkey.relyingPartyAttribute] = .plain(passkey.relyingParty)
    self[field: Passkey.userHandleAttribute] = protected(Base64URL.encode(passkey.userHandle))
    self[field: Passkey.backupEligibleAttribute] = .plain(passkey.isBackupEligible ? "1" : "0")
    self[field: Passkey.backedUpAttribute] = .plain(passkey.isBackedUp ? "1" : "0")
    self[field: Passkey.legacyUserNameAttribute] = nil
    self[field: Passkey.generatedUserIDAttribute] = nil
    if !tags.contains(Passkey.tag) { tags.append(Passkey.tag) }
  }

  /// Removes every passkey attribute (including the older names); returns whether there was one.
  @discardableResult
  public mutating func removePasskey() -> Bool {
    let before = fields.count
    fields.removeAll { $0.key.hasPrefix(Passkey.attributePrefix) || $0.key == Passkey.legacyUserNameAttribute }
    return fields.count != before
  }

  /// A new entry for `passkey`, as KeePassXC's `addPasskeyToNewEntry` makes one: titled "`rp` (Passkey)", the
  /// passkey's user name as `UserName`, `https://rp` as `URL`, and the passkey attributes of ``setPasskey(_:)``.
  public static func passkeyEntry(
    _ passkey: Passkey, title: String? = nil, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> Entry {
    var entry = Entry.new(clock: clock, random: &random)
    entry.title = title ?? "\(passkey.relyingParty) (Passkey)"
    entry.userName = passkey.userName
    entry.url = "https://\(passkey.relyingParty)"
    entry.setPasskey(passkey)
    return entry
  }
}

/// One passkey entry of a database, as ``KDBX/Database/passkeys()`` lists it.
public struct StoredPasskey: Sendable {
  /// The entry's UUID.
  public var entryUUID: KDBXUUID
  /// The names of the groups from below the root down to the entry's group.
  public var groupPath: [String]
  /// The entry's title.
  public var title: String
  /// The passkey, or why it could not be read (the entry is kept as it is).
  public var passkey: Result<Passkey, PasskeyError>
}

extension Database {
  /// Every entry with passkey attributes (``KDBX/Entry/hasPasskey``), in tree order, except those in the recycle
  /// bin; an entry whose passkey cannot be read is listed with the reason.
  public func passkeys() -> [StoredPasskey] {
    var out: [StoredPasskey] = []
    for item in flatEntries where !item.isInRecycleBin && item.entry.hasPasskey {
      let result: Result<Passkey, PasskeyError>
      do {
        if let passkey = try item.entry.passkey() {
          result = .success(passkey)
        } else {
          continue
        }
      } catch { result = .failure(error) }
      out.append(
        StoredPasskey(entryUUID: item.entry.uuid, groupPath: item.groupPath, title: item.entry.title, passkey: result))
    }
    return out
  }

  /// Adds a new entry for `passkey` (``KDBX/Entry/passkeyEntry(_:title:clock:random:)``) to group `group`;
  /// returns its UUID, or `nil` when no group or more than one has that UUID.
  ///
  /// ```swift
  /// let passkey = try Passkey.generate(
  ///   relyingParty: "example.com", userName: "alice", userHandle: handle, algorithm: .es256, random: &random)
  /// database.addPasskeyEntry(passkey, to: groupUUID, clock: clock, random: &random)
  /// ```
  @discardableResult
  public mutating func addPasskeyEntry(
    _ passkey: Passkey, title: String? = nil, to group: KDBXUUID, clock: some WallClock,
    random: inout some RandomNumberGenerator
  ) -> KDBXUUID? {
    let found = positions(ofGroup: group)
    guard found.count == 1 else { return nil }
    return addPasskeyEntry(passkey, title: title, to: found[0], clock: clock, random: &random)
  }

  /// `addPasskeyEntry(_:title:to:clock:random:)` into the group at `position` (for a tool that located the
  /// group by path where a damaged file repeats a UUID).
  @discardableResult
  package mutating func addPasskeyEntry(
    _ passkey: Passkey, title: String? = nil, to position: GroupPosition, clock: some WallClock,
    random: inout some RandomNumberGenerator
  ) -> KDBXUUID? {
    let entry = Entry.passkeyEntry(passkey, title: title, clock: clock, random: &random)
    return addEntry(entry, to: position) ? entry.uuid : nil
  }

  /// Stores `passkey` on the existing entry `uuid`, keeping the previous version in its history (as
  /// `editEntry` does). Returns `false` when there is no such entry or nothing changed.
  @discardableResult
  public mutating func setPasskey(_ passkey: Passkey, onEntry uuid: KDBXUUID, clock: some WallClock) -> Bool {
    editEntry(uuid, clock: clock) { $0.setPasskey(passkey) }
  }
}
