import Foundation
import KDBX
import Testing

/// Odd but valid vaults, generated here with the library (no binary fixtures): duplicate UUIDs, a recycle bin inside
/// a group or naming the root, titles that try to drive the terminal, and unusable TOTP settings. The `kdbx`
/// binary must act on exactly the object named, lose nothing, print vault text escaped and say what is wrong
/// (issue #19, items 2, 4, 11 and 14).
enum OddVault {
  static let password = "hostile"
  static let key = CompositeKey(password: password)
  static let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  /// A cheap KDF so that debug-mode tests stay fast.
  static let settings = SaveSettings(
    version: .v4_0, cipher: .aes256, kdf: .aesKDF(AESKDFParameters(rounds: 200, seed: [UInt8](repeating: 7, count: 32)))
  )
  static let sharedEntry = uuid(0x40)
  static let sharedGroup = uuid(0x33)
  /// Bytes that a terminal acts on: an OSC title change ended by BEL, a screen clear, a carriage return.
  static let evilTitle = "Evil\u{1b}]0;pwned\u{07}\u{1b}[2J\rX"
  static let evilTitleEscaped = "Evil\\x1b]0;pwned\\x07\\x1b[2J\\rX"

  static func uuid(_ byte: UInt8) -> KDBXUUID { KDBXUUID(bytes: [UInt8](repeating: byte, count: 16)) ?? .zero }

  static func makeEntry(
    _ title: String, id: KDBXUUID? = nil, user: String = "", random: inout some RandomNumberGenerator
  )
    -> Entry
  {
    var entry = Entry.new(clock: clock, random: &random)
    if let id { entry.uuid = id }
    entry[field: Entry.titleField] = .plain(title)
    entry[field: Entry.userNameField] = .plain(user)
    return entry
  }

  static func makeGroup(_ name: String, id: KDBXUUID? = nil, random: inout some RandomNumberGenerator) -> Group {
    var group = Group.new(name: name, clock: clock, random: &random)
    if let id { group.uuid = id }
    return group
  }

  /// Writes `database` to `vault.kdbx` in a fresh temporary directory and returns the path.
  static func write(_ database: Database) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-safety-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let path = directory.appendingPathComponent("vault.kdbx").path
    try Data(try KDBXFile.saveBlocking(database, key: key, settings: settings)).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func read(_ path: String) throws -> Database {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    return try KDBXFile.openBlocking(bytes: bytes, key: key).database
  }

  static func remove(_ path: String) {
    try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent)
  }

  static func run(_ arguments: [String], _ path: String, input: String = password + "\n") throws -> CLI.Result {
    try CLI.run([arguments[0], path] + arguments.dropFirst(), input: input)
  }

  /// Root: groups A (entry E1), B (entry E2 with E1's UUID), G1 and G2 (one UUID for both).
  static func duplicates() -> Database {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Duplicates", clock: clock, random: &random)
    var a = makeGroup("A", random: &random)
    a.entries.append(makeEntry("E1", id: sharedEntry, user: "one", random: &random))
    var b = makeGroup("B", random: &random)
    b.entries.append(makeEntry("E2", id: sharedEntry, user: "two", random: &random))
    var g1 = makeGroup("G1", id: sharedGroup, random: &random)
    g1.entries.append(makeEntry("In G1", random: &random))
    var g2 = makeGroup("G2", id: sharedGroup, random: &random)
    g2.entries.append(makeEntry("In G2", random: &random))
    database.root?.groups = [a, b, g1, g2]
    return database
  }

  /// The first group named `name` directly under the root.
  static func child(_ database: Database, _ name: String) -> Group? {
    database.root?.groups.first { $0.name == name }
  }

  static func user(_ group: Group?) -> String? {
    group?.entries.first?[field: Entry.userNameField]?.reveal()
  }
}

@Suite(.enabled(if: CLI.available))
struct CLIDuplicateUUIDTests {
  @Test func editByPathChangesTheEntryAtThatPath() throws {
    let path = try OddVault.write(OddVault.duplicates())
    defer { OddVault.remove(path) }
    let result = try OddVault.run(["edit", "B/E2", "--username", "x"], path)
    #expect(result.status == 0, "\(result.err)")
    let database = try OddVault.read(path)
    #expect(OddVault.user(OddVault.child(database, "A")) == "one")
    #expect(OddVault.user(OddVault.child(database, "B")) == "x")
  }

  @Test func aDuplicatedUUIDOnTheCommandLineIsRefusedWithItsPaths() throws {
    let path = try OddVault.write(OddVault.duplicates())
    defer { OddVault.remove(path) }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let entry = OddVault.sharedEntry.description
    let group = OddVault.sharedGroup.description
    for arguments in [
      ["edit", entry, "--username", "x"], ["rm", entry], ["show", entry], ["mv", "A/E1", group], ["rmdir", group],
      ["attachment-rm", entry, "a.txt"], ["ls", group],
    ] {
      let result = try OddVault.run(arguments, path)
      #expect(result.status == 1, "\(arguments): \(result.out)")
      let paths = arguments.contains(group) ? ["'G1'", "'G2'"] : ["'A/E1'", "'B/E2'"]
      for expected in paths { #expect(result.err.contains(expected), "\(arguments): \(result.err)") }
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func removeMoveAndAttachmentsActOnTheEntryNamed() throws {
    let path = try OddVault.write(OddVault.duplicates())
    defer { OddVault.remove(path) }
    let file = (path as NSString).deletingLastPathComponent + "/note.txt"
    try Data("note".utf8).write(to: URL(fileURLWithPath: file))
    #expect(try OddVault.run(["attachment-import", "B/E2", "note.txt", file], path).status == 0)
    var database = try OddVault.read(path)
    #expect(OddVault.child(database, "A")?.entries.first?.attachments.isEmpty == true)
    #expect(OddVault.child(database, "B")?.entries.first?.attachments.map(\.name) == ["note.txt"])
    #expect(try OddVault.run(["attachment-rm", "B/E2", "note.txt"], path).status == 0)
    database = try OddVault.read(path)
    #expect(OddVault.child(database, "B")?.entries.first?.attachments.isEmpty == true)
    #expect(OddVault.child(database, "B")?.entries.first?.history?.count == 2)
    #expect(OddVault.child(database, "A")?.entries.first?.history ?? [] == [])
    #expect(try OddVault.run(["mv", "B/E2", "G2"], path).status == 0)
    database = try OddVault.read(path)
    #expect(OddVault.child(database, "A")?.entries.count == 1)
    #expect(
      OddVault.child(database, "G2")?.entries.map { $0[field: Entry.titleField]?.reveal() } == ["In G2", "E2"])
    let removed = try OddVault.run(["rm", "G2/E2"], path)
    #expect(removed.status == 0, "\(removed.err)")
    database = try OddVault.read(path)
    #expect(OddVault.user(OddVault.child(database, "A")) == "one")
    #expect(OddVault.user(OddVault.child(database, "Recycle Bin")) == "two")
  }

  @Test func groupCommandsActOnTheGroupNamed() throws {
    let path = try OddVault.write(OddVault.duplicates())
    defer { OddVault.remove(path) }
    #expect(try OddVault.run(["mkdir", "G2/Sub"], path).status == 0)
    #expect(try OddVault.run(["add", "G2/Added"], path).status == 0)
    var database = try OddVault.read(path)
    #expect(OddVault.child(database, "G1")?.groups.isEmpty == true)
    #expect(OddVault.child(database, "G1")?.entries.count == 1)
    #expect(OddVault.child(database, "G2")?.groups.map(\.name) == ["Sub"])
    #expect(OddVault.child(database, "G2")?.entries.count == 2)
    let removed = try OddVault.run(["rmdir", "G2"], path)
    #expect(removed.status == 0, "\(removed.err)")
    database = try OddVault.read(path)
    #expect(OddVault.child(database, "G1") != nil)
    #expect(OddVault.child(database, "G2") == nil)
    #expect(OddVault.child(database, "Recycle Bin")?.groups.map(\.name) == ["G2"])
    // verify still reports the duplicates.
    let verify = try OddVault.run(["verify"], path)
    #expect(verify.status == 1)
    #expect(verify.out.contains("group UUID \(OddVault.sharedGroup) is used more than once"))
    #expect(verify.out.contains("UUID \(OddVault.sharedEntry) is used more than once"))
  }
}

@Suite(.enabled(if: CLI.available))
struct CLIRecycleBinTests {
  @Test func rmdirOfAGroupHoldingTheBinLosesNothing() throws {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Bin", clock: OddVault.clock, random: &random)
    var a = OddVault.makeGroup("A", random: &random)
    a.entries.append(OddVault.makeEntry("Keep", random: &random))
    var bin = OddVault.makeGroup("Recycle Bin", random: &random)
    bin.entries.append(OddVault.makeEntry("Old", random: &random))
    a.groups.append(bin)
    database.root?.groups = [a]
    database.meta.recycleBinEnabled = true
    database.meta.recycleBinUUID = bin.uuid
    let path = try OddVault.write(database)
    defer { OddVault.remove(path) }
    let result = try OddVault.run(["rmdir", "A"], path)
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("Moved group A to the recycle bin"))
    #expect(!result.out.contains("permanently"))
    let after = try OddVault.read(path)
    #expect(after.deletedObjects ?? [] == [])
    #expect(after.root?.groups.map(\.uuid) == [bin.uuid])
    #expect(Set(after.flatEntries.map { $0.entry[field: Entry.titleField]?.reveal() ?? "" }) == ["Keep", "Old"])
    #expect(after.flatEntries.allSatisfy { $0.isInRecycleBin })
    #expect(try OddVault.run(["verify"], path).status == 0)
  }

  @Test func aRecycleBinNamingTheRootIsReportedAndNeverUsed() throws {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Root bin", clock: OddVault.clock, random: &random)
    var a = OddVault.makeGroup("A", random: &random)
    a.entries.append(OddVault.makeEntry("Entry", random: &random))
    database.root?.groups = [a]
    database.meta.recycleBinEnabled = true
    database.meta.recycleBinUUID = database.root?.uuid
    let path = try OddVault.write(database)
    defer { OddVault.remove(path) }
    let verify = try OddVault.run(["verify"], path)
    #expect(verify.status == 1)
    #expect(verify.out.contains("names the root group"))
    let removed = try OddVault.run(["rm", "A/Entry"], path)
    #expect(removed.status == 0, "\(removed.err)")
    #expect(removed.out.contains("Moved entry A/Entry to the recycle bin"))
    #expect(removed.err.contains("named the root group"))
    let after = try OddVault.read(path)
    #expect(after.deletedObjects ?? [] == [])
    let bin = try #require(after.recycleBinGroupUUID)
    #expect(bin != after.root?.uuid)
    #expect(OddVault.child(after, "Recycle Bin")?.entries.count == 1)
    #expect(try OddVault.run(["verify"], path).status == 0)
  }
}

@Suite(.enabled(if: CLI.available))
struct CLITerminalEscapeTests {
  /// Characters a terminal acts on, none of which may reach standard output or error raw.
  static let raw: [Character] = ["\u{1b}", "\u{07}", "\r", "\u{7f}", "\u{9b}", "\u{202e}"]

  static func vault() throws -> String {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "DB\u{7f}\u{9b}2J", clock: OddVault.clock, random: &random)
    // C1 and bidi controls survive XML; ESC does not, so the title, notes and a custom field are protected values
    // (stored encrypted, any bytes).
    var group = OddVault.makeGroup("Grp\u{9b}31m\u{202e}gpj.exe", random: &random)
    var entry = OddVault.makeEntry("Plain", random: &random)
    entry[field: Entry.titleField] = .protected(ProtectedValue(OddVault.evilTitle, using: &random))
    entry[field: Entry.notesField] = .protected(ProtectedValue("line1\nline2\u{1b}[31m", using: &random))
    entry[field: Entry.userNameField] = .plain("user\u{9b}\n")
    entry[field: "Memo"] = .protected(ProtectedValue("\u{1b}]52;c;aGk=\u{07}", using: &random))
    entry.attachments = [database.makeAttachment(name: "file\u{9b}.txt", data: Array("x".utf8))]
    group.entries.append(entry)
    database.root?.groups = [group]
    return try OddVault.write(database)
  }

  static func expectEscaped(_ result: CLI.Result, _ label: String) {
    #expect(result.status == 0, "\(label): \(result.err)")
    for character in raw {
      #expect(
        !result.out.contains(character),
        "\(label) printed U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16)) raw")
      #expect(
        !result.err.contains(character),
        "\(label) printed U+\(String(character.unicodeScalars.first?.value ?? 0, radix: 16)) raw on stderr")
    }
  }

  @Test func plainTextOutputEscapesControlCharacters() throws {
    let path = try Self.vault()
    defer { OddVault.remove(path) }
    let group = "Grp\u{9b}31m\u{202e}gpj.exe"
    let entry = group + "/" + OddVault.evilTitle
    let list = try OddVault.run(["ls", "-R"], path)
    Self.expectEscaped(list, "ls -R")
    #expect(list.out == "Grp\\u{9b}31m\\u{202e}gpj.exe/\n  \(OddVault.evilTitleEscaped)\n")
    let flat = try OddVault.run(["ls", group, "--flatten"], path)
    Self.expectEscaped(flat, "ls --flatten")
    let search = try OddVault.run(["search", "pwned"], path)
    Self.expectEscaped(search, "search")
    #expect(search.out == "Grp\\u{9b}31m\\u{202e}gpj.exe/\(OddVault.evilTitleEscaped)\n")
    let show = try OddVault.run(["show", entry, "-s"], path)
    Self.expectEscaped(show, "show -s")
    #expect(show.out.contains("Title: \(OddVault.evilTitleEscaped)\n"))
    #expect(show.out.contains("UserName: user\\u{9b}\\n\n"))
    #expect(show.out.contains("Notes: line1\nline2\\x1b[31m\n"))
    #expect(show.out.contains("Memo: \\x1b]52;c;aGk=\\x07\n"))
    #expect(show.out.contains("  file\\u{9b}.txt (1 bytes)\n"))
    let attribute = try OddVault.run(["show", entry, "-a", "Title"], path)
    Self.expectEscaped(attribute, "show -a")
    let info = try OddVault.run(["info"], path)
    Self.expectEscaped(info, "info")
    #expect(info.out.contains("Name:            DB\\x7f\\u{9b}2J\n"))
    let missing = try OddVault.run(["show", group + "/Nope\u{1b}[2J"], path)
    #expect(missing.status == 1)
    #expect(!missing.err.contains("\u{1b}"))
  }

  /// Reports list vault paths one per line: a title holding a line feed and a tab could forge a report line
  /// ("Bank\n  Fake/Line: strong, 128 bits") in `analyze`; it is now escaped as `show` escapes it.
  @Test func reportLinesCannotBeForged() throws {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Reports", clock: OddVault.clock, random: &random)
    var entry = OddVault.makeEntry("Bank\n  Fake/Line: strong, 128 bits\tX", random: &random)
    entry[field: Entry.passwordField] = .protected(ProtectedValue("letmein", using: &random))
    database.root?.entries.append(entry)
    let path = try OddVault.write(database)
    defer { OddVault.remove(path) }
    let result = try OddVault.run(["analyze"], path)
    #expect(result.status == 0, "\(result.err)")
    let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(!lines.contains { $0.hasPrefix("  Fake/Line") }, "\(result.out)")
    #expect(!result.out.contains("\t"), "\(result.out)")
    #expect(result.out.contains("  Bank\\n  Fake/Line: strong, 128 bits\\tX: very weak"), "\(result.out)")
  }

  @Test func jsonAndExportStayExact() throws {
    let path = try Self.vault()
    defer { OddVault.remove(path) }
    let entry = "Grp\u{9b}31m\u{202e}gpj.exe/" + OddVault.evilTitle
    let show = try OddVault.run(["show", entry, "-s", "--json"], path)
    Self.expectEscaped(show, "show --json")
    let object = try JSONSerialization.jsonObject(with: Data(show.out.utf8)) as? [String: Any]
    let fields = object?["fields"] as? [String: String]
    #expect(fields?["Title"] == OddVault.evilTitle)
    #expect(fields?["Memo"] == "\u{1b}]52;c;aGk=\u{07}")
    #expect(object?["groupPath"] as? [String] == ["Grp\u{9b}31m\u{202e}gpj.exe"])
    let list = try OddVault.run(["ls", "-R", "--json"], path)
    Self.expectEscaped(list, "ls --json")
    let export = try OddVault.run(["export", "--format", "json"], path)
    #expect(export.status == 0, "\(export.err)")
    let document = try JSONSerialization.jsonObject(with: Data(export.out.utf8)) as? [String: Any]
    let entries = document?["entries"] as? [[String: Any]]
    #expect(entries?.first?["title"] as? String == OddVault.evilTitle)
    #expect((document?["meta"] as? [String: Any])?["name"] as? String == "DB\u{7f}\u{9b}2J")
    // CSV is data: exact, quoted.
    let csv = try OddVault.run(["export", "--format", "csv"], path)
    #expect(csv.status == 0, "\(csv.err)")
    #expect(csv.out.contains("\"" + OddVault.evilTitle + "\""))
  }
}

@Suite(.enabled(if: CLI.available))
struct CLIInvalidTOTPTests {
  @Test func invalidTOTPSettingsSayWhatIsWrong() throws {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "TOTP", clock: OddVault.clock, random: &random)
    var period = OddVault.makeEntry("Period", random: &random)
    period[field: "TOTP Seed"] = .protected(ProtectedValue("JBSWY3DPEHPK3PXP", using: &random))
    period[field: "TOTP Settings"] = .plain("0;6")
    var digits = OddVault.makeEntry("Digits", random: &random)
    digits[field: "TimeOtp-Secret-Base32"] = .protected(ProtectedValue("JBSWY3DPEHPK3PXP", using: &random))
    digits[field: "TimeOtp-Length"] = .plain("99")
    let none = OddVault.makeEntry("None", random: &random)
    database.root?.entries = [period, digits, none]
    let path = try OddVault.write(database)
    defer { OddVault.remove(path) }
    let badPeriod = try OddVault.run(["totp", "Period"], path)
    #expect(badPeriod.status == 1)
    #expect(badPeriod.err.contains("period 0 s (must be 1-86400)"), "\(badPeriod.err)")
    #expect(badPeriod.err.contains("'TOTP Seed' and 'TOTP Settings'"), "\(badPeriod.err)")
    #expect(!badPeriod.err.contains("JBSWY3DPEHPK3PXP"))
    let badDigits = try OddVault.run(["show", "Digits", "--totp"], path)
    #expect(badDigits.status == 1)
    #expect(badDigits.err.contains("99 digits (must be 6-10)"), "\(badDigits.err)")
    #expect(badDigits.err.contains("'TimeOtp-*'"), "\(badDigits.err)")
    let noTOTP = try OddVault.run(["totp", "None"], path)
    #expect(noTOTP.status == 1)
    #expect(noTOTP.err.contains("the entry has no one-time password"))
  }
}
