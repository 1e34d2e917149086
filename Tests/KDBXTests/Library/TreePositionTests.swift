import KDBX
import Testing
import VectorSupport

/// The position-based edits: each acts on exactly the object at its position, duplicates or not.
@Suite struct TreePositionTests {
  @Test func positionsNameEachDuplicate() throws {
    var database = DuplicateFixture.make()
    let entries = database.positions(ofEntry: DuplicateFixture.sharedEntry)
    #expect(entries.map(\.group.indexPath) == [[0], [1]])
    #expect(database.positions(ofGroup: DuplicateFixture.sharedGroup).map(\.indexPath) == [[2], [3]])
    #expect(database.positions(ofGroup: DuplicateFixture.root) == [.root])
    let second = try #require(entries.last)
    let changed = database.editEntry(at: second, clock: DuplicateFixture.later) {
      $0[field: Entry.userNameField] = .plain("x")
    }
    #expect(changed)
    #expect(DuplicateFixture.user(database, group: 0) == "one")
    #expect(DuplicateFixture.user(database, group: 1) == "x")
    #expect(database.entry(at: second)?.history?.count == 1)
    #expect(database.entry(at: second)?.uuid == DuplicateFixture.sharedEntry)
    #expect(database.entry(at: EntryPosition(group: GroupPosition(indexPath: [9]), index: 0)) == nil)
  }

  @Test func deletingOneDuplicateLeavesTheOtherAndNoTombstone() throws {
    var database = DuplicateFixture.make()
    database.meta.recycleBinEnabled = false
    var random = SplitMix64(seed: 2)
    let second = try #require(database.positions(ofEntry: DuplicateFixture.sharedEntry).last)
    #expect(database.deleteEntry(at: second, clock: DuplicateFixture.later, random: &random) == .deletedPermanently)
    #expect(database.positions(ofEntry: DuplicateFixture.sharedEntry).count == 1)
    #expect(DuplicateFixture.user(database, group: 0) == "one")
    // A tombstone for the UUID would make a merge delete E1, which is still here.
    #expect(database.deletedObjects?.contains { $0.uuid == DuplicateFixture.sharedEntry } != true)
    // Deleting the last one records it.
    let first = try #require(database.positions(ofEntry: DuplicateFixture.sharedEntry).first)
    #expect(database.deleteEntry(at: first, clock: DuplicateFixture.later, random: &random) == .deletedPermanently)
    #expect(database.deletedObjects?.map(\.uuid) == [DuplicateFixture.sharedEntry])
  }

  @Test func movesAndDeletesByPosition() throws {
    var database = DuplicateFixture.make()
    var random = SplitMix64(seed: 3)
    let g2 = GroupPosition(indexPath: [3])
    let e2 = try #require(database.positions(ofEntry: DuplicateFixture.sharedEntry).last)
    let later = DuplicateFixture.later
    let movedEntry = database.moveEntry(at: e2, to: g2, clock: later)
    #expect(movedEntry)
    #expect(database.root?.groups[3].entries.map { $0[field: Entry.titleField]?.reveal() } == ["In G2", "E2"])
    #expect(database.root?.groups[3].entries.last?.previousParentGroup == DuplicateFixture.groupB)
    // Moving A (index 0) into G2 (index 3): G2 becomes index 2 once A leaves the root.
    let movedGroup = database.moveGroup(at: GroupPosition(indexPath: [0]), to: g2, clock: later)
    #expect(movedGroup)
    #expect(database.root?.groups.map(\.name) == ["B", "G1", "G2"])
    #expect(database.root?.groups[2].groups.map(\.name) == ["A"])
    let intoItself = database.moveGroup(
      at: GroupPosition(indexPath: [2]), to: GroupPosition(indexPath: [2, 0]), clock: later)
    let theRoot = database.moveGroup(at: .root, to: GroupPosition(indexPath: [0]), clock: later)
    #expect(!intoItself && !theRoot)
    // Deleting G2 by position moves exactly G2 (with A inside) to a new bin; G1 stays.
    #expect(
      database.deleteGroup(at: GroupPosition(indexPath: [2]), clock: later, random: &random) == .movedToRecycleBin)
    #expect(database.root?.groups.map(\.name) == ["B", "G1", "Recycle Bin"])
    #expect(database.root?.groups[2].groups.map(\.name) == ["G2"])
    let added = database.addGroup(
      Group.new(name: "New", clock: later, random: &random), to: GroupPosition(indexPath: [1]))
    #expect(added)
    #expect(database.root?.groups[1].groups.map(\.name) == ["New"])
  }
}
