import KDBX
import KDBXCrypto
import KDBXPasskeys
import Testing
import VectorSupport

/// The stored form (KeePassXC's `KPEX_PASSKEY_*` attributes), reading and writing it, and listing a database.
@Suite struct PasskeyModelTests {
  static func passkey(_ algorithm: PasskeyAlgorithm = .es256, seed: UInt64 = 1) throws -> Passkey {
    var random = SplitMix64(seed: seed)
    return try Passkey.generate(
      relyingParty: "example.com", userName: "alice", userHandle: [1, 2, 3, 4], algorithm: algorithm, random: &random)
  }

  /// An entry exactly as KeePassXC's `BrowserService::addPasskeyToNewEntry`/`addPasskeyToEntry` leave it: title
  /// "rp (Passkey)", the five attributes in its order with its protection flags, the tag; no flag attributes.
  static func keePassXCEntry(pem: String, credentialID: String, userHandle: String) -> Entry {
    var random = SplitMix64(seed: 9)
    var entry = Entry.new(clock: noon, random: &random)
    entry.title = "example.com (Passkey)"
    entry.userName = "alice"
    entry.url = "https://example.com"
    entry.setCustomField("KPEX_PASSKEY_USERNAME", to: "alice", protected: false)
    entry.setCustomField("KPEX_PASSKEY_CREDENTIAL_ID", to: credentialID, protected: true)
    entry.setCustomField("KPEX_PASSKEY_PRIVATE_KEY_PEM", to: pem, protected: true)
    entry.setCustomField("KPEX_PASSKEY_RELYING_PARTY", to: "example.com", protected: false)
    entry.setCustomField("KPEX_PASSKEY_USER_HANDLE", to: userHandle, protected: true)
    entry.tags = ["Passkey"]
    return entry
  }

  @Test func setPasskeyWritesKeePassXCsAttributesAndProtection() throws {
    let passkey = try Self.passkey()
    var random = SplitMix64(seed: 2)
    let entry = Entry.passkeyEntry(passkey, clock: noon, random: &random)
    let expected: [(String, Bool)] = [
      ("KPEX_PASSKEY_USERNAME", false), ("KPEX_PASSKEY_CREDENTIAL_ID", true), ("KPEX_PASSKEY_PRIVATE_KEY_PEM", true),
      ("KPEX_PASSKEY_RELYING_PARTY", false), ("KPEX_PASSKEY_USER_HANDLE", true), ("KPEX_PASSKEY_FLAG_BE", false),
      ("KPEX_PASSKEY_FLAG_BS", false),
    ]
    #expect(entry.fields.filter { !Entry.isStandardField($0.key) }.map(\.key) == expected.map(\.0))
    #expect(entry.customFields.isEmpty, "the passkey fields have their own API")
    for (name, protected) in expected {
      #expect(entry[field: name]?.isProtected == protected, "\(name)")
    }
    #expect(entry[field: "KPEX_PASSKEY_CREDENTIAL_ID"]?.reveal() == Base64URL.encode(passkey.credentialID))
    #expect(entry[field: "KPEX_PASSKEY_CREDENTIAL_ID"]?.reveal().count == 43, "32 bytes, base64url, no padding")
    #expect(entry[field: "KPEX_PASSKEY_USER_HANDLE"]?.reveal() == "AQIDBA")
    #expect(entry[field: "KPEX_PASSKEY_PRIVATE_KEY_PEM"]?.reveal().hasPrefix("-----BEGIN PRIVATE KEY-----\n") == true)
    #expect(entry[field: "KPEX_PASSKEY_FLAG_BE"]?.reveal() == "1")
    #expect(entry.title == "example.com (Passkey)")
    #expect(entry.userName == "alice")
    #expect(entry.url == "https://example.com")
    #expect(entry.tags == ["Passkey"])
    #expect(try entry.passkey() == passkey)
    #expect(!passkey.description.contains("PRIVATE"), "the description never shows the key")
    #expect(passkey.description == "Passkey(example.com, user: alice, ES256)")
  }

  @Test(arguments: [PasskeyAlgorithm.es256, .edDSA])
  func aKeePassXCEntryOpensListsAndSigns(_ algorithm: PasskeyAlgorithm) throws {
    var random = SplitMix64(seed: 3)
    let pem: String
    let publicKey: COSEKey
    switch algorithm {
    case .es256:
      let key = P256.Signing.PrivateKey(generatingWith: &random)
      pem = key.pemRepresentation
      publicKey = .p256(key.publicKey)
    default:
      let key = Ed25519.PrivateKey(generatingWith: &random)
      pem = key.pemRepresentation
      publicKey = .ed25519(key.publicKey)
    }
    let credentialID = [UInt8](repeating: 0xAB, count: 32)
    let entry = Self.keePassXCEntry(
      pem: pem, credentialID: Base64URL.encode(credentialID), userHandle: Base64URL.encode([9, 9]))
    let passkey = try #require(try entry.passkey())
    #expect(passkey.algorithm == algorithm)
    #expect(passkey.credentialID == credentialID)
    #expect(passkey.userHandle == [9, 9])
    #expect(passkey.isBackupEligible && passkey.isBackedUp, "absent flags read as KeePassXC's defaults (true)")
    #expect(try passkey.publicKey() == publicKey)
    let message: [UInt8] = Array("authenticatorData || clientDataHash".utf8)
    #expect(publicKey.isValidSignature(try passkey.signature(for: message), for: message))
  }

  @Test func olderAttributeNamesAreReadFirstAsKeePassXCReadsThem() throws {
    var random = SplitMix64(seed: 10)
    var entry = Entry.passkeyEntry(try Self.passkey(), clock: noon, random: &random)
    entry.setCustomField("KPXC_PASSKEY_USERNAME", to: "legacy-alice", protected: false)
    entry.setCustomField("KPEX_PASSKEY_GENERATED_USER_ID", to: "AAEC", protected: true)
    entry.setCustomField("KPEX_PASSKEY_FLAG_BS", to: "0", protected: false)
    entry.setCustomField("KPEX_PASSKEY_FLAG_BE", to: "true", protected: false)
    let passkey = try #require(try entry.passkey())
    #expect(passkey.userName == "legacy-alice")
    #expect(passkey.credentialID == [0, 1, 2])
    #expect(passkey.isBackupEligible && !passkey.isBackedUp)
    // Storing a passkey again removes the older names, so that the new values are what every reader sees.
    entry.setPasskey(try Self.passkey(seed: 5))
    #expect(entry[field: "KPXC_PASSKEY_USERNAME"] == nil && entry[field: "KPEX_PASSKEY_GENERATED_USER_ID"] == nil)
    #expect(try entry.passkey() == (try Self.passkey(seed: 5)))
    #expect(entry.tags == ["Passkey"], "the tag is not added twice")
  }

  @Test func badStoredValuesGiveClearErrors() throws {
    let good = try Self.passkey()
    var random = SplitMix64(seed: 4)
    func entry(_ change: (inout Entry) -> Void) -> Entry {
      var entry = Entry.passkeyEntry(good, clock: noon, random: &random)
      change(&entry)
      return entry
    }
    #expect(throws: PasskeyError.notBase64URL(attribute: "KPEX_PASSKEY_CREDENTIAL_ID")) {
      try entry { $0.setCustomField("KPEX_PASSKEY_CREDENTIAL_ID", to: "not base64url!", protected: true) }.passkey()
    }
    #expect(throws: PasskeyError.notBase64URL(attribute: "KPEX_PASSKEY_USER_HANDLE")) {
      try entry { $0.setCustomField("KPEX_PASSKEY_USER_HANDLE", to: "a", protected: true) }.passkey()
    }
    #expect(throws: PasskeyError.missingAttribute("KPEX_PASSKEY_PRIVATE_KEY_PEM")) {
      try entry { $0.removeField("KPEX_PASSKEY_PRIVATE_KEY_PEM") }.passkey()
    }
    #expect(throws: PasskeyError.missingAttribute("KPEX_PASSKEY_RELYING_PARTY")) {
      try entry { $0.removeField("KPEX_PASSKEY_RELYING_PARTY") }.passkey()
    }
    #expect(throws: PasskeyError.key(.malformedPEM(reason: "no BEGIN line"))) {
      try entry { $0.setCustomField("KPEX_PASSKEY_PRIVATE_KEY_PEM", to: "garbage", protected: true) }.passkey()
    }
    #expect(throws: PasskeyError.self) {
      try entry {
        $0.setCustomField(
          "KPEX_PASSKEY_PRIVATE_KEY_PEM", to: "-----BEGIN PRIVATE KEY-----\nMAMCAQA=\n-----END PRIVATE KEY-----\n",
          protected: true)
      }.passkey()
    }
    #expect(throws: PasskeyError.key(.unsupportedCurve("1.3.132.0.34"))) {
      try entry { $0.setCustomField("KPEX_PASSKEY_PRIVATE_KEY_PEM", to: Keys.p384, protected: true) }.passkey()
    }
    // An RSA key is kept and listed as RS256, and refused for signing.
    let rsa = try #require(
      try entry { $0.setCustomField("KPEX_PASSKEY_PRIVATE_KEY_PEM", to: Keys.rsa, protected: true) }.passkey())
    #expect(rsa.algorithm == .rs256)
    #expect(throws: PasskeyError.unsupportedAlgorithm(.rs256)) { try rsa.signature(for: [1]) }
    #expect(throws: PasskeyError.unsupportedAlgorithm(.rs256)) {
      try rsa.assertion(challenge: [UInt8](repeating: 1, count: 32), origin: "https://example.com")
    }
    #expect(Entry(uuid: KDBXUUID.zero).hasPasskey == false)
    #expect(try Entry(uuid: KDBXUUID.zero).passkey() == nil)
  }

  @Test func generationRefusesBadInput() {
    var random = SplitMix64(seed: 6)
    #expect(throws: PasskeyError.invalidRelyingParty("")) {
      try Passkey.generate(relyingParty: "", userName: "a", userHandle: [1], random: &random)
    }
    for bad in ["Example.com", "exa mple.com", ".example.com", "example..com", "-a.com", "a-.com", "https://a.com"] {
      #expect(throws: PasskeyError.invalidRelyingParty(bad)) {
        try Passkey.generate(relyingParty: bad, userName: "a", userHandle: [1], random: &random)
      }
    }
    #expect(throws: PasskeyError.invalidUserHandle(byteCount: 0)) {
      try Passkey.generate(relyingParty: "a.com", userName: "a", userHandle: [], random: &random)
    }
    #expect(throws: PasskeyError.invalidUserHandle(byteCount: 65)) {
      try Passkey.generate(
        relyingParty: "a.com", userName: "a", userHandle: [UInt8](repeating: 1, count: 65), random: &random)
    }
    #expect(throws: PasskeyError.unsupportedAlgorithm(.rs256)) {
      try Passkey.generate(relyingParty: "a.com", userName: "a", userHandle: [1], algorithm: .rs256, random: &random)
    }
  }

  /// The app's form: the group named by its UUID; an unknown UUID, or one that two groups carry, adds nothing.
  @Test func aPasskeyEntryIsAddedToAGroupNamedByUUID() throws {
    var random = SplitMix64(seed: 11)
    var database = Database.new(name: "passkeys", clock: noon, random: &random)
    let root = try #require(database.root?.uuid)
    let web = try #require(database.addGroup(named: "Web", in: root, clock: noon, random: &random))
    let added = try #require(database.addPasskeyEntry(try Self.passkey(), to: web, clock: noon, random: &random))
    #expect(database.parentGroupUUID(ofEntry: added) == web)
    #expect(database.passkeys().map(\.entryUUID) == [added])
    let unknown = database.addPasskeyEntry(try Self.passkey(), to: KDBXUUID.zero, clock: noon, random: &random)
    #expect(unknown == nil)
    var twin = Group.new(name: "Twin", clock: noon, random: &random)
    twin.uuid = web
    database.addGroup(twin, to: GroupPosition(indexPath: []))
    let ambiguous = database.addPasskeyEntry(try Self.passkey(), to: web, clock: noon, random: &random)
    #expect(ambiguous == nil && database.passkeys().count == 1)
  }

  @Test func databaseListsPasskeysOutsideTheRecycleBinAndKeepsHistory() throws {
    var random = SplitMix64(seed: 7)
    var database = Database.new(name: "passkeys", clock: noon, random: &random)
    let root = GroupPosition(indexPath: [])
    let web = Group.new(name: "Web", clock: noon, random: &random)
    database.addGroup(web, to: root)
    let webPosition = GroupPosition(indexPath: [0])
    let first = try #require(
      database.addPasskeyEntry(try Self.passkey(), to: webPosition, clock: noon, random: &random))
    let binned = try #require(
      database.addPasskeyEntry(try Self.passkey(.edDSA, seed: 2), title: "old", to: root, clock: noon, random: &random))
    var plain = Entry.new(clock: noon, random: &random)
    plain.title = "no passkey"
    database.addEntry(plain, to: root)
    #expect(database.passkeys().count == 2)
    #expect(database.deleteEntry(binned, clock: noon, random: &random) == .movedToRecycleBin)
    let listed = database.passkeys()
    #expect(listed.map(\.entryUUID) == [first])
    #expect(listed.first?.groupPath == ["Web"])
    #expect(listed.first?.title == "example.com (Passkey)")

    // On an existing entry: the previous version goes to the history, as for any edit.
    #expect(database.setPasskey(try Self.passkey(.edDSA, seed: 8), onEntry: plain.uuid, clock: noon))
    let edited = try #require(database.flatEntries.first { $0.entry.uuid == plain.uuid }?.entry)
    #expect(try edited.passkey()?.algorithm == .edDSA)
    #expect(edited.history?.count == 1)
    #expect(edited.history?.first?.hasPasskey == false)
    #expect(!database.setPasskey(try Self.passkey(.edDSA, seed: 8), onEntry: plain.uuid, clock: noon), "no change")
    #expect(database.passkeys().count == 2)

    // The file round trip keeps every attribute and the protection of the key, credential ID and user handle.
    let key = CompositeKey(password: "pw")
    let kdf = KDFParameters.aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 0, count: 32)))
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: SaveSettings(version: .v4_0, kdf: kdf))
    let reopened = try KDBXFile.openBlocking(bytes: bytes, key: key).database
    let again = try #require(reopened.flatEntries.first { $0.entry.uuid == first }?.entry)
    #expect(try again.passkey() == (try Self.passkey()))
    for name in ["KPEX_PASSKEY_CREDENTIAL_ID", "KPEX_PASSKEY_PRIVATE_KEY_PEM", "KPEX_PASSKEY_USER_HANDLE"] {
      #expect(again[field: name]?.isProtected == true, "\(name) is written Protected=\"True\"")
    }
    for name in ["KPEX_PASSKEY_USERNAME", "KPEX_PASSKEY_RELYING_PARTY", "KPEX_PASSKEY_FLAG_BE", "KPEX_PASSKEY_FLAG_BS"]
    {
      #expect(again[field: name]?.isProtected == false, "\(name) is plain")
    }
    #expect(reopened.passkeys().map(\.entryUUID) == database.passkeys().map(\.entryUUID))
  }

  @Test func mergeCarriesPasskeysAsOrdinaryProtectedFields() throws {
    var random = SplitMix64(seed: 31)
    var base = Database.new(name: "merge", clock: noon, random: &random)
    var plain = Entry.new(clock: noon, random: &random)
    plain.title = "site"
    base.addEntry(plain, to: GroupPosition(indexPath: []))
    // The phone adds a passkey to the entry an hour later; the desktop copy is unchanged.
    var phone = base
    let later = TestClock(time: Timestamp(unixSeconds: noon.time.unixSeconds + 3600))
    let passkey = try Self.passkey(.edDSA, seed: 32)
    let changed = phone.setPasskey(passkey, onEntry: plain.uuid, clock: later)
    #expect(changed)
    let merged = DatabaseMerge.synchronize(local: base, remote: phone).database
    let entry = try #require(merged.flatEntries.first { $0.entry.uuid == plain.uuid }?.entry)
    #expect(try entry.passkey() == passkey)
    #expect(entry[field: "KPEX_PASSKEY_PRIVATE_KEY_PEM"]?.isProtected == true)
    #expect(entry.history?.count == 1, "the version without the passkey is in the history")
    #expect(merged.passkeys().count == 1)
  }
}
