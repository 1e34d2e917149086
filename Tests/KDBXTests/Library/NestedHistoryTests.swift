import KDBX
import Testing
import VectorSupport

/// History nested in history, as an app can build it through ``Entry/history`` (a file cannot: the open keeps a
/// version's own history as unknown XML): the library moves the nested versions up into the entry's own list
/// wherever it writes, merges or trims history, a version at a time, so that it neither loses them nor makes and
/// frees chains of its own (the runtime frees a nested chain recursively, once per version).
@Suite struct NestedHistoryTests {
  static let clock = SaveLimitsTests.clock

  /// A database whose one entry has `depth` versions, each the history of the next (the newest on top), each
  /// titled with its position from the bottom; with `attachments`, every version has one whose pool index the
  /// save's compaction renumbers (the pool's first binary is unused).
  static func nested(depth: Int, attachments: Bool = false) -> Database {
    var random = SplitMix64(seed: 13)
    var database = Database.new(name: "Root", clock: clock, random: &random)
    var version = Entry.new(clock: clock, random: &random)
    if attachments {
      version.attachments = [Attachment(name: "a.txt", binaryIndex: 1)]
      database.binaries = BinaryPool(binaries: [BinaryPool.Binary(data: [1]), BinaryPool.Binary(data: [2, 2])])
    }
    version.title = "v0"
    for level in 1...depth {
      var outer = version
      outer.title = "v\(level)"
      outer.history = [version]
      version = outer
    }
    database.root?.entries = [version]
    return database
  }

  /// Takes every entry's history apart a version at a time (the runtime frees nested arrays recursively).
  static func dismantle(_ database: inout Database) {
    var pending: [Entry] = []
    var groups: [Group] = []
    if let root = database.root { groups = [root] }
    database.root = nil
    while var group = groups.popLast() {
      pending.append(contentsOf: group.entries)
      group.entries = []
      groups.append(contentsOf: group.groups)
    }
    while var next = pending.popLast() {
      pending.append(contentsOf: next.history ?? [])
      next.history = nil
    }
  }

  /// The titles of the versions of the database's first entry, and how many of them have history of their own.
  static func versions(_ database: Database) -> (titles: [String], nested: Int) {
    let history = database.root?.entries.first?.history ?? []
    return (history.map { $0.title }, history.filter { $0.history != nil }.count)
  }

  /// Trimming the history of an entry whose versions nest a hundred thousand deep, in a database that holds the
  /// only copy: the versions count as the entry's (all but the newest go) and are released one at a time; the
  /// trim removed the one top-level version, and freeing it freed the chain below it recursively.
  @Test func trimmingReleasesAHundredThousandNestedVersions() {
    var database = Self.nested(depth: 100_000)
    defer { Self.dismantle(&database) }
    database.meta.historyMaxItems = 1
    let removed = database.trimAllHistory()
    #expect(removed == 99_999)
    let (titles, nested) = Self.versions(database)
    #expect(titles == ["v99999"])
    #expect(nested == 0)
  }
}
