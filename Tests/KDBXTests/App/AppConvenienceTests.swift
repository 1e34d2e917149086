import KDBX
import Testing
import VectorSupport

@Suite struct AppConvenienceTests {
  struct Refused: Error, Equatable {}

  @Test func uuidIsAValueWithTheSameBytesAndForms() throws {
    let bytes: [UInt8] = (0..<16).map { UInt8($0 * 17) }
    let uuid = try #require(KDBXUUID(bytes: bytes))
    #expect(uuid.bytes == bytes)
    #expect(uuid.description == "00112233-4455-6677-8899-aabbccddeeff")
    #expect(KDBXUUID(string: uuid.description) == uuid && KDBXUUID(base64: uuid.base64) == uuid)
    #expect(KDBXUUID(bytes: bytes.dropFirst()) == nil && KDBXUUID.zero.isZero && !uuid.isZero)
    #expect(MemoryLayout<KDBXUUID>.size == 16, "16 bytes inline, no heap")
    var random = SplitMix64(seed: 3)
    var copy = random
    let drawn = KDBXUUID.random(using: &random)
    let first: UInt64 = copy.next()
    let second: UInt64 = copy.next()
    let expected =
      (0..<8).map { UInt8(truncatingIfNeeded: first >> ($0 * 8)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: second >> ($0 * 8)) }
    #expect(drawn.bytes == expected, "the same bytes as before the inline storage")
  }

  @Test func modelValuesAreIdentifiableAndHashable() {
    let database = LibraryFixture.make()
    let items = database.flatEntries
    #expect(Set(items.map(\.id)).count == items.count)
    #expect(Set(items.map(\.entry)).count == items.count)
    #expect(items.first?.entry.id == items.first?.entry.uuid)
    var edited = items[0].entry
    edited.title = "other"
    #expect(edited != items[0].entry && edited.hashValue == items[0].entry.hashValue)
    #expect(database.root?.id == LibraryFixture.root)
  }

  @Test func aThrowingEditChangesNothing() throws {
    var database = LibraryFixture.make()
    let before = database
    do {
      try database.editEntry(LibraryFixture.github, clock: LibraryFixture.later) { entry throws(Refused) in
        entry.title = "half-done"
        throw Refused()
      }
      Issue.record("the edit should have thrown")
    } catch {
      #expect(error == Refused())
    }
    #expect(database == before)
    let changed = try database.editEntry(LibraryFixture.github, clock: LibraryFixture.later) {
      entry throws(Refused) in entry.title = "done"
    }
    #expect(changed && database.entry(withUUID: LibraryFixture.github)?.title == "done")
  }

  @Test func anAttachmentIsAddedInsideTheEdit() throws {
    var database = LibraryFixture.make()
    let data = Array("recovery codes".utf8)
    let changed = database.editEntry(LibraryFixture.github, clock: LibraryFixture.later) { entry, pool in
      entry.attach("codes.txt", data: data, in: &pool)
      entry.notes = "see codes.txt"
    }
    let entry = try #require(database.entry(withUUID: LibraryFixture.github))
    #expect(changed && entry.history?.count == 1 && entry.history?.last?.attachments == [])
    #expect(entry.attachments.map(\.name) == ["codes.txt"])
    #expect(database.contents(of: entry.attachments[0]) == data)
    do {
      try database.editEntry(LibraryFixture.github, clock: LibraryFixture.later) { entry, pool throws(Refused) in
        entry.attach("more.txt", data: [1, 2, 3], in: &pool)
        throw Refused()
      }
      Issue.record("the edit should have thrown")
    } catch {
      #expect(error == Refused())
    }
    #expect(database.binaries.count == 1, "a thrown edit leaves the pool as it was")
  }

  @Test func groupsByPathAddRenameMoveDelete() throws {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 8)
    let clock = LibraryFixture.later
    let social = try #require(
      database.addGroup(named: "Social", in: LibraryFixture.personal, clock: clock, random: &random))
    #expect(database.groupsByPath.map(\.pathText) == ["", "Work", "Work/Servers", "Personal", "Personal/Social"])
    #expect(database.groupPositions(atPath: ["Personal", "Social"]).count == 1)
    let renamed = database.renameGroup(social, to: "Friends", clock: clock)
    #expect(renamed)
    #expect(database.group(withUUID: social)?.name == "Friends")
    #expect(database.group(withUUID: social)?.times?.lastModificationTime == clock.time)
    let moved = database.moveGroup(social, to: LibraryFixture.work, clock: clock)
    #expect(moved)
    #expect(database.groupsByPath.map(\.pathText).contains("Work/Friends"))
    let binned = database.deleteGroup(social, clock: clock, random: &random)
    #expect(binned == .movedToRecycleBin)
    let items = database.groupsByPath
    #expect(items.first { $0.uuid == social }?.isInRecycleBin == true)
    #expect(items.first { $0.path == ["Recycle Bin"] }?.isInRecycleBin == true)
    #expect(items.filter { !$0.isInRecycleBin }.map(\.pathText) == ["", "Work", "Work/Servers", "Personal"])
    let deleted = database.deleteGroup(social, clock: clock, random: &random)
    #expect(deleted == .deletedPermanently)
    let unknownParent = database.addGroup(named: "x", in: LibraryFixture.uuid(0x7F), clock: clock, random: &random)
    #expect(unknownParent == nil)
  }
}
