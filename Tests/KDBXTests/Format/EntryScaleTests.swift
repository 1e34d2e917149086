import KDBX
import Testing
import VectorSupport

/// Issue #19 item 9: editing an entry with a long history and listing an entry with many fields were quadratic
/// (history trimming scanned and copied every item once per removal; `show` looked each field up by name). At
/// 20,000 items these ran for minutes in a debug build; the time limit is a bound against that, not a speed test.
@Suite(
  "Entries with 20,000 history items or fields", .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason),
  .timeLimit(.minutes(1)))
struct EntryScaleTests {
  static let count = 20_000

  static func entry(historyCount: Int, fieldCount: Int) -> Entry {
    var entry = Entry(uuid: LibraryFixture.uuid(0x42))
    entry[field: Entry.titleField] = .plain("Entry")
    entry.times = Times.created(at: Timestamp(unixSeconds: 1_700_000_000))
    for index in 0..<fieldCount { entry.fields.append(EntryField(key: "Field \(index)", value: .plain("v\(index)"))) }
    entry.history = (0..<historyCount).map { index in
      var old = entry
      old[field: Entry.userNameField] = .plain("user \(index)")
      old.times?.lastModificationTime = Timestamp(unixSeconds: 1_600_000_000 + Int64(index) * 60)
      return old
    }
    return entry
  }

  @Test func editingAnEntryWithTwentyThousandHistoryItemsTrimsToTheNewestTen() throws {
    var database = LibraryFixture.make()
    database.meta.historyMaxItems = 10
    let entry = Self.entry(historyCount: Self.count, fieldCount: 0)
    let added = database.addEntry(entry, to: LibraryFixture.work)
    #expect(added)
    let changed = database.editEntry(entry.uuid, clock: LibraryFixture.later) {
      $0[field: Entry.userNameField] = .plain("edited")
    }
    #expect(changed)
    let history = try #require(database.entry(withUUID: entry.uuid)?.history)
    #expect(
      history.map { $0[field: Entry.userNameField]?.reveal() } == (Self.count - 9..<Self.count).map { "user \($0)" } + [
        nil
      ])
  }

  @Test func trimmingFollowsKeePassOrderOnTies() {
    // Equal times are removed first-listed first (KeePass's scan keeps the first minimum); sizes count too.
    var entry = Entry(uuid: LibraryFixture.uuid(1))
    let times: [Int64] = [50, 10, 10, 30, 10, 40]
    entry.history = times.enumerated().map { index, time in
      var old = Entry(uuid: LibraryFixture.uuid(1))
      old.tagsText = "\(index)"
      old.times = Times.created(at: Timestamp(unixSeconds: time))
      return old
    }
    var byCount = entry
    let removed = byCount.trimHistory(maxItems: 2, maxSize: -1, binaries: BinaryPool())
    #expect(removed.map { $0.tagsText } == ["1", "2", "4", "3"])
    #expect(byCount.history?.map { $0.tagsText } == ["0", "5"])
    // Each item is 128 + 1 (its tag) bytes: a limit of 400 keeps three, the newest.
    var bySize = entry
    let removedBySize = bySize.trimHistory(maxItems: -1, maxSize: 400, binaries: BinaryPool())
    #expect(removedBySize.map { $0.tagsText } == ["1", "2", "4"])
    #expect(bySize.history?.map { $0.tagsText } == ["0", "3", "5"])
  }

  @Test func twentyThousandFieldsAreListedInDisplayOrder() {
    var entry = Self.entry(historyCount: 0, fieldCount: Self.count)
    entry.fields.insert(EntryField(key: Entry.notesField, value: .plain("notes")), at: 0)
    entry.fields.append(EntryField(key: Entry.titleField, value: .plain("second title")))
    let fields = entry.displayedFields()
    #expect(fields.count == 5 + Self.count)
    #expect(fields.prefix(5).map { $0.name } == Entry.standardFieldNames)
    #expect(fields[0].value?.reveal() == "Entry", "the first Title, as entry[field:] reads it")
    #expect(fields[1].value == nil && fields[2].value == nil && fields[3].value == nil)
    #expect(fields[4].value?.reveal() == "notes")
    #expect(fields[5].name == "Field 0" && fields[5].value?.reveal() == "v0")
    #expect(fields.last?.name == "Field \(Self.count - 1)")
  }
}
