import KDBX
import KDBXAutoFill
import KDBXPasswords
import Testing
import VectorSupport

/// An app's day with the vault, through the public API only (`import KDBX`, no `@testable`): the executable spec
/// for an iOS/macOS KeePass app. Each step names the screen or extension it stands for.
@Suite("App scenario: a day with the vault")
struct AppScenarioTests {
  /// Cheap KDF settings so the test runs fast; an app keeps what the file has (`SaveSettings(keeping:)`).
  static let settings = SaveSettings(
    version: .v4_0, kdf: .aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 0, count: 32))))
  static let morning = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  static let noon = FixedClock(Timestamp(unixSeconds: 1_700_010_000))

  /// The vault as the app finds it: a few groups and entries, one with a TOTP secret.
  static func initialVault(random: inout SplitMix64) throws -> Database {
    var database = Database.new(name: "Family", clock: morning, random: &random)
    let root = try #require(database.root?.uuid)
    let internet = try #require(database.addGroup(named: "Internet", in: root, clock: morning, random: &random))
    let banking = try #require(database.addGroup(named: "Banking", in: root, clock: morning, random: &random))
    var github = Entry.new(clock: morning, random: &random)
    github.title = "GitHub"
    github.userName = "octocat"
    github.password = "correct horse battery staple"
    github.url = "https://github.com/login"
    github.tags = ["dev"]
    github.icon = .standard(1)  // KeePass's globe
    try github.setOneTimePassword(
      OTPAuthURI.parse("otpauth://totp/GitHub:octocat?secret=JBSWY3DPEHPK3PXP&issuer=GitHub"), random: &random)
    database.addEntry(github, to: internet)
    var bank = Entry.new(clock: morning, random: &random)
    bank.title = "Bank"
    bank.userName = "jane"
    bank.password = "s3cret"
    bank.url = "https://bank.example"
    database.addEntry(bank, to: banking)
    return database
  }

  @Test func theAppsDay() throws {
    var random = SplitMix64(seed: 2026)
    let key = CompositeKey(password: "family vault")
    let created = try SynchronousVaultSession.create(
      Self.initialVault(random: &random), in: InMemoryVaultStorage(), key: key, settings: Self.settings)
    let fileOnDisk = try #require(created.storage.bytes)

    // Unlock screen: open with a progress bar.
    var fractions: [Double] = []
    let session = try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: fileOnDisk), key: key) { fraction in
      fractions.append(fraction)
      return true  // false cancels
    }
    #expect(!session.isLocked && fractions.last == 1)
    var database = try #require(session.database)

    // Entry list: every entry with its group path.
    let list = database.flatEntries
    #expect(
      list.map { ($0.groupPath + [$0.entry.title]).joined(separator: "/") } == ["Internet/GitHub", "Banking/Bank"])

    // Sidebar: the group picker (the bin hidden) and a filter on one group, searched within the filter.
    let picker = database.groupsByPath.filter { !$0.isInRecycleBin }
    #expect(picker.map(\.pathText) == ["", "Internet", "Banking"])
    let internet = try #require(picker.first { $0.pathText == "Internet" }?.uuid)
    var filter = GroupSelection()
    filter.select(internet, in: database)
    #expect(database.displayedEntries(selection: filter).map(\.entry.title) == ["GitHub"])
    #expect(database.displayedEntries(selection: filter, search: EntrySearch(text: "bank")).isEmpty)
    #expect(database.displayedEntries(search: EntrySearch(text: "bank")).map(\.entry.title) == ["Bank"])

    // "+" button: a new entry goes to the filtered group.
    var forum = Entry.new(clock: Self.noon, random: &random)
    forum.title = "Forum"
    forum.url = "https://forum.example"
    forum.password = try ProtectedValue(
      PasswordGenerator(options: PasswordGenerator.Options()).generate(using: &random))
    let target = try #require(filter.defaultGroupForNewEntry(in: database))
    #expect(target == internet && database.addEntry(forum, to: target))

    // Edit sheet: attach a file and change the user name; each old version goes to the history.
    let github = try #require(list.first { $0.entry.title == "GitHub" }?.entry)
    let attached = database.setAttachment(
      named: "recovery.txt", contents: Array("1111-2222".utf8), inEntry: github.id, clock: Self.noon)
    let edited = database.editEntry(github.id, clock: Self.noon) { $0.userName = "octocat-work" }
    let afterEdit = try #require(database.entry(withUUID: github.id))
    #expect(attached && edited && afterEdit.history?.last?.userName == "octocat")
    let attachment = try #require(afterEdit.attachments.first)
    #expect(attachment.name == "recovery.txt" && database.byteCount(of: attachment) == 9)
    #expect(database.isLoaded(attachment) && database.contents(of: attachment) == Array("1111-2222".utf8))
    #expect(afterEdit.customFields.isEmpty, "the TOTP storage field is not a field the user sees")

    // Detail view: TOTP with its countdown ring, and the icon.
    let otp = try #require(afterEdit.oneTimePassword()?.generator)
    let now: Int64 = 1_700_010_007
    #expect(otp.code(at: now).count == 6 && otp.secondsRemaining(at: now) == 23)
    #expect(!String(describing: otp).contains("JBSW"))
    #expect(database.icon(for: afterEdit).sfSymbolName == "globe")

    // Swipe to delete: the entry goes to the recycle bin and leaves the list.
    let bank = try #require(list.first { $0.entry.title == "Bank" }?.entry)
    #expect(database.deleteEntry(bank.id, clock: Self.noon, random: &random) == .movedToRecycleBin)
    #expect(!database.displayedEntries().contains { $0.entry.id == bank.id })
    session.database = database

    // Save; meanwhile another device changed the file: the app merges.
    var phone = try KDBXFile.openBlocking(bytes: fileOnDisk, key: key)
    phone.database.editEntry(bank.id, clock: Self.morning) { $0.notes = "edited on the phone" }
    session.storage.bytes = try KDBXFile.saveBlocking(phone.database, key: key, settings: SaveSettings(keeping: phone))
    do {
      try session.save()
      Issue.record("the save should have seen the other device's change")
    } catch {
      #expect(error == .changedOnDisk)
    }
    let outcome = try session.save(onConflict: .merge(.threeWay(now: Self.noon.time)))
    guard case .merged = outcome else {
      Issue.record("expected a merge, got \(outcome)")
      return
    }
    let merged = try #require(session.database)
    #expect(merged.entry(withUUID: bank.id)?.notes == "edited on the phone")
    #expect(merged.isInRecycleBin(entry: bank.id), "the local delete and the remote edit both survive")
    #expect(merged.flatEntries.contains { $0.entry.title == "Forum" })

    // AutoFill extension: no KDF, with the transformed key the app cached in the keychain.
    let savedFile = try #require(session.storage.bytes)
    let cached = try #require(try KDBXFile.openBlocking(bytes: savedFile, key: key).cachedKey)
    let extensionView = try KDBXFile.open(bytes: savedFile, cachedKey: cached)
    let candidates = extensionView.database.matchCandidates(now: Self.noon.time)
    let request = try #require(ServiceIdentifier("https://github.com/session"))
    let best = try #require(CredentialMatcher().match(request, in: candidates).matches.first)
    let filled = try #require(extensionView.database.entry(withUUID: best.id))
    #expect(filled.userName == "octocat-work" && filled.password == "correct horse battery staple")
    #expect(!candidates.contains { $0.id == bank.id }, "the recycle bin is never offered")
    #expect(!String(describing: extensionView).contains(cached.serialized.map { String($0) }.joined(separator: ", ")))

    // Background: lock drops the database and the keys.
    session.lock()
    #expect(session.isLocked && session.database == nil)
    try session.unlock(key: key)
    #expect(session.database?.flatEntries.count == merged.flatEntries.count)
  }
}
