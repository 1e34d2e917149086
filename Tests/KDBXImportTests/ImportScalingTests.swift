import KDBX
import Testing
import VectorSupport

@testable import KDBXImport

/// Imports bounded by their input (#39, "bounded by input size"): the CSV reader streams rows into records instead
/// of holding the file as rows of strings, and the records are emptied as their entries are made, so that the
/// export's text is not held twice at the peak. Size and count based: no timing.
struct ImportScalingTests {
  static let clock = FixedClock(Timestamp(secondsSince0001: 63_800_000_000))

  static func rows(_ text: String) throws(ImportError) -> [[String]] {
    var reader = CSVImport.Rows(Array(text.utf8))
    var rows: [[String]] = []
    while let row = try reader.next() { rows.append(row) }
    return rows
  }

  @Test func csvRowsAreReadOneAtATime() throws {
    let header = "Title,Username,Password\r\n"
    let text = header + (0..<1_000).map { "t\($0),u,p\r\n" }.joined()
    var reader = CSVImport.Rows(Array(text.utf8))
    #expect(try reader.next() == ["Title", "Username", "Password"])
    // Only the header's bytes are read to give the header: the rest is read as the records are made.
    #expect(reader.index == header.utf8.count)
    #expect(try reader.next() == ["t0", "u", "p"])
    #expect(reader.index == header.utf8.count + "t0,u,p\r\n".utf8.count)
  }

  @Test func csvReaderKeepsRFC4180Semantics() throws {
    #expect(
      try Self.rows("\u{FEFF}a,\"b,\"\"c\"\"\nd\",é\r\n\r\n\n,\n\"\"\nx,\"\"\"\"\ry,z") == [
        ["a", "b,\"c\"\nd", "é"], ["", ""], ["x", "\""], ["y", "z"],
      ])
    #expect(try Self.rows("a,b\n\"\"") == [["a", "b"], [""]])
    #expect(try Self.rows("") == [])
    #expect(try Self.rows("a,\"\"\"\"\"\"") == [["a", "\"\""]])
    for (text, message) in [
      ("a,b\nc\"d,e\n", "line 2: a quote inside an unquoted field"),
      ("a,\"b\"c\n", "line 1: text after a closing quote"),
      ("a,b\n\"c\nd\ne", "line 2: a quoted field is not closed"),
      ("a,\"b\"\n\"x\" \n", "line 2: text after a closing quote"),
    ] {
      #expect(throws: ImportError.self) { _ = try Self.rows(text) }
      do {
        _ = try Self.rows(text)
      } catch {
        #expect(error.reason == .malformed)
        #expect(error.description.hasPrefix(message), "\(text.debugDescription): \(error.description)")
      }
    }
  }

  @Test func csvImportOfManyRowsAndDoubledQuotes() throws {
    // A field of 10,000 doubled quotes is read in one pass (appending in place), and every row is a record.
    let quotes = String(repeating: "\"\"", count: 10_000)
    let text = "Title,Notes\n" + "q,\"\(quotes)\"\n" + (0..<500).map { "t\($0),n\n" }.joined()
    var random = SystemRandomNumberGenerator()
    let imported = try VaultImport.read(Array(text.utf8), clock: Self.clock, random: &random)
    #expect(imported.entryCount == 501)
    let notes = imported.database.flatEntries.compactMap { $0.entry[field: Entry.notesField]?.reveal() }
    #expect(notes.contains(String(repeating: "\"", count: 10_000)))
  }

  @Test func importedFieldsHoldNoSpareRoom() throws {
    // The five standard fields, the one-time password and custom fields: appended one by one after the standard
    // five, the array grew to ten slots for six fields (a sixth of a small imported entry's memory).
    let text = "Title,Username,Password,TOTP,PIN\nt,u,p,JBSWY3DPEHPK3PXP,1234\n"
    var random = SystemRandomNumberGenerator()
    let imported = try VaultImport.read(Array(text.utf8), clock: Self.clock, random: &random)
    let entry = try #require(imported.database.flatEntries.first?.entry)
    #expect(entry.fields.count == 7, "\(entry.fields.map(\.key))")
    // The allocator may round the block up by at most one slot.
    #expect(entry.fields.capacity <= entry.fields.count + 1, "capacity \(entry.fields.capacity)")
  }

  @Test func recordsAreEmptiedAsTheirEntriesAreMade() throws {
    var vault = ImportedVault()
    for index in 0..<100 {
      var record = ImportedVault.Record()
      record.title = "Entry \(index)"
      record.notes = String(repeating: "n", count: 100)
      record.fields = [("Field", "value \(index)", false)]
      vault.records.append(record)
    }
    var random = SystemRandomNumberGenerator()
    let database = try vault.database(clock: Self.clock, random: &random)
    #expect(database.flatEntries.count == 100)
    #expect(vault.records.count == 100)
    #expect(vault.records.allSatisfy { $0.title.isEmpty && $0.notes.isEmpty && $0.fields.isEmpty })
  }

  @Test func utf8CheckWithoutACopy() {
    #expect(ImportFormat.isUTF8(Array("a,é,😀".utf8)))
    #expect(!ImportFormat.isUTF8([0x61, 0xC3]))
    #expect(!ImportFormat.isUTF8([0xED, 0xA0, 0x80]))  // a surrogate
    #expect(ImportFormat.detect([0x61, 0x2C, 0xC3]) == nil)
  }
}

/// More entries than any vault can hold are refused while the export is read (#39: 400,000 minimal Bitwarden
/// items were built into a database of gigabytes before the save's node limit refused it).
struct ImportNodeBudgetTests {
  static let clock = FixedClock(Timestamp(secondsSince0001: 63_800_000_000))

  @Test func vaultBeyondTheNodeBudgetIsRefusedBeforeItIsBuilt() throws {
    var vault = ImportedVault()
    vault.maxNodeCount = 100 * ImportedVault.entryNodeCost
    vault.records = [ImportedVault.Record](repeating: ImportedVault.Record(), count: 101)
    var random = SystemRandomNumberGenerator()
    #expect(throws: ImportError.self) { _ = try vault.database(clock: Self.clock, random: &random) }
    do {
      _ = try vault.database(clock: Self.clock, random: &random)
    } catch {
      #expect(error.reason == .tooLarge)
      #expect(error.description.contains("XML node count"))
      // Refused before any record was used: they are all still there.
      #expect(vault.records.count == 101)
    }
    vault.records.removeLast()
    #expect(try vault.database(clock: Self.clock, random: &random).flatEntries.count == 100)
  }

  @Test func historyAndFieldsCountInTheBudget() throws {
    // One Bitwarden item with 2,000 history rows: 2,001 entries' worth of nodes, over a budget of 1,000 entries.
    let history = (0..<2_000).map { #"{"password": "p\#($0)"}"# }.joined(separator: ",")
    let json = #"{"items": [{"type": 1, "name": "n", "login": {}, "passwordHistory": [\#(history)]}]}"#
    var vault = ImportedVault()
    vault.maxNodeCount = 1_000 * ImportedVault.entryNodeCost
    var record = ImportedVault.Record()
    record.passwordHistory = [(String, Timestamp?)](repeating: ("p", nil), count: 2_000)
    #expect(throws: ImportError.self) { try vault.append(record) }
    #expect(vault.historyCount == 2_000)
    #expect(try BitwardenImport.read(Array(json.utf8)).historyCount == 2_000)
    var fields = ImportedVault()
    fields.maxNodeCount = 10 * ImportedVault.fieldNodeCost
    record = ImportedVault.Record()
    record.fields = [(String, String, Bool)](repeating: ("f", "", false), count: 11)
    #expect(throws: ImportError.self) { try fields.append(record) }
  }

  @Test func csvRowsBeyondTheBudgetAreRefusedWhileRead() throws {
    // 5,000 rows with the budget of 2,048 entries: refused at row 2,049, the rest unread.
    let text = "Title,Password\n" + String(repeating: "t,p\n", count: 5_000)
    var refused: ImportError?
    do {
      _ = try CSVImport.read(Array(text.utf8), columns: [:], maxNodeCount: 2_048 * ImportedVault.entryNodeCost)
    } catch {
      refused = error
    }
    #expect(refused?.reason == .tooLarge)
    #expect(refused?.description.hasPrefix("2049 entries") == true, "\(String(describing: refused))")
    #expect(try CSVImport.read(Array(text.utf8), columns: [:]).records.count == 5_000)
  }

  /// The costs are lower bounds: the saved document of an import has more nodes than they count.
  @Test func nodeCostsAreLowerBounds() throws {
    var vault = ImportedVault()
    var record = ImportedVault.Record()
    record.fields = [("a", "", false), ("b", "", true)]
    record.passwordHistory = [("old", nil), ("older", nil), ("oldest", nil)]
    vault.records = [ImportedVault.Record](repeating: record, count: 50)
    vault.emptyGroups = (0..<30).map { ["Group \($0)"] }
    var random = SystemRandomNumberGenerator()
    let database = try vault.database(clock: Self.clock, random: &random)
    var options = LoadOptions.default
    options.maxXMLNodeCount =
      (50 + 150) * ImportedVault.entryNodeCost + 100 * ImportedVault.fieldNodeCost + 30 * ImportedVault.groupNodeCost
    // The document needs more nodes than the counted budget to open: the budget never refuses what saves.
    var stream = PlaintextInnerStream()
    let xml = try DatabaseXML.serialize(database, version: .v4_1, stream: &stream)
    #expect(throws: KDBXError.self) { try KDBXFile.checkOpens(xml: xml, binaries: [], options: options) }
  }
}

/// What a zip archive inflates to is bounded by its size past a fixed allowance (#39: memory at most a multiple of
/// the input): 300 MiB declared by a 1 KB archive is refused from the central directory, before any inflation.
struct ZipExpansionTests {
  @Test func membersBeyondTheExpansionAllowanceAreRefused() throws {
    let archive = ZipBuilder.archive([
      .init(name: "export.data", data: Array("{}".utf8), declaredSize: 150 << 20),
      .init(name: "files/a__a", data: [1, 2, 3], declaredSize: 150 << 20),
    ])
    var refused: ZipError?
    do { _ = try ZipArchive(archive) } catch { refused = error }
    #expect(refused?.reason.contains("times the archive's \(archive.count)") == true, "\(String(describing: refused))")
    // Within the allowance (the fixed part), the same lie is only found while inflating.
    let small = ZipBuilder.archive([.init(name: "export.data", data: Array("{}".utf8), declaredSize: 100 << 20)])
    #expect((try? ZipArchive(small)) != nil)
    #expect(ZipArchive.Limits().allowance(archiveByteCount: 1 << 30) == 1 << 30)
    #expect(ZipArchive.Limits().allowance(archiveByteCount: 1 << 20) == (256 << 20) + (16 << 20))
    #expect(ZipArchive.Limits().allowance(archiveByteCount: .max) == 1 << 30)
  }
}

/// JSON values are stored inline, not boxed one heap allocation each (an `indirect` enum): a Bitwarden export
/// of many small values held about twice its tree's size in boxes.
struct JSONLayoutTests {
  @Test func valuesAreStoredInline() throws {
    #expect(MemoryLayout<JSON>.size == MemoryLayout<String>.size + 1)
    let parsed = try JSONReader.parse(Array(#"{"items": [{"type": 2, "name": "n"}, null, true, "x"]}"#.utf8))
    #expect(parsed["items"]?.array?.count == 4)
    #expect(parsed["items"]?.array?.first?["name"]?.string == "n")
  }
}

/// Attachments find their binary in a hash table by source, not by comparing each new one with every binary so
/// far (quadratic in the attachments; 6,400 references to one 64 MiB member, or 100,000 small documents).
struct ImportAttachmentPoolTests {
  @Test func attachmentsOfOneSourceShareABinary() throws {
    var vault = ImportedVault()
    let big = [UInt8](repeating: 7, count: 1 << 16)
    for index in 0..<300 {
      var record = ImportedVault.Record()
      record.title = "Document \(index)"
      record.attachments = [
        ("big.bin", big, "d1__big.bin"), ("own.txt", Array("file \(index)".utf8), "d\(index)__own"),
      ]
      vault.records.append(record)
    }
    var random = SystemRandomNumberGenerator()
    let database = try vault.database(clock: ImportScalingTests.clock, random: &random)
    #expect(database.binaries.count == 301)
    for flat in database.flatEntries {
      let attachments = flat.entry.attachments
      #expect(attachments.count == 2)
      #expect(database.binaries[attachments[0].binaryIndex]?.data == big)
      let title = flat.entry[field: Entry.titleField]?.reveal() ?? ""
      let own = database.binaries[attachments[1].binaryIndex]?.data
      #expect(own == Array("file \(title.dropFirst("Document ".count))".utf8))
    }
  }
}
