import KDBX
import Testing
import VectorSupport

@Suite struct HistoryTests {
  static func at(_ seconds: Int64) -> FixedClock { FixedClock(Timestamp(unixSeconds: seconds)) }

  @Test func editingSnapshotsTheOldVersionWithoutItsHistory() {
    var database = LibraryFixture.make()
    let changed = database.editEntry(LibraryFixture.github, clock: LibraryFixture.later) { entry in
      entry[field: Entry.titleField] = .plain("GitHub (work)")
    }
    #expect(changed)
    let entry = database.entry(withUUID: LibraryFixture.github)
    #expect(entry?[field: Entry.titleField]?.reveal() == "GitHub (work)")
    #expect(entry?.history?.count == 1)
    #expect(entry?.history?.first?[field: Entry.titleField]?.reveal() == "GitHub")
    #expect(entry?.history?.first?.history == nil)
    #expect(entry?.history?.first?.times?.lastModificationTime == LibraryFixture.clock.time)
    #expect(entry?.times?.lastModificationTime == LibraryFixture.later.time)
    #expect(entry?.times?.usageCount == 1)

    database.editEntry(LibraryFixture.github, clock: Self.at(1_700_000_100)) { entry in
      entry[field: Entry.notesField] = .plain("second")
    }
    let twice = database.entry(withUUID: LibraryFixture.github)
    #expect(twice?.history?.map { $0[field: Entry.titleField]?.reveal() } == ["GitHub", "GitHub (work)"])
    #expect(twice?.history?.allSatisfy { $0.history == nil } == true)
  }

  @Test func anEditThatChangesNothingMakesNoHistory() {
    var database = LibraryFixture.make()
    #expect(!database.editEntry(LibraryFixture.github, clock: LibraryFixture.later) { _ in })
    #expect(database.entry(withUUID: LibraryFixture.github)?.history == [])
    #expect(!database.editEntry(LibraryFixture.uuid(0x7F), clock: LibraryFixture.later) { $0.tagsText = "x" })
  }

  @Test func historyIsTrimmedToMaxItemsOldestFirst() {
    var database = LibraryFixture.make()
    database.meta.historyMaxItems = 2
    for step in 1...4 {
      database.editEntry(LibraryFixture.ssh, clock: Self.at(1_700_000_000 + Int64(step))) { entry in
        entry[field: Entry.titleField] = .plain("v\(step)")
      }
    }
    let history = database.entry(withUUID: LibraryFixture.ssh)?.history
    #expect(history?.map { $0[field: Entry.titleField]?.reveal() } == ["v2", "v3"])
    database.meta.historyMaxItems = 0
    #expect(database.trimAllHistory() == 2)
    #expect(database.entry(withUUID: LibraryFixture.ssh)?.history == [])
  }

  @Test func aNegativeLimitMeansUnlimited() {
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    for _ in 0..<5 { entry.createBackup() }
    #expect(entry.trimHistory(maxItems: -1, maxSize: -1, binaries: BinaryPool()).isEmpty)
    #expect(entry.history?.count == 5)
  }

  @Test func sizeFollowsKeePassGetSize() {
    var random = SplitMix64(seed: 7)
    var pool = BinaryPool()
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    entry[field: Entry.titleField] = .plain("€")  // 1 UTF-16 unit, 3 UTF-8 bytes
    entry[field: Entry.passwordField] = .protected(ProtectedValue("pw", using: &random))
    // 128 fixed + "Title"(5) + 1 + "Password"(8) + 2
    #expect(entry.approximateSize(binaries: pool) == 144)
    entry.attachments = [Attachment(name: "f.bin", binaryIndex: pool.add([UInt8](repeating: 7, count: 100)))]
    entry.tagsText = "a;bc"
    var customData = CustomData()
    customData.items = [CustomData.Item(key: "k", value: "vv")]
    entry.customData = customData
    entry.overrideURL = "xyz"
    var autoType = AutoType(defaultSequence: "{X}")
    autoType.associations = [AutoType.Association(window: "W", keystrokeSequence: "S")]
    entry.autoType = autoType
    // + "f.bin"(5) + 100 bytes + tags 3 + custom data 3 + override URL 3 + sequence 3 + association 2
    #expect(entry.approximateSize(binaries: pool) == 263)
    var old = Entry(uuid: LibraryFixture.uuid(1))
    old[field: Entry.titleField] = .plain("A")
    old[field: Entry.passwordField] = .plain("pw")
    entry.history = [old]
    #expect(entry.approximateSize(binaries: pool) == 263 + 144)
  }

  @Test func historyIsTrimmedToMaxSizeCountingAttachments() {
    var database = LibraryFixture.make()
    let big = database.makeAttachment(name: "scan.pdf", data: [UInt8](repeating: 1, count: 5_000))
    database.editEntry(LibraryFixture.cafe, clock: Self.at(1_700_000_001)) { $0.attachments = [big] }
    database.editEntry(LibraryFixture.cafe, clock: Self.at(1_700_000_002)) { $0.attachments = [] }
    // History: v0 (no attachment), v1 (5,000-byte attachment).
    #expect(database.entry(withUUID: LibraryFixture.cafe)?.history?.count == 2)
    database.meta.historyMaxSize = 4_000
    #expect(database.historyReport().trimmableEntryCount == 2)  // the oldest goes first, then the big one
    database.meta.historyMaxSize = 5_300
    let report = database.historyReport()
    #expect(report.historyEntryCount == 2)
    #expect(report.attachmentBytesOnlyInHistory == 5_000)
    #expect(report.trimmableEntryCount == 1)
    #expect(report.attachmentBytesFreedByTrimming == 0)  // the big version is the newer one and stays
    #expect(report.historySize > 5_000 && report.trimmableSize < 1_000)
    #expect(database.trimAllHistory() == 1)
    #expect(database.entry(withUUID: LibraryFixture.cafe)?.history?.first?.attachments == [big])
  }

  @Test func reportShowsWhatTrimmingFrees() {
    var database = LibraryFixture.make()
    let shared = database.makeAttachment(name: "logo.png", data: [UInt8](repeating: 2, count: 10))
    let old = database.makeAttachment(name: "old.pdf", data: [UInt8](repeating: 3, count: 1_000))
    database.editEntry(LibraryFixture.github, clock: Self.at(1_700_000_001)) { $0.attachments = [old] }
    database.editEntry(LibraryFixture.github, clock: Self.at(1_700_000_002)) { $0.attachments = [shared] }
    database.editEntry(LibraryFixture.github, clock: Self.at(1_700_000_003)) { $0.notes = "n" }
    // History: v0 (none), v1 (old.pdf), v2 (logo.png, which the current version also has).
    database.meta.historyMaxItems = 1
    let report = database.historyReport()
    #expect(report.historyEntryCount == 3)
    #expect(report.attachmentBytesOnlyInHistory == 1_000)
    #expect(report.trimmableEntryCount == 2)
    #expect(report.attachmentBytesFreedByTrimming == 1_000)
    #expect(database.trimAllHistory() == 2)
    #expect(database.historyReport().attachmentBytesOnlyInHistory == 0)
  }
}

extension Entry {
  fileprivate var notes: String {
    get { self[field: Entry.notesField]?.reveal() ?? "" }
    set { self[field: Entry.notesField] = .plain(newValue) }
  }
}
