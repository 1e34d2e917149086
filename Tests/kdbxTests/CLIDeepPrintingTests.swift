import KDBX
import KDBXBase
import KDBXXML
import Testing
import VectorSupport

@testable import kdbx

/// Issue #39: the CLI's walks over a vault's groups (`ls -R`, `--flatten`, `--json`, `export --format csv`, and
/// `export --format xml`'s revealing of protected values) use an explicit stack, not recursion. Through the binary
/// a vault is at most 496 levels deep (the open's cap; `CLIDeepTreeTests` checks the output there), which recursive
/// walks printed too; here the routines run on trees built in memory, 3,000 levels deep, on a thread with a 256 KiB
/// stack, which a walk that recursed once per level overflows. Each tree is built, walked, checked and taken apart
/// on that thread (the runtime frees nested arrays recursively, so a tree is taken apart a level at a time).
@Suite struct CLIDeepPrintingTests {
  static let depth = 3_000
  static let stackBytes = 256 * 1024
  static let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  /// The names of the groups below the root, from the top.
  static let names = (1...depth).map { "g\($0)" }

  /// A database whose groups `g1/g2/.../gN` form one chain below its root `Root`, with the entry `Deep` in `gN`.
  /// Built bottom up.
  static func chain(depth: Int) -> Database {
    var random = SplitMix64(seed: 39)
    var inner = Group.new(name: "g\(depth)", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry.title = "Deep"
    inner.entries = [entry]
    for level in stride(from: depth - 1, through: 1, by: -1) {
      var parent = Group.new(name: "g\(level)", clock: clock, random: &random)
      parent.groups = [inner]
      inner = parent
    }
    var database = Database.new(name: "Root", clock: clock, random: &random)
    database.root?.groups = [inner]
    return database
  }

  /// Takes a database's tree apart a level at a time.
  static func dismantle(_ database: inout Database) {
    var pending = database.root.map { [$0] } ?? []
    database.root = nil
    while var group = pending.popLast() {
      pending.append(contentsOf: group.groups)
      group.groups = []
    }
  }

  /// Takes a chain of elements apart a level at a time.
  static func dismantle(_ element: inout XMLElement) {
    var pending = [element]
    element.children = []
    while var next = pending.popLast() {
      pending.append(contentsOf: next.childElements)
      next.children = []
    }
  }

  /// A member of a JSON object.
  static func member(_ value: JSONValue?, _ name: String) -> JSONValue? {
    guard case .object(let members)? = value else { return nil }
    return members.first { $0.0 == name }?.1
  }

  static func string(_ value: JSONValue?) -> String? {
    guard case .string(let text)? = value else { return nil }
    return text
  }

  static func array(_ value: JSONValue?) -> [JSONValue]? {
    guard case .array(let items)? = value else { return nil }
    return items
  }

  /// How `ls -R`, `ls -R --flatten`, `ls -R --json` and `export --format csv` list `database` (the chain of
  /// ``chain(depth:)``): for the text listings and the CSV, 1 when they print what the recursive walks printed; for
  /// `--json`, the groups nested in `children` lists, whether each group's `path` has its depth's length, and the
  /// title found at the bottom (not rendered: the pretty-printed text grows with the cube of the depth, every group
  /// carrying its whole path). (A function of its own, so that no copy of the root outlives it: the caller takes the
  /// tree apart afterwards.)
  static func listings(_ database: Database) -> [Int] {
    guard let root = database.root else { return [] }
    var indented = ""
    ListCommand.print(root, recursive: true, flatten: false, into: &indented)
    let indentedExpected =
      names.enumerated().map { String(repeating: "  ", count: $0.offset) + $0.element + "/\n" }.joined()
      + String(repeating: "  ", count: depth) + "Deep\n"
    var flat = ""
    ListCommand.print(root, recursive: true, flatten: true, into: &flat)
    let flatExpected =
      (1...depth).map { names.prefix($0).joined(separator: "/") + "/\n" }.joined()
      + names.joined(separator: "/") + "/Deep\n"
    // `export --format csv`: the entry's row names its group by the whole path.
    let csvRow = "\n\"Root/" + names.joined(separator: "/") + "\",\"Deep\","
    // `--json`, followed down a level at a time (which also frees it a level at a time).
    var items = ListCommand.items(root, path: [], recursive: true)
    var levels = 0
    var pathsMatch = true
    while let group = items.first(where: { string(member($0, "type")) == "group" }) {
      levels += 1
      pathsMatch = pathsMatch && array(member(group, "path"))?.count == levels
      items = array(member(group, "children")) ?? []
    }
    let bottomTitle = items.first.flatMap { string(member($0, "title")) }
    return [
      indented == indentedExpected ? 1 : 0, flat == flatExpected ? 1 : 0,
      ExportCommand.csv(database).contains(csvRow) ? 1 : 0, levels, pathsMatch ? 1 : 0, bottomTitle == "Deep" ? 1 : 0,
    ]
  }

  // SmallStackRun (VectorSupport) runs on Linux.
  #if canImport(Glibc) || canImport(Musl)
    @Test func listingsOfThreeThousandLevelsOnASmallStack() throws {
      let run = SmallStackRun {
        var database = Self.chain(depth: Self.depth)
        defer { Self.dismantle(&database) }
        return Self.listings(database)
      }
      let results = try #require(run.wait(stackBytes: Self.stackBytes))
      #expect(results == [1, 1, 1, Self.depth, 1, 1])
    }

    @Test func exportRevealsProtectedValuesThreeThousandLevelsDown() throws {
      let run = SmallStackRun {
        // `<Group>` elements nested as deep as the groups, a protected value ("secret" in base64) at the bottom.
        var element = XMLElement(
          name: "Value", attributes: [XMLAttribute(name: "Protected", value: "True")], children: [.text("c2VjcmV0")])
        for _ in 0..<Self.depth { element = XMLElement(name: "Group", children: [.element(element)]) }
        defer { Self.dismantle(&element) }
        var notUTF8 = 0
        var revealed = ExportCommand.revealed(element, notUTF8: &notUTF8)
        defer { Self.dismantle(&revealed) }
        let unwritable = ExportCommand.unwritableCharacterCount(revealed)
        var levels = 0
        var bottom = revealed
        while let child = bottom.childElements.first {
          levels += 1
          bottom = child
        }
        let revealedValue =
          bottom.name == "Value" && bottom.text == "secret"
          && bottom.attributes == [XMLAttribute(name: "ProtectInMemory", value: "True")]
        return [levels, revealedValue ? 1 : 0, notUTF8, unwritable]
      }
      let results = try #require(run.wait(stackBytes: Self.stackBytes))
      #expect(results == [Self.depth, 1, 0, 0])
    }
  #endif
}
