import KDBX
import Testing

@Suite("Merge: three-way with a common ancestor")
struct MergeThreeWayTests {
  typealias F = MergeFixture
  static let clock = FixedClock(F.time(1_000))

  static func merge(_ base: Database, _ local: Database, _ remote: Database) -> MergeResult {
    DatabaseMerge.threeWay(base: base, local: local, remote: remote, now: clock.now())
  }

  @Test func unchangedSidesMergeToNoChange() {
    let base = F.base()
    let result = Self.merge(base, base, base)
    #expect(result.report.isEmpty)
    #expect(result.database == base)
  }

  @Test func aChangeOnOneSideIsTakenWhateverItsClock() {
    let base = F.base()
    var local = base
    var remote = base
    // The local clock ran ahead for an unrelated entry; the remote edit has an older time stamp than that, and
    // is taken anyway because the local side did not touch entry 1.
    F.setPassword(&local, F.entry2, "local", at: 500)
    F.setPassword(&remote, F.entry1, "remote", at: 5)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts.isEmpty)
    #expect(F.password(F.entry1, in: result.database) == "remote")
    #expect(F.password(F.entry2, in: result.database) == "local")
  }

  @Test func sameEntryEditedOnBothSidesIsAConflict() throws {
    let base = F.base()
    var local = base
    var remote = base
    F.setPassword(&local, F.entry1, "local edit", at: 100)
    F.setPassword(&remote, F.entry1, "remote edit", at: 200)
    let result = Self.merge(base, local, remote)
    let conflict = try #require(result.report.conflicts.first)
    #expect(result.report.conflicts.count == 1)
    #expect(conflict.uuid == F.entry1 && conflict.kind == .editedOnBothSides && conflict.object == .entry)
    #expect(conflict.remoteEntry?[field: "Password"]?.reveal() == "remote edit")
    let merged = try #require(F.entry(F.entry1, in: result.database))
    #expect(merged[field: "Password"]?.reveal() == "local edit", "not decided by the newer clock")
    #expect((merged.history ?? []).contains { $0[field: "Password"]?.reveal() == "remote edit" }, "nothing lost")
  }

  @Test func theSameEditOnBothSidesIsNotAConflict() {
    let base = F.base()
    var local = base
    var remote = base
    F.setPassword(&local, F.entry1, "same", at: 100)
    F.setPassword(&remote, F.entry1, "same", at: 100)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts.isEmpty)
    #expect(result.report.changes.isEmpty)
  }

  @Test func localDeletionAgainstRemoteEditIsAConflictAndKeepsTheEntry() {
    let base = F.base()
    var local = base
    var remote = base
    F.delete(&local, F.entry1, at: 300)
    F.setPassword(&remote, F.entry1, "remote edit", at: 200)
    let result = Self.merge(base, local, remote)
    #expect(
      result.report.conflicts.map(\.kind) == [.deletedLocallyEditedRemotely]
        && result.report.conflicts.first?.uuid == F.entry1)
    #expect(F.password(F.entry1, in: result.database) == "remote edit")
    #expect(!(result.database.deletedObjects ?? []).contains { $0.uuid == F.entry1 })
  }

  @Test func localEditAgainstRemoteDeletionIsAConflictAndKeepsTheEntry() {
    let base = F.base()
    var local = base
    var remote = base
    F.setPassword(&local, F.entry1, "local edit", at: 100)
    F.delete(&remote, F.entry1, at: 200)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts.map(\.kind) == [.editedLocallyDeletedRemotely])
    #expect(F.password(F.entry1, in: result.database) == "local edit")
  }

  @Test func aDeletionOfAnUnchangedEntryApplies() {
    let base = F.base()
    let local = base
    var remote = base
    F.delete(&remote, F.entry3, at: 200)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts.isEmpty)
    #expect(F.entry(F.entry3, in: result.database) == nil)
    #expect((result.database.deletedObjects ?? []).contains { $0.uuid == F.entry3 })
    #expect(result.report.changes(for: F.entry3).map(\.action) == [.deleted, .recorded])
  }

  @Test func moveAgainstEditAppliesBoth() {
    let base = F.base()
    var local = base
    var remote = base
    F.move(&local, F.entry1, to: F.groupB, at: 300)
    F.setPassword(&remote, F.entry1, "remote edit", at: 200)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts.isEmpty)
    #expect(F.parent(of: F.entry1, in: result.database) == F.groupB)
    #expect(F.password(F.entry1, in: result.database) == "remote edit")
    let mirror = Self.merge(base, remote, local)
    #expect(mirror.report.conflicts.isEmpty)
    #expect(F.parent(of: F.entry1, in: mirror.database) == F.groupB)
    #expect(F.password(F.entry1, in: mirror.database) == "remote edit")
  }

  @Test func movesToDifferentGroupsAreAConflict() {
    let base = F.base()
    var local = base
    var remote = base
    F.move(&local, F.entry1, to: F.groupB, at: 100)
    F.move(&remote, F.entry1, to: F.root, at: 200)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts.map(\.kind) == [.movedToDifferentGroups(local: F.groupB, remote: F.root)])
    #expect(F.parent(of: F.entry1, in: result.database) == F.groupB)
  }

  @Test func newEntriesOnBothSidesAreKept() {
    let base = F.base()
    var local = base
    var remote = base
    F.addEntry(&local, F.entry(F.uuid(21), title: "local new", at: 10), to: F.groupA)
    F.addEntry(&remote, F.entry(F.uuid(22), title: "remote new", at: 20), to: F.groupB)
    F.addEntry(&local, F.entry(F.uuid(23), title: "same UUID, local", at: 10), to: F.root)
    F.addEntry(&remote, F.entry(F.uuid(23), title: "same UUID, remote", at: 20), to: F.root)
    let result = Self.merge(base, local, remote)
    #expect(F.parent(of: F.uuid(21), in: result.database) == F.groupA)
    #expect(F.parent(of: F.uuid(22), in: result.database) == F.groupB)
    #expect(result.report.conflicts.map(\.kind) == [.addedOnBothSides])
    #expect(result.report.conflicts.first?.uuid == F.uuid(23))
  }

  @Test func groupDeletionWithAnEntryEditedOnTheOtherSide() {
    let base = F.base()
    var local = base
    var remote = base
    F.delete(&remote, F.groupA, at: 100)
    F.setPassword(&local, F.entry1, "edited", at: 200)
    let result = Self.merge(base, local, remote)
    let conflicts = result.report.conflicts.map { ($0.object, $0.uuid, $0.kind) }
    #expect(conflicts.count == 2)
    #expect(conflicts.contains { $0 == (.entry, F.entry1, .editedLocallyDeletedRemotely) })
    #expect(conflicts.contains { $0 == (.group, F.groupA, .editedLocallyDeletedRemotely) })
    #expect(F.parent(of: F.entry1, in: result.database) == F.groupA)
    #expect(F.entry(F.entry2, in: result.database) == nil)
  }

  @Test func remoteAdditionInsideALocallyDeletedGroupBringsTheGroupBack() {
    let base = F.base()
    var local = base
    var remote = base
    F.delete(&local, F.groupB, at: 100)
    F.addEntry(&remote, F.entry(F.uuid(24), title: "new in B", at: 50), to: F.groupB)
    let result = Self.merge(base, local, remote)
    #expect(F.parent(of: F.uuid(24), in: result.database) == F.groupB)
    #expect(result.report.conflicts.map(\.kind) == [.deletedLocallyEditedRemotely])
    #expect(F.entry(F.entry3, in: result.database) == nil, "the unchanged entry of B stays deleted")
  }

  @Test func metaFieldsChangedOnBothSidesAreConflicts() {
    let base = F.base()
    var local = base
    var remote = base
    local.meta.databaseName = "local name"
    local.meta.databaseNameChanged = F.time(100)
    remote.meta.databaseName = "remote name"
    remote.meta.databaseNameChanged = F.time(200)
    remote.meta.databaseDescription = "remote description"
    remote.meta.databaseDescriptionChanged = F.time(1)
    let result = Self.merge(base, local, remote)
    #expect(result.report.conflicts == [MergeConflict(object: .meta, uuid: nil, kind: .metaField("DatabaseName"))])
    #expect(result.database.meta.databaseName == "local name")
    #expect(result.database.meta.databaseDescription == "remote description")
  }

  @Test func dryRunListsTheSameChanges() {
    let base = F.base()
    var local = base
    var remote = base
    F.setPassword(&local, F.entry1, "L", at: 100)
    F.setPassword(&remote, F.entry1, "R", at: 100)
    F.delete(&remote, F.entry3, at: 100)
    let report = DatabaseMerge.threeWayDryRun(base: base, local: local, remote: remote, now: Self.clock.now())
    #expect(report == Self.merge(base, local, remote).report)
    #expect(report.conflicts.count == 1)
    #expect(
      report.changes.contains(MergeChange(object: .entry, uuid: F.entry3, action: .deleted, path: ["B", "three"])))
  }
}
