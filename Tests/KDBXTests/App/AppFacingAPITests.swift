import KDBX
import Testing
import VectorSupport

/// The app-facing forms of issue #35 items 3, 4 and 8: attachments without the pool, custom fields without the
/// one-time-password and passkey bookkeeping, one icon type, `GroupSelection(groups:)` and the group's tri-state
/// auto-type and search settings. Each round trip goes through a save and an open.
@Suite struct AppFacingAPITests {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  static let key = CompositeKey(password: "app")
  static let settings = SaveSettings(
    version: .v4_0, kdf: .aesKDF(AESKDFParameters(rounds: 10, seed: [UInt8](repeating: 0, count: 32))))

  /// A database with one entry in the root group; returns it and the entry's UUID.
  static func vault(random: inout SplitMix64) throws -> (Database, KDBXUUID) {
    var database = Database.new(name: "App", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry.title = "GitHub"
    let root = try #require(database.root?.uuid)
    let changed1 = database.addEntry(entry, to: root)
    #expect(changed1)
    return (database, entry.uuid)
  }

  static func reopened(_ database: Database, version: KDBXVersion = .v4_0) throws -> Database {
    var settings = settings
    settings.version = version
    let bytes = try KDBXFile.saveBlocking(database, key: key, settings: settings)
    return try KDBXFile.openBlocking(bytes: bytes, key: key).database
  }

  @Test(arguments: [KDBXVersion.v3_1, .v4_0])
  func attachmentsAreAddedReplacedRenamedAndRemovedInOneCall(version: KDBXVersion) throws {
    var random = SplitMix64(seed: 35)
    var (database, id) = try Self.vault(random: &random)
    let first = Array("first".utf8)
    let second = Array("the second content".utf8)

    let changed2 = database.setAttachment(named: "a.txt", contents: first, inEntry: id, clock: Self.clock)
    #expect(changed2)
    let changed3 = database.setAttachment(named: "b.bin", contents: first, inEntry: id, clock: Self.clock)
    #expect(changed3)
    let changed4 = database.setAttachment(named: "a.txt", contents: first, inEntry: id, clock: Self.clock)
    #expect(!changed4, "no change")
    var opened = try Self.reopened(database, version: version)
    var entry = try #require(opened.entry(withUUID: id))
    #expect(entry.attachments.map(\.name) == ["a.txt", "b.bin"])
    for attachment in entry.attachments {
      #expect(opened.contents(of: attachment) == first && opened.byteCount(of: attachment) == 5)
      #expect(opened.isLoaded(attachment))
    }

    // Replace, rename (over an existing name), remove: each one call, each a history version.
    let changed5 = opened.setAttachment(named: "a.txt", contents: second, inEntry: id, clock: Self.clock)
    #expect(changed5)
    let changed6 = opened.renameAttachment(named: "a.txt", to: "renamed.txt", inEntry: id, clock: Self.clock)
    #expect(changed6)
    let changed7 = opened.renameAttachment(named: "missing", to: "x", inEntry: id, clock: Self.clock)
    #expect(!changed7)
    let changed8 = opened.setAttachment(named: "c.txt", contents: first, inEntry: id, clock: Self.clock)
    #expect(changed8)
    let changed9 = opened.renameAttachment(named: "c.txt", to: "b.bin", inEntry: id, clock: Self.clock)
    #expect(changed9)
    let changed10 = opened.removeAttachment(named: "renamed.txt", inEntry: id, clock: Self.clock)
    #expect(changed10)
    let changed11 = opened.removeAttachment(named: "renamed.txt", inEntry: id, clock: Self.clock)
    #expect(!changed11)
    opened = try Self.reopened(opened, version: version)
    entry = try #require(opened.entry(withUUID: id))
    #expect(entry.attachments.map(\.name) == ["b.bin"])
    #expect(entry.attachments.first.flatMap { opened.contents(of: $0) } == first)
    let versions = try #require(entry.history)
    #expect(versions.count >= 5, "every attachment change is an edit with a history version")
    let withSecond = versions.contains { version in
      version.attachments.contains { $0.name == "renamed.txt" && opened.contents(of: $0) == second }
    }
    #expect(withSecond, "the history keeps the replaced content")
  }

  @Test func anAttachmentLeftOutAtLoadStillHasItsSize() throws {
    var random = SplitMix64(seed: 36)
    var (database, id) = try Self.vault(random: &random)
    database.setAttachment(
      named: "big.bin", contents: [UInt8](repeating: 7, count: 1_000), inEntry: id, clock: Self.clock)
    let bytes = try KDBXFile.saveBlocking(database, key: Self.key, settings: Self.settings)
    var options = LoadOptions()
    options.loadsAttachmentContents = false
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: Self.key, options: options).database
    let attachment = try #require(opened.entry(withUUID: id)?.attachments.first)
    #expect(opened.byteCount(of: attachment) == 1_000)
    #expect(!opened.isLoaded(attachment) && opened.contents(of: attachment) == nil)
  }

  @Test func customFieldsHideTheOneTimePasswordAndPasskeyFieldsWhichSurviveASave() throws {
    var random = SplitMix64(seed: 37)
    var (database, id) = try Self.vault(random: &random)
    database.editEntry(id, clock: Self.clock) { entry in
      entry.setCustomField("PIN", to: "1234", protected: true)
      entry.setCustomField("otp", to: "otpauth://totp/x?secret=JBSWY3DPEHPK3PXP", protected: true)
      entry.setCustomField("TOTP Seed", to: "JBSWY3DPEHPK3PXP", protected: true)
      entry.setCustomField("TOTP Settings", to: "30;6", protected: false)
      entry.setCustomField("TimeOtp-Secret-Base32", to: "JBSWY3DPEHPK3PXP", protected: true)
      entry.setCustomField("HmacOtp-Counter", to: "3", protected: false)
      entry.setCustomField("KPEX_PASSKEY_RELYING_PARTY", to: "example.com", protected: false)
      entry.setCustomField("Recovery email", to: "me@example.com", protected: false)
    }
    let hidden = [
      "otp", "TOTP Seed", "TOTP Settings", "TimeOtp-Secret-Base32", "HmacOtp-Counter",
      "KPEX_PASSKEY_RELYING_PARTY",
    ]
    let opened = try Self.reopened(database)
    var entry = try #require(opened.entry(withUUID: id))
    #expect(entry.customFields.map(\.key) == ["PIN", "Recovery email"])
    for name in hidden { #expect(entry[field: name] != nil, "\(name) is kept and reachable by name") }
    #expect(entry.oneTimePassword() != nil)

    // Replacing the custom fields leaves the bookkeeping fields where they are.
    entry.customFields = [EntryField(key: "Door code", value: .plain("42"))]
    #expect(entry.customFields.map(\.key) == ["Door code"])
    for name in hidden { #expect(entry[field: name] != nil, "\(name) survives replacing the custom fields") }
  }

  @Test func aGroupSelectionIsMadeFromGroups() throws {
    var random = SplitMix64(seed: 38)
    var database = Database.new(name: "App", clock: Self.clock, random: &random)
    let root = try #require(database.root?.uuid)
    let work = try #require(database.addGroup(named: "Work", in: root, clock: Self.clock, random: &random))
    let home = try #require(database.addGroup(named: "Home", in: root, clock: Self.clock, random: &random))
    var entry = Entry.new(clock: Self.clock, random: &random)
    entry.title = "At work"
    database.addEntry(entry, to: work)
    var other = Entry.new(clock: Self.clock, random: &random)
    other.title = "At home"
    database.addEntry(other, to: home)

    let selection = GroupSelection(groups: [work])
    #expect(selection.groups == [work] && selection.contains(work) && !selection.contains(home))
    #expect(database.displayedEntries(selection: selection).map(\.entry.title) == ["At work"])
    #expect(GroupSelection(groups: []) == GroupSelection())
  }

  @Test func iconsAreOneTypeWithIntIndices() throws {
    var entry = Entry(uuid: KDBXUUID.zero)
    #expect(entry.icon == .standard(0) && entry.icon.sfSymbolName == "key.fill")
    entry.icon = .standard(1)
    #expect(entry.icon.sfSymbolName == "globe")
    #expect(IconReference.standardIndices.count == 69)
    #expect(IconReference.standard(69).sfSymbolName == "key.fill", "an unknown index falls back")
    #expect(IconReference.custom(KDBXUUID.zero).sfSymbolName == "key.fill")
  }

  @Test func aGroupsAutoTypeAndSearchSettingsAreTriState() throws {
    var random = SplitMix64(seed: 39)
    var database = Database.new(name: "App", clock: Self.clock, random: &random)
    var root = try #require(database.root)
    #expect(root.isAutoTypeEnabled == nil && root.isSearchingEnabled == nil)
    root.isAutoTypeEnabled = false
    root.isSearchingEnabled = true
    database.root = root
    var opened = try #require(try Self.reopened(database).root)
    #expect(opened.isAutoTypeEnabled == false && opened.isSearchingEnabled == true)
    opened.isAutoTypeEnabled = nil
    database.root = opened
    #expect(try Self.reopened(database).root?.isAutoTypeEnabled == nil, "nil is written as inherit")
  }
}
