import KDBX
import KDBXPasskeys
import Testing
import VectorSupport

/// The identities an AutoFill extension registers: passwords per host and passkeys, the bin and expired entries
/// left out.
@Suite struct IdentityTests {
  @Test func identitiesFollowTheMatchersRules() throws {
    var random = SplitMix64(seed: 21)
    var database = Database.new(name: "ids", clock: noon, random: &random)
    let root = GroupPosition(indexPath: [])
    func add(_ title: String, _ change: (inout Entry) -> Void) -> Entry {
      var entry = Entry.new(clock: noon, random: &random)
      entry.title = title
      change(&entry)
      database.addEntry(entry, to: root)
      return entry
    }
    let github = add("GitHub") {
      $0.userName = "octo"
      $0.password = "pw"
      $0.url = "https://GitHub.com/login"
      $0.setCustomField("KP2A_URL", to: "https://gist.github.com", protected: false)
      $0.setCustomField("KP2A_URL_1", to: "github.com", protected: false)
      $0.setCustomField("KP2A_URL_2", to: "androidapp://com.github.android", protected: false)
    }
    _ = add("expired") {
      $0.userName = "old"
      $0.url = "https://old.example"
      $0.expiry = Timestamp(unixSeconds: 1_577_836_800)
    }
    let binned = add("binned") {
      $0.userName = "gone"
      $0.url = "https://bin.example"
    }
    _ = add("nothing to fill") { $0.url = "https://empty.example" }
    let passkey = try Passkey.generate(
      relyingParty: "example.com", userName: "alice", userHandle: [1], algorithm: .edDSA, random: &random)
    let passkeyEntry = try #require(database.addPasskeyEntry(passkey, to: root, clock: noon, random: &random))
    #expect(database.deleteEntry(binned.uuid, clock: noon, random: &random) == .movedToRecycleBin)

    let identities = database.credentialIdentities(now: noon.time)
    let record = github.uuid.description
    #expect(
      identities.passwords.map { [$0.serviceIdentifier, $0.userName, $0.recordIdentifier] } == [
        ["github.com", "octo", record], ["gist.github.com", "octo", record],
      ], "the passkey entry, which has no password, is a passkey identity only")
    #expect(identities.passkeys.count == 1)
    let found = try #require(identities.passkeys.first)
    #expect(found.relyingParty == "example.com" && found.userName == "alice")
    #expect(found.credentialID == passkey.credentialID && found.userHandle == [1])
    #expect(found.recordIdentifier == passkeyEntry.description)
  }
}
