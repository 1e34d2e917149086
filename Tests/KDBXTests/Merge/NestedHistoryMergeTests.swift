import KDBX
import Testing
import VectorSupport

/// The merges read versions nested in versions (``NestedHistoryTests``) as one list: the three-way merge made a
/// copy of a hundred-thousand-deep chain for the remote and the base (their attachments remapped into the
/// merge's pool) and crashed freeing it.
@Suite struct NestedHistoryMergeTests {
  @Test func mergesOfAHundredThousandNestedVersions() throws {
    var local = NestedHistoryTests.nested(depth: 100_000, attachments: true)
    defer { NestedHistoryTests.dismantle(&local) }
    let uuid = try #require(local.root?.entries.first?.uuid)
    var remote = local
    defer { NestedHistoryTests.dismantle(&remote) }
    let later = FixedClock(Timestamp(unixSeconds: 1_800_000_000))
    let edited = remote.editEntry(uuid, clock: later) { $0.title = "remote" }
    #expect(edited)

    var merged = DatabaseMerge.synchronize(local: local, remote: remote).database
    defer { NestedHistoryTests.dismantle(&merged) }
    #expect(merged.entry(withUUID: uuid)?.title == "remote")
    // The merged entry's history, trimmed to the default 10 versions, holds no nested history.
    #expect(NestedHistoryTests.versions(merged).titles.count == 10)
    #expect(NestedHistoryTests.versions(merged).nested == 0)

    var threeWay = DatabaseMerge.threeWay(base: local, local: local, remote: remote, now: later.now()).database
    defer { NestedHistoryTests.dismantle(&threeWay) }
    #expect(threeWay.entry(withUUID: uuid)?.title == "remote")
    #expect(NestedHistoryTests.versions(threeWay).titles.count == 10)
    #expect(NestedHistoryTests.versions(threeWay).nested == 0)
  }
}
