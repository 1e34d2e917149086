import KDBX
import Testing

@Suite("Merge: two-way synchronize")
struct MergeTests {
  typealias F = MergeFixture

  @Test func identicalDatabasesMergeToNoChange() {
    let base = F.base()
    let result = DatabaseMerge.synchronize(local: base, remote: base)
    #expect(result.report.isEmpty)
    #expect(result.database == base)
  }

  @Test func newEntriesOnBothSidesAreKept() {
    var local = F.base()
    var remote = F.base()
    F.addEntry(&local, F.entry(F.uuid(21), title: "local new", at: 10), to: F.groupA)
    F.addEntry(&remote, F.entry(F.uuid(22), title: "remote new", at: 20), to: F.groupB)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.parent(of: F.uuid(21), in: result.database) == F.groupA)
    #expect(F.parent(of: F.uuid(22), in: result.database) == F.groupB)
    #expect(
      result.report.changes == [
        MergeChange(object: .entry, uuid: F.uuid(22), action: .added(parent: F.groupB), path: ["B", "remote new"])
      ])
  }

  @Test func sameEntryEditedOnBothSidesNewerWinsOlderGoesToHistory() throws {
    var local = F.base()
    var remote = F.base()
    F.setPassword(&local, F.entry1, "local edit", at: 100)
    F.setPassword(&remote, F.entry1, "remote edit", at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    let merged = try #require(F.entry(F.entry1, in: result.database))
    #expect(merged[field: "Password"]?.reveal() == "remote edit")
    let history = (merged.history ?? []).map { $0[field: "Password"]?.reveal() ?? "" }
    #expect(history == ["secret", "local edit"], "the original and the older local version are both kept")
    #expect(result.report.changes(for: F.entry1).map(\.action) == [.updated, .historyMerged(count: 1)])

    // The other way round, the local edit is newer and stays; the remote one goes to history.
    let reverse = DatabaseMerge.synchronize(local: remote, remote: local)
    let kept = try #require(F.entry(F.entry1, in: reverse.database))
    #expect(kept[field: "Password"]?.reveal() == "remote edit")
    #expect((kept.history ?? []).map { $0[field: "Password"]?.reveal() ?? "" } == ["secret", "local edit"])
    #expect(reverse.report.changes(for: F.entry1).map(\.action) == [.keptLocal, .historyMerged(count: 1)])
  }

  @Test func sameTimeDifferentContentKeepsLocalAndRecordsRemoteInHistory() throws {
    var local = F.base()
    var remote = F.base()
    F.setPassword(&local, F.entry1, "L", at: 100)
    F.setPassword(&remote, F.entry1, "R", at: 100)
    let merged = try #require(F.entry(F.entry1, in: DatabaseMerge.synchronize(local: local, remote: remote).database))
    #expect(merged[field: "Password"]?.reveal() == "L")
    #expect((merged.history ?? []).contains { $0[field: "Password"]?.reveal() == "R" })
  }

  @Test func editNewerThanRemoteDeletionSurvives() throws {
    var local = F.base()
    var remote = F.base()
    F.delete(&remote, F.entry1, at: 100)
    F.setPassword(&local, F.entry1, "edited after the deletion", at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.password(F.entry1, in: result.database) == "edited after the deletion")
    #expect(!(result.database.deletedObjects ?? []).contains { $0.uuid == F.entry1 }, "tombstone dropped")
    #expect(result.report.changes(for: F.entry1).map(\.action) == [.deletionOverridden])
  }

  @Test func remoteEditNewerThanLocalDeletionComesBack() throws {
    var local = F.base()
    var remote = F.base()
    F.delete(&local, F.entry1, at: 100)
    F.setPassword(&remote, F.entry1, "edited after the deletion", at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.password(F.entry1, in: result.database) == "edited after the deletion")
    #expect(F.parent(of: F.entry1, in: result.database) == F.groupA)
    #expect(!(result.database.deletedObjects ?? []).contains { $0.uuid == F.entry1 })
    #expect(
      result.report.changes(for: F.entry1).map(\.action) == [.added(parent: F.groupA), .deletionOverridden])
  }

  @Test func deletionNewerThanEditWins() {
    var local = F.base()
    var remote = F.base()
    F.setPassword(&local, F.entry1, "old edit", at: 100)
    F.delete(&remote, F.entry1, at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.entry(F.entry1, in: result.database) == nil)
    #expect((result.database.deletedObjects ?? []).contains { $0.uuid == F.entry1 })
    #expect(
      result.report.changes(for: F.entry1).map(\.action) == [.deleted, .recorded])
  }

  @Test func moveAgainstEditKeepsBoth() throws {
    var local = F.base()
    var remote = F.base()
    F.move(&local, F.entry1, to: F.groupB, at: 150)
    F.setPassword(&remote, F.entry1, "edited remotely", at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.parent(of: F.entry1, in: result.database) == F.groupB, "the local move stays")
    #expect(F.password(F.entry1, in: result.database) == "edited remotely", "the remote edit arrives")
    // And the mirror case: moved remotely, edited locally.
    let mirror = DatabaseMerge.synchronize(local: remote, remote: local)
    #expect(F.parent(of: F.entry1, in: mirror.database) == F.groupB)
    #expect(F.password(F.entry1, in: mirror.database) == "edited remotely")
    #expect(mirror.report.changes(for: F.entry1).map(\.action) == [.moved(from: F.groupA, to: F.groupB)])
  }

  @Test func olderMoveDoesNotWin() {
    var local = F.base()
    var remote = F.base()
    F.move(&remote, F.entry1, to: F.groupB, at: 100)
    F.move(&local, F.entry1, to: F.root, at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.parent(of: F.entry1, in: result.database) == F.root)
  }

  @Test func groupDeletionKeepsEntriesEditedOnTheOtherSide() {
    var local = F.base()
    var remote = F.base()
    F.delete(&remote, F.groupA, at: 100)
    F.setPassword(&local, F.entry1, "edited after the group was deleted", at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.parent(of: F.entry1, in: result.database) == F.groupA, "group kept for its surviving entry")
    #expect(F.entry(F.entry2, in: result.database) == nil, "the unedited entry is deleted")
    let tombstones = Set((result.database.deletedObjects ?? []).map(\.uuid))
    #expect(tombstones == [F.entry2])
    #expect(result.report.changes(for: F.groupA).map(\.action) == [.deletionOverridden])
    #expect(result.report.changes(for: F.entry2).map(\.action) == [.deleted, .recorded])
  }

  @Test func emptyDeletedGroupIsRemoved() {
    var local = F.base()
    var remote = F.base()
    F.delete(&remote, F.groupB, at: 100)
    F.setPassword(&local, F.entry1, "unrelated", at: 50)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.group(F.groupB, in: result.database) == nil)
    #expect(F.entry(F.entry3, in: result.database) == nil)
  }

  @Test func groupRenameAndMoveFollowTheirTimestamps() throws {
    let local = F.base()
    var remote = F.base()
    F.mutate(&remote) { group in
      if group.uuid == F.groupB {
        group.name = "B renamed"
        group.times?.lastModificationTime = F.time(100)
      }
    }
    // Move B under A remotely.
    var moved: Group?
    F.mutate(&remote) { group in
      if let index = group.groups.firstIndex(where: { $0.uuid == F.groupB }) {
        moved = group.groups.remove(at: index)
        group.childOrder = group.entries.map { _ in true } + group.groups.map { _ in false }
      }
    }
    moved?.times?.locationChanged = F.time(100)
    F.mutate(&remote) { group in
      if group.uuid == F.groupA, let moved {
        group.groups.append(moved)
        group.childOrder.append(false)
      }
    }
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    let a = try #require(F.group(F.groupA, in: result.database))
    #expect(a.groups.map(\.uuid) == [F.groupB])
    #expect(a.groups.first?.name == "B renamed")
    #expect(F.parent(of: F.entry3, in: result.database) == F.groupB)
    #expect(
      result.report.changes(for: F.groupB).map(\.action) == [.updated, .moved(from: F.root, to: F.groupA)])
    _ = local
  }

  @Test func crossedGroupMovesDoNotMakeACycle() throws {
    // Local moves A under B (t=100); remote moves B under A (t=200). The newer move cannot apply without a
    // cycle once A is under B... the merge must keep every group reachable from the root.
    func moveGroup(_ database: inout Database, _ id: KDBXUUID, under target: KDBXUUID, at seconds: Int64) {
      var moved: Group?
      F.mutate(&database) { group in
        if let index = group.groups.firstIndex(where: { $0.uuid == id }) {
          moved = group.groups.remove(at: index)
          group.childOrder = group.entries.map { _ in true } + group.groups.map { _ in false }
        }
      }
      moved?.times?.locationChanged = F.time(seconds)
      F.mutate(&database) { group in
        if group.uuid == target, let moved {
          group.groups.append(moved)
          group.childOrder.append(false)
        }
      }
    }
    var local = F.base()
    var remote = F.base()
    moveGroup(&local, F.groupA, under: F.groupB, at: 100)
    moveGroup(&remote, F.groupB, under: F.groupA, at: 200)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    let root = try #require(result.database.root)
    #expect(Set(F.allGroupIDs(root)) == [F.root, F.groupA, F.groupB])
    #expect(Set(F.allEntryIDs(root)) == [F.entry1, F.entry2, F.entry3])
  }

  @Test func independentDatabasesMergeRootIntoRoot() throws {
    let local = F.base()
    var remoteRoot = F.group(F.uuid(90), name: "Other root")
    remoteRoot.entries = [F.entry(F.uuid(91), title: "from elsewhere", at: 5)]
    remoteRoot.childOrder = [true]
    let remote = Database(meta: Meta(), root: remoteRoot)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(result.database.root?.uuid == F.root)
    #expect(F.parent(of: F.uuid(91), in: result.database) == F.root)
  }

  @Test func attachmentsAreCopiedIntoTheLocalPool() throws {
    let local = F.base()
    var remote = F.base()
    var entry = F.entry(F.uuid(30), title: "with file", at: 10)
    entry.attachments = [remote.makeAttachment(name: "a.txt", data: Array("remote bytes".utf8))]
    F.addEntry(&remote, entry, to: F.groupA)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    let merged = try #require(F.entry(F.uuid(30), in: result.database))
    let attachment = try #require(merged.attachments.first)
    #expect(result.database.contents(of: attachment) == Array("remote bytes".utf8))
  }

  @Test func metaFieldsFollowTheirChangedTimestamps() {
    var local = F.base()
    var remote = F.base()
    remote.meta.databaseName = "renamed remotely"
    remote.meta.databaseNameChanged = F.time(100)
    remote.meta.defaultUserName = "older"
    remote.meta.defaultUserNameChanged = F.time(10)
    local.meta.defaultUserName = "newer"
    local.meta.defaultUserNameChanged = F.time(20)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(result.database.meta.databaseName == "renamed remotely")
    #expect(result.database.meta.defaultUserName == "newer")
    #expect(result.report.changes == [MergeChange(object: .meta, uuid: nil, action: .metaField("DatabaseName"))])
  }

  @Test func customIconsAreUnitedByUUID() {
    var local = F.base()
    var remote = F.base()
    local.meta.customIcons = [CustomIcon(uuid: F.uuid(50), data: [1], lastModificationTime: F.time(10))]
    remote.meta.customIcons = [
      CustomIcon(uuid: F.uuid(50), data: [2], lastModificationTime: F.time(20)),
      CustomIcon(uuid: F.uuid(51), data: [3]),
    ]
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(result.database.meta.customIcons?.map(\.data) == [[2], [3]])
    #expect(
      result.report.changes == [
        MergeChange(object: .customIcon, uuid: F.uuid(50), action: .updated),
        MergeChange(object: .customIcon, uuid: F.uuid(51), action: .added(parent: nil)),
      ])
  }

  @Test func keepNewerModeAppliesNoDeletions() {
    var local = F.base()
    var remote = F.base()
    F.delete(&remote, F.entry1, at: 100)
    F.delete(&local, F.entry3, at: 100)
    let result = DatabaseMerge.synchronize(local: local, remote: remote, mode: .keepNewer)
    #expect(F.entry(F.entry1, in: result.database) != nil, "KeePassXC's KeepNewer ignores the remote tombstone")
    #expect(F.entry(F.entry3, in: result.database) != nil, "and brings a locally deleted entry back")
    #expect(result.database.deletedObjects == local.deletedObjects)
    #expect(
      result.report.changes == [
        MergeChange(object: .entry, uuid: F.entry3, action: .added(parent: F.groupB), path: ["B", "three"])
      ])
    let synchronized = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(F.entry(F.entry1, in: synchronized.database) == nil)
    #expect(F.entry(F.entry3, in: synchronized.database) == nil)
  }

  @Test func mergingAgainIsANoOpAndDryRunMatches() {
    var local = F.base()
    var remote = F.base()
    F.setPassword(&local, F.entry1, "L", at: 100)
    F.setPassword(&remote, F.entry2, "R", at: 100)
    F.delete(&remote, F.entry3, at: 50)
    F.addEntry(&remote, F.entry(F.uuid(40), title: "new"), to: F.root)
    let result = DatabaseMerge.synchronize(local: local, remote: remote)
    #expect(DatabaseMerge.synchronizeDryRun(local: local, remote: remote) == result.report)
    #expect(result.report.changes.count == 5)
    let again = DatabaseMerge.synchronize(local: result.database, remote: remote)
    #expect(again.report.isEmpty, "\(again.report.changes)")
    #expect(again.database == result.database)
    // Merging the result into the remote side gives the same objects.
    let other = DatabaseMerge.synchronize(local: remote, remote: result.database)
    #expect(
      Set(other.database.root.map(F.allEntryIDs) ?? []) == Set(result.database.root.map(F.allEntryIDs) ?? []))
  }
}
