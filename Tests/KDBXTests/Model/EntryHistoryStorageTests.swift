import KDBX
import Testing
import VectorSupport

/// ``Entry/history`` keeps value semantics, and a chain of versions nested in versions, which an app can build to
/// any depth, is released without recursion (issue #39: the runtime freed each version's array from inside the
/// release of the version above it, one stack frame group per level).
@Suite struct EntryHistoryStorageTests {
  /// The titles of a chain's versions from the top down, walked without recursion.
  static func chainTitles(_ entry: Entry) -> [String] {
    var titles: [String] = []
    var current = entry.history?.first
    while let version = current {
      titles.append(version.title)
      current = version.history?.first
    }
    return titles
  }

  #if canImport(Glibc) || canImport(Musl)
    /// A database whose entry nests 100,000 versions is dropped on a 256 KiB stack: the thread ran out of stack
    /// (signal 11) before the history's storage released its chain one version at a time.
    @Test func aHundredThousandNestedVersionsAreReleasedOnASmallStack() throws {
      let run = SmallStackRun {
        var database = NestedHistoryTests.nested(depth: 100_000)
        let top = database.root?.entries.first
        let depth = top.map { Self.chainTitles($0).count } ?? 0
        database.root?.entries = []  // the only copy goes: released here, on this stack
        return [depth, database.root?.entries.count ?? -1]
      }
      let results = try #require(run.wait(stackBytes: 256 * 1024))
      #expect(results == [100_000, 0])
    }
  #endif

  /// Part of a chain that another entry also holds stays whole when the chain is dropped.
  @Test func aSharedPartOfAChainOutlivesTheChain() {
    var chain: Entry? = NestedHistoryTests.nested(depth: 1_000).root?.entries.first
    var middle = chain
    for _ in 0..<500 { middle = middle?.history?.first }
    var random = SplitMix64(seed: 20)
    var holder = Entry.new(clock: NestedHistoryTests.clock, random: &random)
    holder.history = middle.map { [$0] }
    middle = nil
    chain = nil  // the chain's only other holder: the versions above the middle are released
    #expect(Self.chainTitles(holder) == (0...500).reversed().map { "v\($0)" })
  }

  /// A copy's history is its own: changes through the setter, in place (`append`) and to a nested version leave the
  /// original as it was, and equality follows the values.
  @Test func historyIsAValue() {
    var random = SplitMix64(seed: 21)
    var original = Entry.new(clock: NestedHistoryTests.clock, random: &random)
    original.title = "now"
    var old = original
    old.title = "before"
    original.history = [old]
    var copy = original
    #expect(copy == original)

    copy.history?.append(old)
    #expect(original.history?.count == 1)
    #expect(copy.history?.count == 2)
    #expect(copy != original)

    copy = original
    copy.history?[0].title = "changed"
    #expect(original.history?[0].title == "before")
    #expect(copy.history?[0].title == "changed")

    copy = original
    copy.history?[0].history = [old]
    #expect(original.history?[0].history == old.history)
    #expect(copy.history?[0].history?.count == 1)

    copy = original
    copy.history = nil
    #expect(copy.history == nil)
    #expect(original.history?.count == 1)
    copy.history?.append(old)  // nothing to change: stays nil
    #expect(copy.history == nil)
    copy.history = []
    #expect(copy.history == [])
  }
}
