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

  /// One vault file that the app, its AutoFill extension and another device all read and write (iCloud Drive in
  /// the app; here, bytes in memory with a version that every write bumps). An app writes such a storage for its
  /// file provider: `VaultStorage` is public. The steps below run one after another, never at the same time.
  final class SharedFile: @unchecked Sendable {
    var bytes: [UInt8]
    var version: UInt64 = 1
    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// What another device does: replace the file.
    func replace(with bytes: [UInt8]) {
      self.bytes = bytes
      version += 1
    }
  }

  struct SharedStorage: VaultStorage {
    let file: SharedFile
    mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) { (file.bytes, file.version) }
    mutating func write(_ bytes: [UInt8], replacing expected: UInt64?) throws(VaultStorageError) -> UInt64 {
      guard expected == nil || expected == file.version else { throw .changedSinceRead(location: "vault.kdbx") }
      file.replace(with: bytes)
      return file.version
    }
  }

  /// Argon2id with 2 MiB, a small stand-in for KeePassXC's 64 MiB (the test stays fast); the extension's budget
  /// below is 1 MiB, as 50 MB is below 64 MiB: the extension cannot run the KDF and must use the cached key.
  static func argon(salt: UInt8) -> SaveSettings {
    SaveSettings(
      version: .v4_0,
      kdf: .argon2(
        Argon2KDFParameters(
          variant: .id, iterations: 1, memoryBytes: 2 << 20, parallelism: 1,
          salt: [UInt8](repeating: salt, count: 32))))
  }
  static let extensionBudget: VaultSessionOptions = {
    var load = LoadOptions.default
    load.availableMemoryBytes = 1 << 20
    return VaultSessionOptions(load: load)
  }()

  /// The rest of the day: the app unlocks and caches the key; the AutoFill extension fills and saves from the
  /// cached key under its memory budget; another device saves with a new KDF seed, the cached key turns stale,
  /// and the app's next unlock hands out a new one; a TOTP is set inside `update`; errors map to alerts.
  @Test func theExtensionsDay() async throws {
    var random = SplitMix64(seed: 2027)
    let key = CompositeKey(password: "family vault")
    let initial = try Self.initialVault(random: &random)
    let file = SharedFile(try await KDBXFile.save(initial, key: key, settings: Self.argon(salt: 1)))

    // App, unlock screen: open with the password once; the session hands out the key to keep in the Keychain.
    let app = try await VaultSession.open(storage: SharedStorage(file: file), key: key)
    var keychain = try #require(await app.cachedKey).serialized

    // AutoFill extension: the KDF does not fit its memory, the cached key does.
    do {
      _ = try await VaultSession.open(storage: SharedStorage(file: file), key: key, options: Self.extensionBudget)
      Issue.record("the KDF should not fit the extension's budget")
    } catch {
      #expect(error.category == .tooLarge)
    }
    let fromExtension = try await VaultSession.open(
      storage: SharedStorage(file: file), cachedKey: CachedVaultKey(serialized: keychain),
      options: Self.extensionBudget)
    let extensionDatabase = try #require(await fromExtension.database)
    let candidates = extensionDatabase.matchCandidates(now: Self.noon.time)
    let request = try #require(ServiceIdentifier("https://github.com/session"))
    let best = try #require(CredentialMatcher().match(request, in: candidates).matches.first)
    let filled = try #require(extensionDatabase.entry(withUUID: best.id))
    #expect(filled.userName == "octocat" && filled.password.reveal() == "correct horse battery staple")

    // The extension saves a login the user just made on a web page: no KDF, and the key stays valid.
    var login = Entry.new(clock: Self.noon, random: &random)
    login.title = "Shop"
    login.url = "https://shop.example"
    let newLogin = login
    try await fromExtension.update { database in
      if let root = database.root?.uuid { database.addEntry(newLogin, to: root) }
    }
    #expect(try await fromExtension.save() == .saved)
    let afterExtension = try await VaultSession.open(
      storage: SharedStorage(file: file), cachedKey: CachedVaultKey(serialized: keychain),
      options: Self.extensionBudget)
    #expect(await afterExtension.database?.entry(withUUID: login.uuid)?.title == "Shop")

    // App, back in front: its save sees the extension's and merges; a TOTP is set inside `update`.
    let github = try #require(await app.database?.flatEntries.first { $0.entry.title == "GitHub" }?.entry.uuid)
    let totp = try OTPAuthURI.parse("otpauth://totp/GitHub:octocat?secret=GEZDGNBVGY3TQOJQ&issuer=GitHub")
    try await app.update { database throws(OTPFormatError) in
      var random = SystemRandomNumberGenerator()
      try database.editEntry(github, clock: Self.noon) { entry throws(OTPFormatError) in
        try entry.setOneTimePassword(totp, random: &random)
      }
    }
    do {
      try await app.save()
      Issue.record("the app's save should have seen the extension's")
    } catch {
      #expect(error == .changedOnDisk && error.category == .changedOnDisk)
    }
    _ = try await app.save(onConflict: .merge(.threeWay(now: Self.noon.time)))
    let merged = try #require(await app.database)
    #expect(merged.entry(withUUID: login.uuid)?.title == "Shop")
    #expect(merged.entry(withUUID: github)?.oneTimePassword()?.generator.code(at: 59) == totp.generator.code(at: 59))
    #expect(merged.entry(withUUID: github)?.customFields.isEmpty == true, "TOTP storage is not a field to show")
    #expect(try #require(await app.cachedKey).serialized == keychain, "the same KDF seed: the cached key still opens")

    // Another device (KeePassXC on a laptop) saves: a new KDF seed, so the cached key is stale, not wrong.
    let laptop = try await KDBXFile.open(bytes: file.bytes, key: key)
    file.replace(with: try await KDBXFile.save(laptop.database, key: key, settings: Self.argon(salt: 2)))
    let stale = try CachedVaultKey(serialized: keychain)
    do throws(VaultSessionError) {
      _ = try await VaultSession.open(
        storage: SharedStorage(file: file), cachedKey: stale, options: Self.extensionBudget)
      Issue.record("a cached key for the old KDF seed should be stale")
    } catch {
      #expect(error == .kdbx(.cachedKeyIsStale) && error.category == .staleCachedKey)
    }

    // The extension asks the user to open the app; the app reloads with its key material and hands out a new key.
    var updates = await app.cachedKeyUpdates().makeAsyncIterator()
    _ = await updates.next()  // the current key first
    try await app.reload()
    let renewed = try #require(await updates.next() ?? nil)
    #expect(renewed.serialized != keychain)
    keychain = renewed.serialized
    let again = try await VaultSession.open(
      storage: SharedStorage(file: file), cachedKey: CachedVaultKey(serialized: keychain),
      options: Self.extensionBudget)
    #expect(await again.database?.entry(withUUID: login.uuid)?.title == "Shop")

    // Alerts: each failure answers one question.
    do {
      _ = try await VaultSession.open(storage: SharedStorage(file: file), key: CompositeKey(password: "typo"))
      Issue.record("a wrong password should fail")
    } catch {
      #expect(error.category == .wrongKey)
    }
    var damaged = file.bytes
    damaged[damaged.count / 2] ^= 0x40
    do {
      _ = try await VaultSession.open(storage: SharedStorage(file: SharedFile(damaged)), key: key)
      Issue.record("a damaged file should fail")
    } catch {
      #expect(error.category == .damaged)
    }
    await app.lock()
    #expect(await app.cachedKey == nil, "lock wipes the key material")
  }
}
