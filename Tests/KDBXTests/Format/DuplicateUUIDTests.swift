import KDBX
import Testing
import VectorSupport

/// A tree that breaks KDBX's unique-UUID rule, and a recycle bin in awkward places: edits act on exactly the object
/// named, and nothing is deleted for good without being asked for (issue #19, items 2 and 4).
enum DuplicateFixture {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_600_000_000))
  static let later = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  static func uuid(_ byte: UInt8) -> KDBXUUID { KDBXUUID(bytes: [UInt8](repeating: byte, count: 16)) ?? .zero }
  static let root = uuid(0x30)
  static let groupA = uuid(0x31)
  static let groupB = uuid(0x32)
  /// Two groups, `G1` and `G2`, share this UUID.
  static let sharedGroup = uuid(0x33)
  /// Two entries, `A/E1` and `B/E2`, share this UUID.
  static let sharedEntry = uuid(0x40)

  static func entry(_ id: KDBXUUID, _ title: String, user: String, random: inout SplitMix64) -> Entry {
    var entry = Entry.new(clock: clock, random: &random)
    entry.uuid = id
    entry[field: Entry.titleField] = .plain(title)
    entry[field: Entry.userNameField] = .plain(user)
    return entry
  }

  static func group(_ id: KDBXUUID, _ name: String, random: inout SplitMix64) -> Group {
    var group = Group.new(name: name, clock: clock, random: &random)
    group.uuid = id
    return group
  }

  /// Root: groups A (entry E1), B (entry E2, same UUID as E1), G1 and G2 (same UUID).
  static func make() -> Database {
    var random = SplitMix64(seed: 1_919)
    var database = Database.new(name: "Duplicates", clock: clock, random: &random)
    database.root?.uuid = root
    var a = group(groupA, "A", random: &random)
    a.entries.append(entry(sharedEntry, "E1", user: "one", random: &random))
    var b = group(groupB, "B", random: &random)
    b.entries.append(entry(sharedEntry, "E2", user: "two", random: &random))
    var g1 = group(sharedGroup, "G1", random: &random)
    g1.entries.append(entry(uuid(0x41), "In G1", user: "", random: &random))
    var g2 = group(sharedGroup, "G2", random: &random)
    g2.entries.append(entry(uuid(0x42), "In G2", user: "", random: &random))
    database.root?.groups = [a, b, g1, g2]
    return database
  }

  static func user(_ database: Database, group index: Int) -> String? {
    database.root?.groups[index].entries.first?[field: Entry.userNameField]?.reveal()
  }
}

@Suite struct DuplicateUUIDTests {
  @Test func uuidBasedEditsRefuseADuplicatedUUID() {
    var database = DuplicateFixture.make()
    let before = database
    var random = SplitMix64(seed: 1)
    let edited = database.editEntry(DuplicateFixture.sharedEntry, clock: DuplicateFixture.later) {
      $0[field: Entry.userNameField] = .plain("x")
    }
    #expect(!edited)
    #expect(
      database.deleteEntry(DuplicateFixture.sharedEntry, clock: DuplicateFixture.later, random: &random) == .notFound)
    let later = DuplicateFixture.later
    let movedEntry = database.moveEntry(DuplicateFixture.sharedEntry, to: DuplicateFixture.groupA, clock: later)
    let movedToGroup = database.moveEntry(DuplicateFixture.uuid(0x41), to: DuplicateFixture.sharedGroup, clock: later)
    #expect(!movedEntry && !movedToGroup)
    #expect(database.deleteGroup(DuplicateFixture.sharedGroup, clock: later, random: &random) == .notFound)
    let movedGroup = database.moveGroup(DuplicateFixture.sharedGroup, to: DuplicateFixture.groupA, clock: later)
    #expect(!movedGroup)
    var extra = Entry.new(clock: DuplicateFixture.clock, random: &random)
    extra[field: Entry.titleField] = .plain("Extra")
    let added = database.addEntry(extra, to: DuplicateFixture.sharedGroup)
    #expect(!added)
    #expect(database == before)
    // A unique UUID still works.
    let movedUnique = database.moveEntry(DuplicateFixture.uuid(0x41), to: DuplicateFixture.groupA, clock: later)
    #expect(movedUnique)
  }
}

@Suite struct RecycleBinPlacementTests {
  /// Root: group "A" holding entry "Keep" and the recycle bin, which holds entry "Old".
  static func binInsideA() -> (Database, bin: KDBXUUID) {
    var random = SplitMix64(seed: 4)
    var database = Database.new(name: "Bin", clock: DuplicateFixture.clock, random: &random)
    var a = DuplicateFixture.group(DuplicateFixture.groupA, "A", random: &random)
    a.entries.append(DuplicateFixture.entry(DuplicateFixture.uuid(0x50), "Keep", user: "", random: &random))
    var bin = DuplicateFixture.group(DuplicateFixture.uuid(0x51), "Recycle Bin", random: &random)
    bin.entries.append(DuplicateFixture.entry(DuplicateFixture.uuid(0x52), "Old", user: "", random: &random))
    a.groups.append(bin)
    database.root?.groups = [a]
    database.meta.recycleBinEnabled = true
    database.meta.recycleBinUUID = bin.uuid
    return (database, bin.uuid)
  }

  @Test func deletingAGroupThatHoldsTheBinLosesNothing() throws {
    var (database, bin) = Self.binInsideA()
    var random = SplitMix64(seed: 5)
    let outcome = database.deleteGroup(DuplicateFixture.groupA, clock: DuplicateFixture.later, random: &random)
    #expect(outcome == .movedToRecycleBin)
    #expect(database.deletedObjects ?? [] == [])
    #expect(database.recycleBinGroupUUID == bin)
    #expect(database.parentGroupUUID(ofGroup: bin) == database.root?.uuid)
    #expect(database.parentGroupUUID(ofGroup: DuplicateFixture.groupA) == bin)
    #expect(database.isInRecycleBin(entry: DuplicateFixture.uuid(0x50)))
    #expect(database.isInRecycleBin(entry: DuplicateFixture.uuid(0x52)))
    #expect(database.flatEntries.count == 2)
  }

  @Test func theRootIsNeverTheRecycleBin() throws {
    var random = SplitMix64(seed: 6)
    var database = DuplicateFixture.make()
    database.meta.recycleBinEnabled = true
    database.meta.recycleBinUUID = DuplicateFixture.root
    #expect(database.recycleBinGroupUUID == nil)
    #expect(!database.isInRecycleBin(group: DuplicateFixture.groupA))
    #expect(!database.isInRecycleBin(entry: DuplicateFixture.uuid(0x41)))
    #expect(
      database.deleteEntry(DuplicateFixture.uuid(0x41), clock: DuplicateFixture.later, random: &random)
        == .movedToRecycleBin)
    let bin = try #require(database.recycleBinGroupUUID)
    #expect(bin != DuplicateFixture.root)
    #expect(database.meta.recycleBinUUID == bin)
    #expect(database.parentGroupUUID(ofEntry: DuplicateFixture.uuid(0x41)) == bin)
    #expect(database.deletedObjects ?? [] == [])
    #expect(database.emptyRecycleBin(clock: DuplicateFixture.later) == 1)
    #expect(database.root?.groups.count == 5)
  }
}
