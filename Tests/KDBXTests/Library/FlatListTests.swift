import KDBX
import Testing
import VectorSupport

/// A small tree shared by the library feature tests:
///
/// ```
/// Vault (root)          "Root note"
/// ├── Work              "GitHub" (octo, https://github.com/login, tags dev;code, notes "Crème brûlée")
/// │   └── Servers       "SSH box" (root, ssh://10.0.0.1:2222)
/// └── Personal          "Café Zürich" (Jürgen, protected password "s3cret", protected custom "PIN" 4711)
/// ```
enum LibraryFixture {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_600_000_000))
  static let later = FixedClock(Timestamp(unixSeconds: 1_700_000_000))

  static func uuid(_ byte: UInt8) -> KDBXUUID { KDBXUUID(bytes: [UInt8](repeating: byte, count: 16)) ?? .zero }
  static let root = uuid(0x10)
  static let work = uuid(0x11)
  static let servers = uuid(0x12)
  static let personal = uuid(0x13)
  static let rootNote = uuid(0x20)
  static let github = uuid(0x21)
  static let ssh = uuid(0x22)
  static let cafe = uuid(0x23)

  static func entry(
    _ id: KDBXUUID, title: String, user: String = "", url: String = "", notes: String = "", tags: String? = nil,
    password: String = "", random: inout SplitMix64
  ) -> Entry {
    var entry = Entry.new(clock: clock, random: &random)
    entry.uuid = id
    entry[field: Entry.titleField] = .plain(title)
    entry[field: Entry.userNameField] = .plain(user)
    entry[field: Entry.urlField] = .plain(url)
    entry[field: Entry.notesField] = .plain(notes)
    entry[field: Entry.passwordField] = .protected(ProtectedValue(password, using: &random))
    entry.tagsText = tags
    return entry
  }

  static func group(_ id: KDBXUUID, _ name: String, random: inout SplitMix64) -> Group {
    var group = Group.new(name: name, clock: clock, random: &random)
    group.uuid = id
    return group
  }

  static func make() -> Database {
    var random = SplitMix64(seed: 900)
    var database = Database.new(name: "Vault", clock: clock, random: &random)
    database.root?.uuid = root
    database.root?.entries.append(entry(rootNote, title: "Root note", random: &random))
    var work = group(work, "Work", random: &random)
    work.entries.append(
      entry(
        github, title: "GitHub", user: "octo", url: "https://github.com/login", notes: "Crème brûlée",
        tags: "dev;code", password: "hunter2", random: &random))
    var servers = group(servers, "Servers", random: &random)
    servers.entries.append(
      entry(ssh, title: "SSH box", user: "root", url: "ssh://10.0.0.1:2222", password: "toor", random: &random))
    work.groups.append(servers)
    var personal = group(personal, "Personal", random: &random)
    var cafe = entry(cafe, title: "Café Zürich", user: "Jürgen", password: "s3cret", random: &random)
    cafe[field: "PIN"] = .protected(ProtectedValue("4711", using: &random))
    cafe[field: "Loyalty"] = .plain("gold member")
    personal.entries.append(cafe)
    database.root?.groups = [work, personal]
    return database
  }
}

@Suite struct FlatListTests {
  @Test func everyEntryHasItsGroupPathWithoutTheRoot() {
    let flat = LibraryFixture.make().flatEntries
    #expect(
      flat.map { $0.entry.uuid } == [
        LibraryFixture.rootNote, LibraryFixture.github, LibraryFixture.ssh, LibraryFixture.cafe,
      ])
    #expect(flat.map(\.groupPath) == [[], ["Work"], ["Work", "Servers"], ["Personal"]])
    #expect(flat[2].groupPathUUIDs == [LibraryFixture.work, LibraryFixture.servers])
    #expect(flat[0].parentGroupUUID == LibraryFixture.root)
    #expect(flat[2].parentGroupUUID == LibraryFixture.servers)
    #expect(flat.allSatisfy { !$0.isInRecycleBin })
  }

  @Test func emptyDatabaseHasNoEntries() {
    #expect(Database(root: nil).flatEntries.isEmpty)
    #expect(Database(root: Group(uuid: .zero, name: "Root")).flatEntries.isEmpty)
  }

  @Test func recycleBinEntriesAreFlaggedAndHiddenUnlessAsked() {
    var database = LibraryFixture.make()
    var random = SplitMix64(seed: 1)
    #expect(
      database.deleteEntry(LibraryFixture.ssh, clock: LibraryFixture.later, random: &random) == .movedToRecycleBin)
    let flat = database.flatEntries
    let binned = flat.first { $0.entry.uuid == LibraryFixture.ssh }
    #expect(binned?.isInRecycleBin == true)
    #expect(binned?.groupPath == ["Recycle Bin"])
    #expect(!database.displayedEntries().contains { $0.entry.uuid == LibraryFixture.ssh })
    #expect(database.displayedEntries().count == 3)
    let all = database.displayedEntries(search: EntrySearch(includesRecycleBin: true))
    #expect(all.contains { $0.entry.uuid == LibraryFixture.ssh })
  }

  @Test func displayedEntriesAreGroupFilterAndSearch() {
    let database = LibraryFixture.make()
    var selection = GroupSelection()
    selection.select(LibraryFixture.work, in: database)
    // Work and Servers are selected: their direct entries show, the root entry and Personal do not.
    #expect(
      database.displayedEntries(selection: selection).map { $0.entry.uuid } == [
        LibraryFixture.github, LibraryFixture.ssh,
      ])
    let search = EntrySearch(text: "ROOT")
    // "root" is the SSH user name; the root note's title also matches but is outside the selection.
    #expect(
      database.displayedEntries(selection: selection, search: search).map { $0.entry.uuid } == [LibraryFixture.ssh])
    #expect(
      database.displayedEntries(search: search).map { $0.entry.uuid } == [LibraryFixture.rootNote, LibraryFixture.ssh])
  }

  @Test func defaultGroupForANewEntry() {
    let database = LibraryFixture.make()
    var selection = GroupSelection()
    #expect(selection.defaultGroupForNewEntry(in: database) == LibraryFixture.root)
    selection.select(LibraryFixture.work, in: database)
    // Work's subtree (Servers) is selected with it, Work is still the sole selected group.
    #expect(selection.defaultGroupForNewEntry(in: database) == LibraryFixture.work)
    selection.select(LibraryFixture.personal, in: database)
    #expect(selection.defaultGroupForNewEntry(in: database) == LibraryFixture.root)
    selection.deselect(LibraryFixture.work, in: database)
    #expect(selection.defaultGroupForNewEntry(in: database) == LibraryFixture.personal)
    #expect(GroupSelection().defaultGroupForNewEntry(in: Database(root: nil)) == nil)
  }
}
