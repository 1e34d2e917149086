import KDBX
import Testing

@Suite struct GroupSelectionTests {
  @Test func selectingAGroupSelectsItsSubtree() {
    let database = LibraryFixture.make()
    var selection = GroupSelection()
    #expect(selection.isEmpty)
    selection.select(LibraryFixture.work, in: database)
    #expect(selection.groups == [LibraryFixture.work, LibraryFixture.servers])
    #expect(!selection.contains(LibraryFixture.personal))
  }

  @Test func deselectingAParentDeselectsTheSubtree() {
    let database = LibraryFixture.make()
    var selection = GroupSelection()
    selection.select(LibraryFixture.root, in: database)
    #expect(selection.groups.count == 4)
    selection.deselect(LibraryFixture.work, in: database)
    #expect(selection.groups == [LibraryFixture.root, LibraryFixture.personal])
    selection.deselect(LibraryFixture.root, in: database)
    #expect(selection.isEmpty)
  }

  @Test func deselectingAChildKeepsTheParent() {
    let database = LibraryFixture.make()
    var selection = GroupSelection()
    selection.select(LibraryFixture.work, in: database)
    selection.deselect(LibraryFixture.servers, in: database)
    #expect(selection.groups == [LibraryFixture.work])
    #expect(selection.topmostGroups(in: database) == [LibraryFixture.work])
  }

  @Test func emptySelectionDoesNotFilter() {
    let selection = GroupSelection()
    #expect(selection.admits(parent: LibraryFixture.personal))
    #expect(LibraryFixture.make().displayedEntries(selection: selection).count == 4)
  }

  @Test func toggleAndUnknownGroups() {
    let database = LibraryFixture.make()
    var selection = GroupSelection()
    selection.select(LibraryFixture.uuid(0x7F), in: database)
    #expect(selection.isEmpty)
    selection.toggle(LibraryFixture.personal, in: database)
    #expect(selection.groups == [LibraryFixture.personal])
    selection.toggle(LibraryFixture.personal, in: database)
    #expect(selection.isEmpty)
    selection.select(LibraryFixture.servers, in: database)
    selection.removeAll()
    #expect(selection.isEmpty)
  }

  @Test func aNewEntryGoesToTheDefaultGroup() throws {
    var database = LibraryFixture.make()
    var selection = GroupSelection()
    selection.select(LibraryFixture.personal, in: database)
    let target = try #require(selection.defaultGroupForNewEntry(in: database))
    let added = database.addEntry(Entry(uuid: LibraryFixture.uuid(0x30)), to: target)
    #expect(added)
    #expect(database.parentGroupUUID(ofEntry: LibraryFixture.uuid(0x30)) == LibraryFixture.personal)
    let refused = database.addEntry(Entry(uuid: LibraryFixture.uuid(0x31)), to: LibraryFixture.uuid(0x7F))
    #expect(!refused)
  }
}
