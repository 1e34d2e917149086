import Foundation
import KDBX
import KDBXCompression
import Testing
import VectorSupport

/// `kdbx import` of Bitwarden JSON and 1Password .1pux exports, end to end: the entries read back field by field with
/// the library, and the bounds of the JSON reader and the zip reader (each refusal exits 1 and writes nothing).
@Suite(.enabled(if: CLI.available)) struct CLIForeignImportTests {
  static let key = CompositeKey(password: "imp")

  /// Imports `bytes` (written to a new file) and returns the result and the output path.
  static func importing(_ bytes: [UInt8], name: String) throws -> (result: CLI.Result, out: String) {
    let directory = try TestScratch.directory("import")
    let source = directory + "/" + name
    try Data(bytes).write(to: URL(fileURLWithPath: source))
    let out = directory + "/out.kdbx"
    let result = try CLI.run(["import", source, out, "--kdf", "aes-kdf", "--rounds", "1000"], input: "imp\n")
    return (result, out)
  }

  /// Expects the import of `bytes` to fail with exit 1, a message matching `expected`, and no file written.
  static func refused(_ bytes: [UInt8], name: String = "in.json", _ expected: String) throws {
    let (result, out) = try importing(bytes, name: name)
    #expect(result.status == 1, "\(result.out)\(result.err)")
    #expect(result.err.contains(expected), "\(result.err)")
    #expect(!FileManager.default.fileExists(atPath: out))
  }

  static func entries(_ path: String) throws -> [String: FlatEntry] {
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    let database = try KDBXFile.openBlocking(bytes: bytes, key: key).database
    return Dictionary(database.flatEntries.map { ($0.entry[field: "Title"]?.reveal() ?? "", $0) }) { a, _ in a }
  }

  @Test func bitwardenFieldByField() throws {
    let json = #"""
      {"encrypted": false, "folders": [{"id": "f1", "name": "Web/Dev"}],
       "items": [
        {"id": "a", "folderId": "f1", "type": 1, "name": "Git\u0048ub", "notes": "n1\nn2", "favorite": false,
         "fields": [{"name": "Pin", "value": "42", "type": 1}, {"name": "Team", "value": "core", "type": 0},
                    {"name": "On", "value": "true", "type": 2}],
         "login": {"uris": [{"uri": "https://one"}, {"uri": "https://two"}, {"uri": "https://three"}],
                   "username": "octo", "password": "pa\"ss\\", "totp": "JBSWY3DPEHPK3PXP"},
         "passwordHistory": [{"lastUsedDate": "2022-02-02T00:00:00.000Z", "password": "second"},
                             {"lastUsedDate": "2021-01-01T00:00:00.000Z", "password": "first"}],
         "creationDate": "2023-01-02T03:04:05.000Z", "revisionDate": "2024-05-01T10:00:00.000Z"},
        {"id": "b", "folderId": null, "type": 3, "name": "Card",
         "card": {"cardholderName": "Ada", "number": "4111", "code": "123", "expMonth": "1", "expYear": "2030"}},
        {"id": "c", "folderId": null, "type": 2, "name": "Note \ud83d\udd11", "notes": "secret note",
         "secureNote": {"type": 0}}
       ]}
      """#
    let (result, out) = try Self.importing(Array(json.utf8), name: "bw.json")
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("(Bitwarden JSON: 3 entries in 2 groups; nothing skipped)"), "\(result.out)")
    let entries = try Self.entries(out)
    let github = try #require(entries["GitHub"])
    #expect(github.groupPath == ["Web", "Dev"])
    func fields(_ name: String) -> FieldValue? { github.entry[field: name] }
    #expect(fields("UserName")?.reveal() == "octo")
    #expect(fields("Password")?.reveal() == "pa\"ss\\")
    #expect(fields("Password")?.isProtected == true)
    #expect(fields("URL")?.reveal() == "https://one")
    #expect(fields("KP2A_URL_1")?.reveal() == "https://two")
    #expect(fields("KP2A_URL_2")?.reveal() == "https://three")
    #expect(fields("Notes")?.reveal() == "n1\nn2")
    #expect(fields("Pin")?.reveal() == "42")
    #expect(fields("Pin")?.isProtected == true)
    #expect(fields("Team")?.isProtected == false)
    #expect(fields("On")?.reveal() == "true")
    #expect(
      fields("otp")?.reveal() == "otpauth://totp/GitHub?secret=JBSWY3DPEHPK3PXP&period=30&digits=6&algorithm=SHA1")
    #expect(github.entry.times?.creationTime == ISO8601.parse("2023-01-02T03:04:05Z"))
    #expect(github.entry.times?.lastModificationTime == ISO8601.parse("2024-05-01T10:00:00Z"))
    // The password history: oldest first, each version with the old password and the time it was replaced.
    let history = github.entry.history ?? []
    #expect(history.map { $0[field: "Password"]?.reveal() } == ["first", "second"])
    #expect(history.first?.times?.lastModificationTime == ISO8601.parse("2021-01-01T00:00:00Z"))
    #expect(history.allSatisfy { $0.uuid == github.entry.uuid && $0[field: "UserName"]?.reveal() == "octo" })
    let cardEntry = try #require(entries["Card"]).entry
    func card(_ name: String) -> FieldValue? { cardEntry[field: name] }
    #expect(card("Cardholder Name")?.reveal() == "Ada")
    #expect(card("Number")?.reveal() == "4111")
    #expect(card("Number")?.isProtected == true)
    #expect(card("Security Code")?.isProtected == true)
    #expect(card("Expiry Year")?.reveal() == "2030")
    #expect(try #require(entries["Note 🔑"]).entry[field: "Notes"]?.reveal() == "secret note")
  }

  // MARK: Group depth, repeated names

  /// A Bitwarden folder of 5,000 '/'-separated parts (a 29 KB file) made a group tree whose save crashed the tool
  /// with a stack overflow; 100,000 parts passed 4 GiB. The library's cap on group nesting (496, the root counting
  /// as 1) now refuses both before the password is asked for, and a tree at the cap imports and opens.
  @Test func bitwardenFolderDepthIsCapped() throws {
    func export(parts: Int) -> [UInt8] {
      let folder = (0..<parts).map { "f\($0)" }.joined(separator: "/")
      return Array(
        (#"{"encrypted": false, "folders": [{"id": "f", "name": ""# + folder + #""}], "items": ["#
          + #"{"id": "i", "type": 1, "name": "Deep", "folderId": "f", "login": {"username": "u"}}]}"#).utf8)
    }
    try Self.refused(export(parts: 5_000), "group nesting depth 5001 exceeds the limit 496")
    try Self.refused(export(parts: 100_000), "group nesting depth 100001 exceeds the limit 496")
    try Self.refused(export(parts: 496), "group nesting depth 497 exceeds the limit 496")
    let (result, out) = try Self.importing(export(parts: 495), name: "deep.json")
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("1 entry in 495 groups"), "\(result.out)")
    let deep = try #require(try Self.entries(out)["Deep"])
    #expect(deep.groupPath.count == 495)
    #expect(deep.groupPath.last == "f494")
  }

  /// Repeated custom field names get " (2)", " (3)"... also when a suffixed name is taken already, and thousands
  /// of them import (they took over 30 s when each candidate name was looked up field by field).
  @Test func repeatedFieldNamesGetTheNextFreeSuffix() throws {
    let names = ["x", "x (3)", "x", "x", "x"] + [String](repeating: "y", count: 4_000)
    let fields = names.enumerated().map { #"{"name": ""# + $0.element + #"", "value": "v\#($0.offset)", "type": 0}"# }
    let json =
      #"{"encrypted": false, "items": [{"id": "i", "type": 1, "name": "Fields", "login": {}, "fields": ["#
      + fields.joined(separator: ", ") + "]}]}"
    let (result, out) = try Self.importing(Array(json.utf8), name: "fields.json")
    #expect(result.status == 0, "\(result.err)")
    let entry = try #require(try Self.entries(out)["Fields"]).entry
    #expect(entry[field: "x"]?.reveal() == "v0")
    #expect(entry[field: "x (3)"]?.reveal() == "v1")
    #expect(entry[field: "x (2)"]?.reveal() == "v2")
    #expect(entry[field: "x (4)"]?.reveal() == "v3")
    #expect(entry[field: "x (5)"]?.reveal() == "v4")
    #expect(entry[field: "y"]?.reveal() == "v5")
    #expect(entry[field: "y (4000)"]?.reveal() == "v4004")
    #expect(entry.fields.count == 5 + 5 + 4_000)
  }

  // MARK: JSON bounds

  @Test func jsonDepthBomb() throws {
    // 64 levels are read (items that are arrays are skipped, not refused); 65 are not, however long the text.
    let ok = #"{"items": "# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
    let (result, _) = try Self.importing(Array(ok.utf8), name: "ok.json")
    #expect(result.status == 0, "\(result.err)")
    let deep = #"{"items": "# + String(repeating: "[", count: 64) + String(repeating: "]", count: 64) + "}"
    try Self.refused(Array(deep.utf8), "nested more than 64 levels deep")
    try Self.refused(Array((#"{"items": "# + String(repeating: "[", count: 1_000_000)).utf8), "nested more than 64")
  }

  @Test func jsonHugeNumbers() throws {
    // A number too large for any integer type is a JSON number (read as text; the item's type is then unknown).
    let big = #"{"items": [{"type": 1e999999999, "name": "x"}, {"type": 123456789012345678901234567890}]}"#
    let (result, _) = try Self.importing(Array(big.utf8), name: "big.json")
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out.contains("0 entries in 0 groups; skipped:\n  items without a type: 2 ('x', item 2)"), "\(result.out)")
    try Self.refused(
      Array(("{\"items\": [" + String(repeating: "9", count: 65) + "]}").utf8), "a number of 65 characters")
    try Self.refused(Array(#"{"items": [01]}"#.utf8), "a number may not start with 0")
    try Self.refused(Array(#"{"items": [1.]}"#.utf8), "a number needs digits after '.'")
    try Self.refused(Array(#"{"items": [-]}"#.utf8), "a number needs digits")
  }

  @Test func jsonValueCountBounded() throws {
    // 4,000,001 values (about 8 MB of "0,") are refused.
    let more = "{\"items\": [" + String(repeating: "0,", count: 3_999_998) + "0]}"
    try Self.refused(Array(more.utf8), "more than 4000000 values")
    // What was skipped is one line per kind, with its count and first three items.
    let skipped = "{\"items\": [" + String(repeating: "0,", count: 59) + "0]}"
    let (result, _) = try Self.importing(Array(skipped.utf8), name: "skipped.json")
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("skipped:\n  items without a type: 60 (item 1, item 2, item 3, ...)"), "\(result.out)")
  }

  @Test func jsonTruncatedAtEveryByte() throws {
    let whole = Array(#"{"items": [{"type": 1, "name": "A\u00e9", "login": {"uris": [], "x": true}}]}"#.utf8)
    for length in stride(from: 1, to: whole.count, by: 7) {
      try Self.refused(Array(whole[..<length]), ": not valid JSON: line 1, column")
    }
  }

  @Test func jsonInvalidUTF8AndEscapes() throws {
    try Self.refused(Array(#"{"items": [], "x": ""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8), "not valid UTF-8")
    try Self.refused(Array(#"{"items": [], "x": ""#.utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8), "not valid UTF-8")
    try Self.refused(Array(#"{"items": [], "x": "\ud800"}"#.utf8), "high surrogate without its low surrogate")
    try Self.refused(Array(#"{"items": [], "x": "\udc00"}"#.utf8), "lone low surrogate")
    try Self.refused(Array(#"{"items": [], "x": "\x41"}"#.utf8), "an invalid escape '\\x'")
    try Self.refused(Array(#"{"items": [], "x": "\u12"}"#.utf8), "four hex digits")
    try Self.refused(Array("{\"items\": [], \"x\": \"a\tb\"}".utf8), "a control character (0x09)")
    try Self.refused(Array(#"{"items": [] } x"#.utf8), "text after the end of the JSON value")
    try Self.refused(Array(#"{"items": [tru]}"#.utf8), "invalid literal (expected true)")
    try Self.refused(Array("{\"items\": [],\n  \"x\" 1}".utf8), "line 2, column 7 (byte 20): expected ':'")
  }

  // MARK: Zip bounds

  static let exportData = Array(
    #"{"accounts": [{"attrs": {"name": "A"}, "vaults": [{"attrs": {"name": "V"}, "items": [{"categoryUuid": "005", "details": {"password": "p"}, "overview": {"title": "T"}}]}]}]}"#
      .utf8)

  @Test func zipReadsStoredAndDeflated() throws {
    for deflate in [false, true] {
      let (result, out) = try Self.importing(
        ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: Self.exportData, deflate: deflate)]),
        name: "a.1pux")
      #expect(result.status == 0, "\(result.err)")
      #expect(try Self.entries(out)["T"]?.entry[field: "Password"]?.reveal() == "p")
    }
  }

  @Test func zipBombs() throws {
    // 8 MiB of zeros deflate to about 8 KiB; the directory says 100 bytes: inflation stops there.
    let zeros = [UInt8](repeating: 0, count: 8 << 20)
    try Self.refused(
      ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: zeros, declaredSize: 100)]), name: "bomb.1pux",
      "inflates to more than its declared 100 bytes")
    // A declared size over the member limit is refused before anything is inflated.
    try Self.refused(
      ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: Self.exportData, declaredSize: 600 << 20)]),
      name: "big.1pux",
      "over the limit of 536870912")
    // Members claiming more than 1 GiB in all.
    let many = (0..<3).map { ZipBuilder.Member(name: "files/\($0)", data: [1], declaredSize: 400 << 20) }
    try Self.refused(ZipBuilder.archive(many), name: "many.1pux", "more than 1073741824 bytes in all")
    // Two directory entries pointing at the same data (the overlapping-file bomb).
    try Self.refused(
      ZipBuilder.archive(
        [
          ZipBuilder.Member(name: "export.data", data: Self.exportData),
          ZipBuilder.Member(name: "files/x", data: Self.exportData),
        ],
        overlapSecond: true), name: "overlap.1pux", "overlap (a zip bomb?)")
  }

  @Test func zipDamage() throws {
    let good = ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: Self.exportData)])
    try Self.refused(Array(good.dropLast(1)), name: "cut.1pux", "no end of central directory record")
    try Self.refused(
      ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: Self.exportData, crc: 1)]), name: "crc.1pux",
      "fails its CRC-32 check")
    try Self.refused(
      ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: Self.exportData, flags: 1)]), name: "enc.1pux",
      "is encrypted")
    try Self.refused(
      ZipBuilder.archive([ZipBuilder.Member(name: "export.data", data: Self.exportData, method: 12)]), name: "bz.1pux",
      "compression method 12")
    try Self.refused(
      ZipBuilder.archive([
        ZipBuilder.Member(name: "export.data", data: Self.exportData, declaredSize: Self.exportData.count + 1)
      ]),
      name: "short.1pux", "inflates to \(Self.exportData.count) bytes, not its declared")
    var damaged = good
    damaged[45] ^= 0xFF  // inside the deflate stream
    try Self.refused(damaged, name: "bits.1pux", "export.data")
    try Self.refused(
      ZipBuilder.archive([ZipBuilder.Member(name: "other", data: [1])]), name: "no.1pux", "without export.data")
    // The local header offset points past the directory.
    var moved = good
    let end = moved.count - 22
    let directory = Int(moved[end + 16]) | Int(moved[end + 17]) << 8
    moved[directory + 42] = 0xFF
    moved[directory + 43] = 0xFF
    try Self.refused(moved, name: "moved.1pux", "local header of 'export.data' is missing or outside the archive")
  }
}
