import KDBX
import KDBXFileIO
import Testing

/// The edits of `KDBX` without a clock or a random source (`SystemDefaults.swift`): each records the system's time
/// and draws fresh UUIDs, as the forms with `clock:` and `random:` do with `SystemClock` and the system generator.
@Suite("System defaults: edits, creations and merges without a clock or a random source")
struct SystemDefaultsTests {
  /// Whether `time` lies between `before` and `after` (whole seconds, as KDBX stores them).
  private func isNow(_ time: Timestamp?, _ before: Timestamp, _ after: Timestamp) -> Bool {
    guard let time else { return false }
    return before <= time && time <= after
  }

  @Test func createAndEditRecordTheSystemTime() throws {
    let before = SystemClock().now()
    var database = Database.new(name: "Home")
    let root = try #require(database.root?.uuid)
    var entry = Entry.new()
    entry.title = "Forum"
    let addedEntry = database.addEntry(entry, to: root)
    #expect(addedEntry)
    let editedOne = database.editEntry(entry.uuid) { $0.userName = "me" }
    #expect(editedOne)
    let added = database.addGroup(named: "Mail", in: root)
    let group = try #require(added)
    let moved = database.moveEntry(entry.uuid, to: group)
    #expect(moved)
    let renamed = database.renameGroup(group, to: "E-mail")
    #expect(renamed)
    let attached = database.setAttachment(named: "a.txt", contents: [1, 2, 3], inEntry: entry.uuid)
    #expect(attached)
    let renamedAttachment = database.renameAttachment(named: "a.txt", to: "b.txt", inEntry: entry.uuid)
    #expect(renamedAttachment)
    let after = SystemClock().now()

    let edited = try #require(database.entry(withUUID: entry.uuid))
    #expect(edited.userName == "me")
    #expect(isNow(edited.times?.creationTime, before, after))
    #expect(isNow(edited.times?.lastModificationTime, before, after))
    #expect(isNow(edited.times?.locationChanged, before, after))
    #expect((edited.history ?? []).count >= 2)  // the edit and the attachment changes keep earlier versions
    #expect(edited.attachments.map(\.name) == ["b.txt"])
    #expect(database.meta.databaseName == "Home")
    let removed = database.removeAttachment(named: "b.txt", inEntry: entry.uuid)
    #expect(removed)
  }

  @Test func freshIdentifiersEachTime() {
    let uuids = (0..<64).map { _ in Entry.new().uuid } + (0..<64).map { _ in Group.new(name: "g").uuid }
    #expect(Set(uuids).count == uuids.count)
  }

  @Test func deletionGoesToTheRecycleBinThenEmpties() throws {
    var database = Database.new(name: "Home")
    let root = try #require(database.root?.uuid)
    let entry = Entry.new()
    database.addEntry(entry, to: root)
    let deleted = database.deleteEntry(entry.uuid)
    #expect(deleted == .movedToRecycleBin)
    #expect(database.recycleBinGroupUUID != nil)
    let emptied = database.emptyRecycleBin()
    #expect(emptied == 1)
    #expect(database.entry(withUUID: entry.uuid) == nil)
    let deletedAgain = database.deleteEntry(entry.uuid)
    #expect(deletedAgain == .notFound)
  }

  @Test func throwingEditLeavesTheEntryAsItWas() throws {
    struct Refused: Error {}
    var database = Database.new(name: "Home")
    let root = try #require(database.root?.uuid)
    var entry = Entry.new()
    entry.title = "Before"
    database.addEntry(entry, to: root)
    #expect(throws: Refused.self) {
      try database.editEntry(entry.uuid) { (entry: inout Entry) throws(Refused) in
        entry.title = "After"
        throw Refused()
      }
    }
    #expect(database.entry(withUUID: entry.uuid)?.title == "Before")
  }

  @Test func mergeAsOfNow() throws {
    var base = Database.new(name: "Home")
    let root = try #require(base.root?.uuid)
    let entry = Entry.new()
    base.addEntry(entry, to: root)
    var local = base
    var remote = base
    local.editEntry(entry.uuid) { $0.userName = "local" }
    let added = Entry.new()
    remote.addEntry(added, to: root)
    let merged = DatabaseMerge.threeWay(base: base, local: local, remote: remote)
    #expect(merged.database.entry(withUUID: entry.uuid)?.userName == "local")
    #expect(merged.database.entry(withUUID: added.uuid) != nil)
    guard case .threeWay(let now) = VaultMergeMethod.threeWay() else {
      Issue.record("VaultMergeMethod.threeWay() is not a three-way merge")
      return
    }
    #expect(isNow(now, Timestamp(unixSeconds: SystemClock().now().unixSeconds - 60), SystemClock().now()))
  }
}
