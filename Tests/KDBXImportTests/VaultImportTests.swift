import KDBX
import Testing
import VectorSupport

@testable import KDBXImport

/// The importers through the library's API: what each format carries over, what it reports as dropped, and what
/// it refuses (issue #39, items 3 and 5).
struct VaultImportTests {
  static let clock = FixedClock(Timestamp(secondsSince0001: 63_800_000_000))

  static func read(_ text: String, options: ImportOptions = ImportOptions()) throws(ImportError) -> ImportedDatabase {
    var random = SystemRandomNumberGenerator()
    return try VaultImport.read(Array(text.utf8), options: options, clock: clock, random: &random)
  }

  /// Every entry of the database, groups before their subgroups.
  static func entries(_ database: Database) -> [Entry] {
    var result: [Entry] = []
    var pending = database.root.map { [$0] } ?? []
    while let group = pending.popLast() {
      result += group.entries
      pending += group.groups
    }
    return result
  }

  static func value(_ entry: Entry, _ name: String) -> String? {
    switch entry[field: name] {
    case .plain(let text): return text
    case .protected(let value): return value.reveal()
    case nil: return nil
    }
  }

  static func bitwarden(items: String, folders: String = "[]") -> String {
    #"{"encrypted": false, "folders": \#(folders), "items": [\#(items)]}"#
  }

  @Test func detectsEachFormat() {
    #expect(ImportFormat.detect(Array("<?xml version=\"1.0\"?><KeePassFile/>".utf8)) == .keePassXML)
    #expect(ImportFormat.detect(Array("\u{FEFF} {\"items\": []}".utf8)) == .bitwardenJSON)
    #expect(ImportFormat.detect(Array("Title,Password\na,b\n".utf8)) == .csv)
    #expect(ImportFormat.detect(ZipBuilder.archive([])) == .onePassword1PUX)
    #expect(
      ImportFormat.detect([0x03, 0xD9, 0xA2, 0x9A, 0x65, 0xFB, 0x4B, 0xB5] + [UInt8](repeating: 0, count: 120))
        == .keePass1)
    #expect(ImportFormat.detect(Array(" \n\t".utf8)) == nil)
    #expect(ImportFormat.detect([0xFF, 0xFE, 0x00]) == nil)
  }

  @Test func customFieldNamedOTPIsKeptBesideTheTOTP() throws {
    let imported = try Self.read(
      Self.bitwarden(
        items:
          #"{"type": 1, "name": "Site", "login": {"totp": "JBSWY3DPEHPK3PXP"}, "fields": [{"name": "otp", "value": "mine", "type": 0}]}"#
      ))
    let entry = try #require(Self.entries(imported.database).first)
    #expect(Self.value(entry, "otp")?.hasPrefix("otpauth://totp/") == true)
    #expect(Self.value(entry, "otp (2)") == "mine")
  }

  @Test func emptyAndNullCustomFieldsKeepTheirNames() throws {
    let imported = try Self.read(
      Self.bitwarden(
        items:
          #"{"type": 2, "name": "Note", "fields": [{"name": "Empty", "value": "", "type": 0}, {"name": "Null", "value": null, "type": 1}]}"#
      ))
    let entry = try #require(Self.entries(imported.database).first)
    #expect(Self.value(entry, "Empty") == "")
    #expect(Self.value(entry, "Null") == "")
  }

  @Test func trashedItemsAreSkippedAndReported() throws {
    let imported = try Self.read(
      Self.bitwarden(
        items: #"{"type": 2, "name": "Live"}, {"type": 2, "name": "Gone", "deletedDate": "2024-01-02T03:04:05.000Z"}"#))
    #expect(Self.entries(imported.database).map(\.title) == ["Live"])
    #expect(imported.skipped.contains("items in the trash: 1 ('Gone')"))
  }

  /// Each kind of thing not carried over is one line, with its count and the first three items, however many
  /// items have it, so that a report cut to its first lines still names every kind.
  @Test func eachKindSkippedIsOneLineWithItsCountAndFirstItems() throws {
    let trashed = (1...500).map { #"{"type": 2, "name": "T\#($0)", "deletedDate": "2024-01-02T03:04:05.000Z"}"# }
    let linked = #"{"type": 2, "name": "L", "fields": [{"name": "Ref", "value": null, "type": 3}]}"#
    let imported = try Self.read(Self.bitwarden(items: (trashed + [linked]).joined(separator: ", ")))
    #expect(
      imported.skipped == [
        "items in the trash: 500 ('T1', 'T2', 'T3', ...)",
        "linked fields (they only point at another field): 1 ('L': 'Ref')",
      ])
    let csv = try Self.read("Title,Password,Icon,Modified\na,b,x,2024-01-01T00:00:00Z\nc,d,3,yesterday\n")
    #expect(
      csv.skipped == [
        "icons that are not a number (the standard icon is used): 1 (record 1)",
        "times that are not ISO 8601 (the import's time is used): 1 (record 2)",
      ])
  }

  @Test func whatBitwardenHasAndKeePassLacksIsReported() throws {
    let imported = try Self.read(
      #"{"collections": [{"id": "c1", "name": "One"}, {"id": "c2", "name": "Two"}], "items": [{"type": 1, "name": "Shared", "collectionIds": ["c1", "c2"], "login": {"uris": [{"uri": "https://a.example", "match": 3}], "passwordRevisionDate": "2024-01-01T00:00:00Z"}}]}"#
    )
    #expect(imported.skipped.contains { $0.hasPrefix("items in more than one collection") && $0.contains("'Shared'") })
    #expect(imported.skipped.contains { $0.hasPrefix("the URI match rules of 1 item(s)") })
    #expect(imported.skipped.contains { $0.hasPrefix("the password revision date of 1 item(s)") })
  }

  /// An item whose folder (or first collection) ID names no folder of the export lands in the root group, and
  /// the report says so, one line per kind with the first items (it went unreported). A folder with no name at
  /// all is one without a name.
  @Test func itemsWhoseFolderIsMissingAreReported() throws {
    let items = [
      #"{"type": 2, "name": "Here", "folderId": "f1"}"#, #"{"type": 2, "name": "Lost", "folderId": "gone"}"#,
      #"{"type": 2, "name": "Loose", "folderId": null}"#, #"{"type": 2, "name": "Org", "collectionIds": ["none"]}"#,
      #"{"type": 2, "name": "Nameless", "folderId": "f2"}"#,
      #"{"type": 2, "name": "Both", "folderId": "gone", "collectionIds": ["f1"]}"#,
    ]
    let imported = try Self.read(
      Self.bitwarden(
        items: items.joined(separator: ", "), folders: #"[{"id": "f1", "name": "Kept"}, {"id": "f2", "name": null}]"#
      ))
    let root = try #require(imported.database.root)
    #expect(root.entries.map(\.title) == ["Lost", "Loose", "Org", "Nameless"])
    #expect(root.groups.map(\.name) == ["Kept"])
    #expect(root.groups.first?.entries.map(\.title) == ["Here", "Both"])
    #expect(
      imported.skipped == [
        "folders without a name (their items are in the root group): 1 ('')",
        "items whose folder is not in the export (they are in the root group): 1 ('Lost' (folder 'gone'))",
        "items whose collection is not in the export (they are in the root group): 1 ('Org' (collection 'none'))",
      ])
  }

  @Test func fieldNamesAKeePassFileCannotStoreAreRefused() {
    for text in [
      Self.bitwarden(items: #"{"type": 2, "name": "N", "fields": [{"name": "x\u0001", "value": "1", "type": 0}]}"#),
      "Title,Password,x\u{2}\na,b,c\n",
      Self.bitwarden(items: #"{"type": 2, "name": "N"}"#, folders: #"[{"id": "f", "name": "bad\u0003"}]"#),
    ] {
      #expect(throws: ImportError.self) { try Self.read(text) }
      do {
        _ = try Self.read(text)
      } catch {
        #expect(error.reason == .unstorableText, "\(error)")
      }
    }
  }

  @Test func historyVersionsHoldTheStandardFieldsOnly() throws {
    let fields = (0..<40).map { #"{"name": "F\#($0)", "value": "v", "type": 0}"# }.joined(separator: ", ")
    let history = (0..<30).map { #"{"password": "old\#($0)", "lastUsedDate": "2020-01-01T00:00:\#($0 + 10)Z"}"# }
      .joined(separator: ", ")
    let imported = try Self.read(
      Self.bitwarden(
        items:
          #"{"type": 1, "name": "H", "login": {"password": "now"}, "fields": [\#(fields)], "passwordHistory": [\#(history)]}"#
      ))
    let entry = try #require(Self.entries(imported.database).first)
    #expect(entry.fields.count == 45)
    let versions = try #require(entry.history)
    #expect(versions.count == 30)
    #expect(versions.allSatisfy { $0.fields.count == 5 && $0.history == nil })
    #expect(Self.value(versions[0], Entry.passwordField) == "old0")
  }

  @Test func csvColumnsAreMappedByNameAndNumber() throws {
    let text = "Name,Secret,Login,Other\nA,p1,u1,x\n"
    let imported = try Self.read(
      text,
      options: ImportOptions(csvColumns: [.title: .named("name"), .password: .number(2), .username: .named("Login")]))
    let entry = try #require(Self.entries(imported.database).first)
    #expect(entry.title == "A" && Self.value(entry, Entry.passwordField) == "p1")
    #expect(Self.value(entry, "Other") == "x")
    do {
      _ = try Self.read(text, options: ImportOptions(csvColumns: [.title: .number(9)]))
      Issue.record("column 9 was accepted")
    } catch {
      #expect(error.reason == .invalidOptions)
    }
    do {
      _ = try Self.read(Self.bitwarden(items: ""), options: ImportOptions(csvColumns: [.title: .number(1)]))
      Issue.record("CSV options were accepted for a JSON file")
    } catch {
      #expect(error.reason == .invalidOptions)
    }
  }

  @Test func keePassXMLRepeatedUUIDsAndFieldNamesAreRepaired() throws {
    let uuid = "AAAAAAAAAAAAAAAAAAAAAA=="
    func entry(_ title: String) -> String {
      "<Entry><UUID>\(uuid)</UUID><String><Key>Title</Key><Value>\(title)</Value></String>"
        + "<String><Key>Extra</Key><Value>1</Value></String><String><Key>Extra</Key><Value>2</Value></String></Entry>"
    }
    let xml = """
      <?xml version="1.0" encoding="utf-8"?><KeePassFile><Meta/><Root><Group><UUID>AQAAAAAAAAAAAAAAAAAAAA==</UUID>\
      <Name>R</Name>\(entry("one"))<Group><UUID>\(uuid)</UUID><Name>G</Name>\(entry("two"))</Group></Group></Root>\
      </KeePassFile>
      """
    let imported = try Self.read(xml)
    #expect(imported.format == .keePassXML)
    #expect(imported.entryCount == 2 && imported.groupCount == 1)
    let all = Self.entries(imported.database)
    var uuids = Set(all.map(\.uuid))
    for group in imported.database.root?.groups ?? [] { uuids.insert(group.uuid) }
    #expect(uuids.count == 3)
    for item in all {
      #expect(Self.value(item, "Extra") == "1" && Self.value(item, "Extra (2)") == "2")
    }
    #expect(imported.skipped.contains { $0.hasPrefix("2 UUID(s) used more than once") })
    #expect(imported.skipped.contains { $0.hasPrefix("repeated field names in 2 entries") })
  }

  @Test func onePasswordFilesAreInflatedOncePerArchive() throws {
    let file = [UInt8](repeating: 7, count: 100_000)
    let archive = try ZipArchive(
      ZipBuilder.archive([ZipBuilder.Member(name: "files/d__a.bin", data: file)]))
    var files = OnePasswordImport.Files(archive: archive)
    files.members["d__a.bin"] = archive.members.first
    let first = try #require(try files.bytes(of: "d__a.bin"))
    let second = try #require(try files.bytes(of: "d__a.bin"))
    #expect(first == file)
    // The second reference shares the first one's storage: nothing inflated or copied again.
    #expect(first.withUnsafeBufferPointer { $0.baseAddress } == second.withUnsafeBufferPointer { $0.baseAddress })
  }

  @Test func onePasswordExportDataOverTheJSONLimitIsRefusedBeforeInflating() {
    let bytes = ZipBuilder.archive([
      ZipBuilder.Member(name: "export.data", data: Array("{}".utf8), declaredSize: 200 << 20)
    ])
    do {
      var random = SystemRandomNumberGenerator()
      _ = try VaultImport.read(bytes, clock: Self.clock, random: &random)
      Issue.record("accepted")
    } catch {
      #expect(error.reason == .tooLarge, "\(error)")
      #expect(error.description.hasPrefix("export.data is 209715200 bytes"))
    }
  }
}
