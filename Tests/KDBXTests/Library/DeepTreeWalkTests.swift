import KDBX
import KDBXXML
import Testing
import VectorSupport

/// The library's tree walks on trees far deeper than the open's cap (``LoadOptions/maxGroupDepth``), built through
/// the public API as an app may: every walk uses an explicit stack, so none runs out of stack (a recursive walk
/// did at about 50,000 levels on an 8 MiB stack, and much earlier on a small one). A refused save is fine here; a
/// crash is not. The trees are taken apart a group at a time at the end (``dismantle(_:)``): the runtime frees
/// nested arrays recursively.
@Suite struct DeepTreeWalkTests {
  static let clock = SaveLimitsTests.clock
  static let depth = 100_000

  /// Takes a tree apart a group at a time (any shape, unlike ``SaveLimitsTests/dismantle(_:)``, which follows one
  /// chain): each group's subgroups are moved out before it is released, so nothing is freed recursively.
  static func dismantle(_ database: inout Database) {
    var pending = database.root.take().map { [$0] } ?? []
    while var group = pending.popLast() {
      pending.append(contentsOf: group.groups)
      group.groups = []
    }
  }

  /// The group and entry at the bottom of a ``SaveLimitsTests/chain(depth:)``.
  static func bottom(of database: Database) -> (group: Group, entry: Entry)? {
    guard var current = database.root else { return nil }
    while let next = current.groups.first { current = next }
    guard let entry = current.entries.first else { return nil }
    return (current, entry)
  }

  @Test func lookupsListsAndSelectionsWalkAHundredThousandLevels() throws {
    var database = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&database) }
    let (deepest, entry) = try #require(Self.bottom(of: database))
    // Only the UUID: a copy of the top group would hold the chain past the dismantling.
    let top = try #require(database.root?.groups.first?.uuid)

    let groupPositions = database.positions(ofGroup: deepest.uuid)
    #expect(groupPositions.map { $0.indexPath.count } == [Self.depth - 1])
    #expect(database.group(withUUID: deepest.uuid)?.name == deepest.name)
    #expect(database.entry(withUUID: entry.uuid)?.title == "deepest")
    #expect(database.positions(ofEntry: entry.uuid).map { $0.group.indexPath.count } == [Self.depth - 1])
    #expect(database.parentGroupUUID(ofEntry: entry.uuid) == deepest.uuid)
    #expect(database.parentGroupUUID(ofGroup: deepest.uuid) != nil)
    #expect(database.isInRecycleBin(entry: entry.uuid) == false)

    let flat = database.flatEntries
    #expect(flat.count == 1)
    #expect(flat.first?.groupPath.count == Self.depth - 1)
    #expect(flat.first?.parentGroupUUID == deepest.uuid)

    var selection = GroupSelection()
    selection.select(top, in: database)
    #expect(selection.groups.count == Self.depth - 1)
    #expect(selection.contains(deepest.uuid))
    #expect(selection.topmostGroups(in: database) == [top])
    #expect(database.displayedEntries(selection: selection).count == 1)
    selection.deselect(top, in: database)
    #expect(selection.isEmpty)

    let trimmed = database.trimAllHistory()
    #expect(trimmed == 0)
    _ = database.compactingBinaries()
    let report = DowngradeReport(database: database, settings: SaveLimitsTests.settings, target: .v3_1)
    #expect(report.isEmpty)
  }

  @Test func editsAtTheBottomOfAHundredThousandLevels() throws {
    var database = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&database) }
    let (deepest, entry) = try #require(Self.bottom(of: database))
    var random = SplitMix64(seed: 11)

    let renamed = database.renameGroup(deepest.uuid, to: "renamed", clock: Self.clock)
    #expect(renamed)
    #expect(database.group(withUUID: deepest.uuid)?.name == "renamed")
    let edited = database.editEntry(entry.uuid, clock: Self.clock) { $0.title = "edited" }
    #expect(edited)
    #expect(database.entry(withUUID: entry.uuid)?.title == "edited")
    let added = try #require(database.addGroup(named: "below", in: deepest.uuid, clock: Self.clock, random: &random))
    #expect(database.positions(ofGroup: added).first?.indexPath.count == Self.depth)
    let root = try #require(database.root?.uuid)
    let movedUp = database.moveEntry(entry.uuid, to: root, clock: Self.clock)
    #expect(movedUp)
    #expect(database.root?.entries.map { $0.uuid } == [entry.uuid])
    let movedDown = database.moveEntry(entry.uuid, to: added, clock: Self.clock)
    #expect(movedDown)
    let movedGroup = database.moveGroup(added, to: root, clock: Self.clock)
    #expect(movedGroup)
    #expect(database.positions(ofGroup: added).first?.indexPath.count == 1)
  }

  /// Deleting the whole chain moves it into the recycle bin; emptying the bin frees it inside the library, which
  /// must free it a group at a time (nothing else holds the chain then).
  @Test func deletingAndEmptyingTheBinFreeAHundredThousandLevels() throws {
    var database = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&database) }
    var random = SplitMix64(seed: 12)
    let top = try #require(database.root?.groups.first?.uuid)
    let outcome = database.deleteGroup(top, clock: Self.clock, random: &random)
    #expect(outcome == .movedToRecycleBin)
    let bin = try #require(database.recycleBinPosition)
    #expect(database.group(at: bin)?.groups.first?.uuid == top)
    #expect(database.isInRecycleBin(group: top))
    // The chain's groups below the root and its one entry.
    let emptied = database.emptyRecycleBin(clock: Self.clock)
    #expect(emptied == Self.depth)
    #expect(database.group(withUUID: top) == nil)
    #expect(database.deletedObjects?.count == Self.depth)
  }

  @Test func mergesWalkAHundredThousandLevels() throws {
    // Every database is a variable, taken apart at the end: each holds a tree of its own.
    var local = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&local) }
    let (_, entry) = try #require(Self.bottom(of: local))
    var remote = local
    defer { Self.dismantle(&remote) }
    let later = FixedClock(Timestamp(unixSeconds: 1_800_000_000))
    let edited = remote.editEntry(entry.uuid, clock: later) { $0.title = "remote" }
    #expect(edited)

    var merged = DatabaseMerge.synchronize(local: local, remote: remote).database
    defer { Self.dismantle(&merged) }
    #expect(merged.entry(withUUID: entry.uuid)?.title == "remote")
    #expect(merged.root?.nestingDepth == Self.depth)

    var threeWay = DatabaseMerge.threeWay(base: local, local: local, remote: remote, now: later.now()).database
    defer { Self.dismantle(&threeWay) }
    #expect(threeWay.entry(withUUID: entry.uuid)?.title == "remote")
    #expect(threeWay.root?.nestingDepth == Self.depth)
  }

  /// `==` on databases and groups compares a hundred thousand levels: equal trees built apart (no storage shared,
  /// so every level is looked at), then a difference at the bottom. The synthesised `==` recursed once per level.
  @Test func equalityComparesAHundredThousandLevels() throws {
    var left = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&left) }
    var right = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&right) }
    // Compared outside `#expect`, which would describe a hundred thousand levels if it failed.
    let equal = left == right
    let rootsEqual = left.root == right.root
    #expect(equal)
    #expect(rootsEqual)
    let entry = try #require(Self.bottom(of: right)?.entry.uuid)
    let edited = right.editEntry(entry, clock: Self.clock) { $0.title = "changed" }
    #expect(edited)
    let stillEqual = left == right
    let rootsStillEqual = left.root == right.root
    #expect(!stillEqual)
    #expect(!rootsStillEqual)
  }

  /// History nested a hundred thousand versions deep, as an app can build it (a file cannot: the open keeps a
  /// version's own history as unknown XML). The walks over the versions (the history size, the attachment
  /// compaction with its renumbering, the version requirements) use explicit stacks; they recursed once per
  /// version. (The save, the merges and the trim move such versions up into the entry's list: NestedHistoryTests.)
  @Test func historyNestedAHundredThousandDeep() throws {
    var random = SplitMix64(seed: 13)
    var database = Database.new(name: "Root", clock: Self.clock, random: &random)
    var version = Entry.new(clock: Self.clock, random: &random)
    // The pool's first binary is unused, so compaction renumbers every attachment (and walks every version).
    version.attachments = [Attachment(name: "a.txt", binaryIndex: 1)]
    let single = version.approximateSize(binaries: BinaryPool())
    for _ in 0..<Self.depth {
      var outer = version
      outer.history = [version]
      version = outer
    }
    let size = version.approximateSize(binaries: BinaryPool())
    database.root?.entries = [version]
    // Only the database holds the chain from here on: it is taken apart at the end.
    version = Entry(uuid: .zero)
    database.binaries = BinaryPool(binaries: [BinaryPool.Binary(data: [1]), BinaryPool.Binary(data: [2, 2])])
    /// Takes every entry's history apart a version at a time: the runtime frees nested arrays recursively.
    func dismantle(_ database: inout Database) {
      var pending: [Entry] = []
      if var root = database.root {
        database.root = nil
        pending = root.entries
        root.entries = []
      }
      while var next = pending.popLast() {
        pending.append(contentsOf: next.history ?? [])
        next.history = nil
      }
    }
    defer { dismantle(&database) }

    #expect(size == single * (Self.depth + 1))
    var compacted = database.compactingBinaries()
    defer { dismantle(&compacted) }
    var bottom = compacted.root?.entries.first
    while let next = bottom?.history?.first { bottom = next }
    #expect(bottom?.attachments.first?.binaryIndex == 0)
    #expect(compacted.binaries.count == 1)
    _ = VersionRequirements.minimumVersion(for: database, settings: SaveLimitsTests.settings)
  }

  @Test func theSaveRefusesAHundredThousandLevelsWithoutACrash() throws {
    var database = SaveLimitsTests.chain(depth: Self.depth)
    defer { Self.dismantle(&database) }
    #expect(throws: KDBXError.self) { try SaveLimitsTests.save(database) }
  }

  /// The walks whose results name every group's whole path (so a deep tree makes them quadratic: the group
  /// picker's list), with everything above, on a thread with a 256 KiB stack: 3,000 levels overflow such a stack
  /// in a recursive walk. (The JSON export's walk: `VaultJSONExportTests` in KDBXImportTests.)
  #if canImport(Glibc) || canImport(Musl)
    @Test func pathListsAndExportRunOnASmallStack() throws {
      var database = SaveLimitsTests.chain(depth: 3_000)
      defer { Self.dismantle(&database) }
      let run = SmallStackRun { [database] in
        var out: [Int] = []
        let paths = database.groupsByPath
        out.append(paths.count)
        out.append(paths.last?.path.count ?? -1)
        out.append(database.flatEntries.first?.groupPath.count ?? -1)
        if let uuid = database.flatEntries.first?.entry.uuid {
          out.append(database.positions(ofEntry: uuid).first?.group.indexPath.count ?? -1)
        }
        var selection = GroupSelection()
        if let root = database.root { selection.select(root.uuid, in: database) }
        out.append(selection.topmostGroups(in: database).count)
        return out
      }
      let results = try #require(run.wait(stackBytes: 256 * 1024))
      #expect(results == [3_000, 2_999, 2_999, 2_999, 1])
    }
  #endif
}
