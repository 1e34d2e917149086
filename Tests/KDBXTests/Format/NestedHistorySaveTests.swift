import KDBX
import Testing
import VectorSupport

/// The save writes versions nested in versions (``NestedHistoryTests``) as versions of their entry: it wrote the
/// top level only (the rest was lost without a word), and with attachments to renumber, its compaction copied the
/// whole chain and crashed freeing it.
@Suite struct NestedHistorySaveTests {
  static let depth = 3_000

  /// The save and reopen, as the save's result: the reopened versions' titles, oldest first, and how
  /// many of them have history of their own.
  static func saveAndReopen() throws(KDBXError) -> (titles: [String], nested: Int) {
    var database = NestedHistoryTests.nested(depth: depth, attachments: true)
    defer { NestedHistoryTests.dismantle(&database) }
    database.meta.historyMaxItems = -1
    try KDBXFile.checkSavable(database, settings: SaveLimitsTests.settings)
    let bytes = try SaveLimitsTests.save(database)
    var reopened = try SaveLimitsTests.open(bytes)
    defer { NestedHistoryTests.dismantle(&reopened) }
    return NestedHistoryTests.versions(reopened)
  }

  /// On a thread with a 256 KiB stack where the platform has one (a Darwin secondary thread has 512 KiB), where
  /// freeing a copy of the chain ran out of stack.
  @Test func everyNestedVersionIsSavedAndReopens() throws {
    #if canImport(Glibc) || canImport(Musl)
      let run = SmallStackRun {
        guard let (titles, nested) = try? Self.saveAndReopen() else { return [-1] }
        return [titles == (0..<Self.depth).map { "v\($0)" } ? 1 : 0, titles.count, nested]
      }
      let results = try #require(run.wait(stackBytes: 256 * 1024))
      #expect(results == [1, Self.depth, 0])
    #else
      let (titles, nested) = try Self.saveAndReopen()
      #expect(titles == (0..<Self.depth).map { "v\($0)" })
      #expect(nested == 0)
    #endif
  }
}
