import KDBX
import Testing
import VectorSupport

@Suite struct RecycleBinTests {
  @Test func deleteMovesToANewRecycleBin() throws {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 11)
    #expect(database.recycleBinGroupUUID == nil)
    #expect(
      database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.later, random: &random) == .movedToRecycleBin)
    let binUUID = try #require(database.recycleBinGroupUUID)
    let bin = try #require(database.group(withUUID: binUUID))
    #expect(bin.name == "Recycle Bin")
    #expect(bin.iconID == 43)
    #expect(bin.enableSearching == .some(false))
    #expect(bin.enableAutoType == .some(false))
    #expect(database.parentGroupUUID(ofGroup: binUUID) == LibraryFixture.root)
    #expect(database.meta.recycleBinUUID == binUUID)
    #expect(database.meta.recycleBinChanged == LibraryFixture.later.time)
    let moved = try #require(database.entry(withUUID: LibraryFixture.ssh))
    #expect(database.parentGroupUUID(ofEntry: LibraryFixture.ssh) == binUUID)
    #expect(moved.previousParentGroup == LibraryFixture.servers)
    #expect(moved.times?.locationChanged == LibraryFixture.later.time)
    #expect(database.isInRecycleBin(entry: LibraryFixture.ssh))
    #expect(database.deletedObjects == [])
    // A second delete reuses the bin.
    #expect(
      database.deleteEntry(LibraryFixture.github, clock: LibraryFixture.later, random: &random) == .movedToRecycleBin)
    #expect(database.root?.groups.filter { $0.name == "Recycle Bin" }.count == 1)
  }

  @Test func deleteFromTheBinIsPermanentWithATombstone() {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 12)
    database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.clock, random: &random)
    #expect(
      database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.later, random: &random) == .deletedPermanently)
    #expect(database.entry(withUUID: LibraryFixture.ssh) == nil)
    #expect(
      database.deletedObjects == [DeletedObject(uuid: LibraryFixture.ssh, deletionTime: LibraryFixture.later.time)])
    #expect(database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.later, random: &random) == .notFound)
  }

  @Test func deleteWithTheBinDisabledIsPermanent() {
    var database = LibraryFixture.make()
    database.meta.recycleBinEnabled = false
    var random = SplitMix64(seed: 13)
    #expect(
      database.deleteEntry(LibraryFixture.github, clock: LibraryFixture.later, random: &random) == .deletedPermanently)
    #expect(database.recycleBinGroupUUID == nil)
    #expect(database.deletedObjects?.map(\.uuid) == [LibraryFixture.github])
  }

  @Test func deletingAGroupTwiceTombstonesEverythingInside() {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 14)
    #expect(
      database.deleteGroup(LibraryFixture.work, clock: LibraryFixture.clock, random: &random) == .movedToRecycleBin)
    #expect(database.isInRecycleBin(group: LibraryFixture.servers))
    #expect(database.isInRecycleBin(entry: LibraryFixture.ssh))
    #expect(database.group(withUUID: LibraryFixture.work)?.previousParentGroup == LibraryFixture.root)
    #expect(
      database.deleteGroup(LibraryFixture.work, clock: LibraryFixture.later, random: &random) == .deletedPermanently)
    #expect(database.group(withUUID: LibraryFixture.servers) == nil)
    #expect(
      Set(database.deletedObjects?.map(\.uuid) ?? [])
        == [LibraryFixture.work, LibraryFixture.servers, LibraryFixture.github, LibraryFixture.ssh])
    #expect(database.deletedObjects?.allSatisfy { $0.deletionTime == LibraryFixture.later.time } == true)
    #expect(database.flatEntries.count == 2)
  }

  @Test func theRootCannotBeDeletedAndTheBinItselfGoesPermanently() throws {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 15)
    #expect(database.deleteGroup(LibraryFixture.root, clock: LibraryFixture.later, random: &random) == .notFound)
    database.deleteEntry(LibraryFixture.cafe, clock: LibraryFixture.later, random: &random)
    let bin = try #require(database.recycleBinGroupUUID)
    #expect(database.deleteGroup(bin, clock: LibraryFixture.later, random: &random) == .deletedPermanently)
    #expect(Set(database.deletedObjects?.map(\.uuid) ?? []) == [bin, LibraryFixture.cafe])
    #expect(database.recycleBinGroupUUID == nil)
  }

  @Test func emptyingTheBinKeepsTheBinGroup() throws {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 16)
    database.deleteEntry(LibraryFixture.github, clock: LibraryFixture.clock, random: &random)
    database.deleteGroup(LibraryFixture.personal, clock: LibraryFixture.clock, random: &random)
    #expect(database.emptyRecycleBin(clock: LibraryFixture.later) == 3)
    let bin = try #require(database.recycleBinGroupUUID)
    #expect(database.group(withUUID: bin)?.entries.isEmpty == true)
    #expect(database.group(withUUID: bin)?.groups.isEmpty == true)
    #expect(
      Set(database.deletedObjects?.map(\.uuid) ?? []) == [
        LibraryFixture.github, LibraryFixture.personal, LibraryFixture.cafe,
      ])
    #expect(database.flatEntries.map { $0.entry.uuid } == [LibraryFixture.rootNote, LibraryFixture.ssh])
    #expect(database.emptyRecycleBin(clock: LibraryFixture.later) == 0)
  }

  @Test func movesRecordLocationChangedAndPreviousParent() {
    var database = LibraryFixture.make()
    let moved1 = database.moveEntry(LibraryFixture.cafe, to: LibraryFixture.servers, clock: LibraryFixture.later)
    #expect(moved1)
    #expect(database.parentGroupUUID(ofEntry: LibraryFixture.cafe) == LibraryFixture.servers)
    #expect(database.entry(withUUID: LibraryFixture.cafe)?.previousParentGroup == LibraryFixture.personal)
    #expect(database.entry(withUUID: LibraryFixture.cafe)?.times?.locationChanged == LibraryFixture.later.time)
    let moved2 = database.moveGroup(LibraryFixture.servers, to: LibraryFixture.personal, clock: LibraryFixture.later)
    #expect(moved2)
    #expect(database.parentGroupUUID(ofGroup: LibraryFixture.servers) == LibraryFixture.personal)
    #expect(database.group(withUUID: LibraryFixture.servers)?.previousParentGroup == LibraryFixture.work)
    #expect(database.group(withUUID: LibraryFixture.servers)?.times?.locationChanged == LibraryFixture.later.time)
    #expect(database.flatEntries.first { $0.entry.uuid == LibraryFixture.ssh }?.groupPath == ["Personal", "Servers"])
    // A group cannot move into itself or its own subtree; unknown targets are refused.
    let moved3 = database.moveGroup(LibraryFixture.personal, to: LibraryFixture.servers, clock: LibraryFixture.later)
    #expect(!moved3)
    let moved4 = database.moveGroup(LibraryFixture.personal, to: LibraryFixture.personal, clock: LibraryFixture.later)
    #expect(!moved4)
    let moved5 = database.moveEntry(LibraryFixture.ssh, to: LibraryFixture.uuid(0x7F), clock: LibraryFixture.later)
    #expect(!moved5)
    let moved6 = database.moveGroup(LibraryFixture.root, to: LibraryFixture.work, clock: LibraryFixture.later)
    #expect(!moved6)
  }

  @Test func childOrderStaysConsistentForTheWriter() {
    var database = LibraryFixture.make()
    database.modifyRootForTest { root in root.childOrder = [true, false, false] }
    var random = SplitMix64(seed: 17)
    database.deleteEntry(LibraryFixture.rootNote, clock: LibraryFixture.later, random: &random)
    // The root entry left (its `true` removed) and the bin group was appended (a `false` added).
    #expect(database.root?.childOrder == [false, false, false])
    #expect(database.root?.entries.isEmpty == true)
  }

  @Test func binStateSurvivesAnXMLRoundTrip() throws {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 18)
    database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.later, random: &random)
    database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.later, random: &random)
    database.deleteEntry(LibraryFixture.github, clock: LibraryFixture.later, random: &random)
    var writeStream = CountingStream()
    let document = DatabaseXMLWriter.write(database, version: .v4_1, stream: &writeStream)
    var readStream = CountingStream()
    let back = try DatabaseXMLReader.read(
      document: document, stream: &readStream, random: &random, gzip: NoGzipDecompressor())
    #expect(back.recycleBinGroupUUID == database.recycleBinGroupUUID)
    #expect(back.deletedObjects == database.deletedObjects)
    #expect(back.entry(withUUID: LibraryFixture.github)?.previousParentGroup == LibraryFixture.work)
    #expect(back.flatEntries == database.flatEntries)
  }
}

extension Database {
  fileprivate mutating func modifyRootForTest(_ body: (inout Group) -> Void) {
    if var tree = root {
      body(&tree)
      root = tree
    }
  }
}
