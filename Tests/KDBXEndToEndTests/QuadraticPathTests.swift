import KDBX
import Testing

/// Issue #19 item 9: `kdbx edit` on an entry with 20,000 history items and `kdbx show` of an entry with 20,000
/// custom fields ran in quadratic time (debug build, shared machine: edit killed after 60 s, show 24-59 s; now
/// about 5-10 s and 0.3-2 s, most of it opening the file). Each runs under the hard timeout of `HostileVaultHarness`
/// (the child is killed after 60 s, 15 s for show); a bound against runaway work, not a speed measurement.
@Suite("Quadratic paths", .enabled(if: HostileVaultHarness.available), .timeLimit(.minutes(3)))
struct QuadraticPathTests {
  static let count = 20_000
  static let password = "quadratic"

  /// One entry "Entry" in the root, with `historyCount` history items (one minute apart) and `fieldCount` custom
  /// fields, in a vault that keeps KeePass's default of 10 history items; AES-KDF with few rounds.
  static func vault(historyCount: Int, fieldCount: Int) throws -> [UInt8] {
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "quadratic", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry[field: Entry.titleField] = .plain("Entry")
    for index in 0..<fieldCount {
      entry.fields.append(EntryField(key: "Field \(index)", value: .plain("value \(index)")))
    }
    var history: [Entry] = []
    for index in 0..<historyCount {
      var old = entry
      old[field: Entry.userNameField] = .plain("user \(index)")
      old.times?.lastModificationTime = Timestamp(unixSeconds: 1_600_000_000 + Int64(index) * 60)
      history.append(old)
    }
    entry.history = history
    database.meta.historyMaxItems = 10
    database.meta.historyMaxSize = -1
    let root = try #require(database.root?.uuid)
    let added = database.addEntry(entry, to: root)
    #expect(added)
    let kdf = HostileVaultFile.aesKDF(rounds: 1_000)
    return try KDBXFile.saveBlocking(
      database, key: CompositeKey(password: password), settings: SaveSettings(version: .v4_0, kdf: kdf))
  }

  @Test func editOfAnEntryWithTwentyThousandHistoryItems() throws {
    let directory = try HostileVaultHarness.temporaryDirectory()
    defer { HostileVaultHarness.removeDirectory(directory) }
    let path = directory + "/history.kdbx"
    try HostileVaultHarness.writeFile(try Self.vault(historyCount: Self.count, fieldCount: 0), to: path)
    let outcome = try HostileVaultHarness.runKDBX(
      ["edit", path, "Entry", "--username", "edited"], input: Self.password + "\n", timeoutSeconds: 60)
    print("edit, \(Self.count) history items: \(outcome.summary)")
    #expect(outcome.status == 0 && !outcome.timedOut, "\(outcome.summary)")
    let bytes = try HostileVaultHarness.readFile(path)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: Self.password))
    let entry = try #require(
      opened.database.flatEntries.first { $0.entry[field: Entry.titleField]?.reveal() == "Entry" })
    #expect(entry.entry[field: Entry.userNameField]?.reveal() == "edited")
    // The newest nine old versions and the version before the edit, oldest first.
    let kept = entry.entry.history?.map { $0[field: Entry.userNameField]?.reveal() ?? "?" }
    #expect(kept == (Self.count - 9..<Self.count).map { "user \($0)" } + [""])
  }

  @Test func showOfAnEntryWithTwentyThousandCustomFields() throws {
    let directory = try HostileVaultHarness.temporaryDirectory()
    defer { HostileVaultHarness.removeDirectory(directory) }
    let path = directory + "/fields.kdbx"
    try HostileVaultHarness.writeFile(try Self.vault(historyCount: 0, fieldCount: Self.count), to: path)
    let outcome = try HostileVaultHarness.runKDBX(
      ["show", path, "Entry"], input: Self.password + "\n", timeoutSeconds: 15)
    print("show, \(Self.count) custom fields: \(outcome.summary)")
    #expect(outcome.status == 0 && !outcome.timedOut, "\(outcome.summary)")
    let lines = outcome.out.split(separator: "\n")
    #expect(lines.prefix(5) == ["Title: Entry", "UserName: ", "Password: PROTECTED", "URL: ", "Notes: "])
    try #require(lines.count == 5 + Self.count + 1, "five standard fields, the custom ones, the UUID")
    #expect(lines[5] == "Field 0: value 0")
    #expect(lines[5 + Self.count - 1] == "Field \(Self.count - 1): value \(Self.count - 1)")
  }
}
