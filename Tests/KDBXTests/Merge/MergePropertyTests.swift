import KDBX
import Testing
import VectorSupport

/// Random edits, moves, additions and deletions on two copies of one database; the two-way merge must keep every
/// object whose latest change is newer than its deletion, take the newest content, keep the tree well formed,
/// and be idempotent. The three-way merge of disjoint changes must report no conflict.
@Suite("Merge: properties")
struct MergePropertyTests {
  typealias F = MergeFixture
  static let entryIDs = (11...13).map { F.uuid(UInt8($0)) }
  static let groupIDs = [F.root, F.groupA, F.groupB]

  /// Applies `count` random operations with times in `times`; new entries get UUIDs from `nextID`.
  static func mutate(
    _ database: inout Database, count: Int, times: ClosedRange<Int64>, nextID: inout UInt8,
    random: inout SplitMix64, only allowed: Set<KDBXUUID>? = nil
  ) {
    for _ in 0..<count {
      let time = Int64.random(in: times, using: &random)
      let present = database.root.map(F.allEntryIDs) ?? []
      let candidates = present.filter { allowed?.contains($0) ?? true }
      let groups = (database.root.map(F.allGroupIDs) ?? []).filter { allowed == nil || $0 == F.root }
      switch random.next() % 4 {
      case 0:
        if let id = candidates.randomElement(using: &random) {
          F.setPassword(&database, id, "p\(random.next() % 1000)", at: time)
        }
      case 1:
        if let id = candidates.randomElement(using: &random), let target = groups.randomElement(using: &random) {
          F.move(&database, id, to: target, at: time)
        }
      case 2:
        if let id = candidates.randomElement(using: &random) { F.delete(&database, id, at: time) }
      default:
        if let target = groups.randomElement(using: &random) {
          F.addEntry(&database, F.entry(F.uuid(nextID), title: "n\(nextID)", at: time), to: target)
          nextID &+= 1
        }
      }
    }
  }

  static func latest(_ id: KDBXUUID, _ databases: [Database]) -> Entry? {
    databases.compactMap { F.entry(id, in: $0) }.max { lhs, rhs in
      (lhs.times?.lastModificationTime ?? .minimum) < (rhs.times?.lastModificationTime ?? .minimum)
    }
  }

  @Test func twoWayKeepsEverythingNewerThanItsDeletion() throws {
    var random = SplitMix64(seed: 2024)
    for round in 0..<150 {
      let base = F.base()
      var local = base
      var remote = base
      var nextID: UInt8 = 100
      Self.mutate(&local, count: 4, times: 1...50, nextID: &nextID, random: &random)
      Self.mutate(&remote, count: 4, times: 1...50, nextID: &nextID, random: &random)
      let merged = DatabaseMerge.synchronize(local: local, remote: remote).database
      let root = try #require(merged.root)
      let mergedIDs = F.allEntryIDs(root)
      #expect(Set(mergedIDs).count == mergedIDs.count, "round \(round): duplicate entries")
      let groupIDs = F.allGroupIDs(root)
      #expect(Set(groupIDs).count == groupIDs.count, "round \(round): duplicate groups")
      var tombstones: [KDBXUUID: Timestamp] = [:]
      for object in (local.deletedObjects ?? []) + (remote.deletedObjects ?? []) {
        tombstones[object.uuid] = max(tombstones[object.uuid] ?? .minimum, object.deletionTime ?? .minimum)
      }
      let all = Set((local.root.map(F.allEntryIDs) ?? []) + (remote.root.map(F.allEntryIDs) ?? []))
      for id in all {
        let newest = try #require(Self.latest(id, [remote, local]))
        let modified = newest.times?.lastModificationTime ?? .minimum
        let deleted = tombstones[id].map { modified <= $0 } ?? false
        #expect((F.entry(id, in: merged) == nil) == deleted, "round \(round): entry \(id) presence")
        if !deleted {
          #expect(
            F.entry(id, in: merged)?.times?.lastModificationTime == modified, "round \(round): newest content wins")
        }
      }
      #expect(DatabaseMerge.synchronize(local: merged, remote: remote).database == merged, "round \(round)")
      #expect(DatabaseMerge.synchronize(local: merged, remote: local).database == merged, "round \(round)")
    }
  }

  @Test func threeWayOfDisjointChangesHasNoConflicts() throws {
    var random = SplitMix64(seed: 77)
    for round in 0..<100 {
      let base = F.base()
      var local = base
      var remote = base
      var nextID: UInt8 = 100
      // Local works on entry 11 only, remote on entries 12 and 13 only (plus additions).
      Self.mutate(&local, count: 3, times: 1...50, nextID: &nextID, random: &random, only: [F.entry1])
      Self.mutate(&remote, count: 3, times: 1...50, nextID: &nextID, random: &random, only: [F.entry2, F.entry3])
      let result = DatabaseMerge.threeWay(base: base, local: local, remote: remote, now: FixedClock(F.time(999)).now())
      #expect(result.report.conflicts.isEmpty, "round \(round): \(result.report.conflicts)")
      for id in [F.entry1] {
        #expect(F.entry(id, in: result.database) == F.entry(id, in: local), "round \(round): local change kept")
      }
      for id in [F.entry2, F.entry3] {
        #expect(
          F.password(id, in: result.database) == F.password(id, in: remote), "round \(round): remote change taken")
        #expect(F.parent(of: id, in: result.database) == F.parent(of: id, in: remote), "round \(round)")
      }
    }
  }
}
