import Foundation
import KDBX
import KDBXBase
import Testing

/// Issue #39: the CLI's walks over a vault's groups (`ls -R`, its `--json`, `export`) use an explicit stack, not
/// recursion, and what the CLI prints from a vault or echoes from its input is escaped as `show` escapes it.
///
/// The walks print the same as the recursive ones did, checked here on the deepest tree the open accepts. A
/// smaller stack cannot show the difference through the binary: opening that tree takes far more stack than the
/// old recursive walks did (about 5.5 MiB in a debug build, 2-3 MiB in a release build, for 496 levels), so the
/// rendering's own depth is tested in the library (`JSONValueTests`).
@Suite(.enabled(if: CLI.available)) struct CLIDeepTreeTests {
  /// The deepest tree the open accepts: the root and 495 levels below it (`LoadOptions.maxGroupDepth`, 496).
  static let levels = 495

  /// A vault whose groups `g1/g2/.../g495` form one chain below the root, with the entry `Deep` at the bottom.
  /// Built bottom up, without recursion.
  static func deepVault() throws -> String {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Root", clock: OddVault.clock, random: &random)
    var inner = OddVault.makeGroup("g\(levels)", random: &random)
    inner.entries = [OddVault.makeEntry("Deep", random: &random)]
    for level in stride(from: levels - 1, through: 1, by: -1) {
      var parent = OddVault.makeGroup("g\(level)", random: &random)
      parent.groups = [inner]
      inner = parent
    }
    database.root?.groups = [inner]
    return try OddVault.write(database)
  }

  static func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
  }

  /// The output of each walk over the deepest tree the open accepts, whole (the same as the recursive walks
  /// printed).
  @Test func listingsAndExportsOfTheDeepestTree() throws {
    let path = try Self.deepVault()
    defer { OddVault.remove(path) }
    let names = (1...Self.levels).map { "g\($0)" }

    let tree = try OddVault.run(["ls", "-R"], path)
    #expect(tree.status == 0, "\(tree.err)")
    let expected = names.enumerated().map { String(repeating: "  ", count: $0.offset) + $0.element + "/\n" }.joined()
    #expect(tree.out == expected + String(repeating: "  ", count: Self.levels) + "Deep\n")

    let flat = try OddVault.run(["ls", "-R", "--flatten"], path)
    #expect(flat.status == 0, "\(flat.err)")
    let paths = (1...Self.levels).map { names.prefix($0).joined(separator: "/") + "/\n" }.joined()
    #expect(flat.out == paths + names.joined(separator: "/") + "/Deep\n")

    let json = try OddVault.run(["ls", "-R", "--json"], path)
    #expect(json.status == 0, "\(json.err)")
    #expect(Self.count("\"children\": [", in: json.out) == Self.levels)
    #expect(Self.count("\"type\": \"group\"", in: json.out) == Self.levels)
    #expect(json.out.contains("\n" + String(repeating: "  ", count: 2 * Self.levels + 2) + "\"title\": \"Deep\",\n"))
    #expect(json.out.hasSuffix("\n]\n"))

    let xml = try OddVault.run(["export", "--format", "xml"], path)
    #expect(xml.status == 0, "\(xml.err)")
    #expect(Self.count("</Group>", in: xml.out) == Self.levels + 1)
    #expect(xml.out.contains("<Name>g\(Self.levels)</Name>"))

    let csv = try OddVault.run(["export", "--format", "csv"], path)
    #expect(csv.status == 0, "\(csv.err)")
    #expect(csv.out.contains("\"Root/" + names.joined(separator: "/") + "\",\"Deep\""))
  }

  /// An error in a `kdbx open` session is one line, escaped as the same error outside a session is (it was
  /// written with its tabs raw).
  @Test func sessionErrorsAreEscapedAsOutsideASession() throws {
    let path = try TestScratch.directory("open-escape") + "/vault.kdbx"
    try FileManager.default.copyItem(atPath: CLI.fixture, toPath: path)
    let (result, timedOut) = try CLIRunner.run(
      ["open", path], input: "fixture\nshow \"Fake\tTitle\"\nshow Fake\\\tOther", within: 60)
    #expect(!timedOut)
    #expect(result.status == 1)
    #expect(result.err.contains("kdbx show: no entry named 'Fake\\tTitle'\n"), "\(result.err)")
    #expect(result.err.contains("kdbx show: no entry named 'Fake\\tOther'\n"), "\(result.err)")
    #expect(!result.err.contains("\t"), "\(result.err)")
    let outside = try CLI.run(["show", path, "Fake\tTitle"], input: "fixture\n")
    #expect(outside.err.contains("kdbx show: no entry named 'Fake\\tTitle'\n"), "\(outside.err)")
  }

  /// `export --format xml` names the fields it left characters out of as `Group/Title: Field`: one line of
  /// terminal text, a title's line feed and a field name's tab escaped (they were written raw, so a title could
  /// add a line of its own).
  @Test func exportNamesThePlacesOfLeftOutCharactersOnOneLine() throws {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Root", clock: OddVault.clock, random: &random)
    var entry = OddVault.makeEntry("Bank\n  Fake/Line", random: &random)
    entry[field: "Memo\tX"] = .protected(ProtectedValue("a\u{11}b", using: &random))
    database.root?.entries.append(entry)
    let path = try OddVault.write(database)
    defer { OddVault.remove(path) }
    let export = try OddVault.run(["export", "--format", "xml"], path)
    #expect(export.status == 0, "\(export.err)")
    #expect(export.err.contains("left out 1 character(s)"), "\(export.err)")
    #expect(export.err.contains("(in Bank\\n  Fake/Line: Memo\\tX)"), "\(export.err)")
    #expect(!export.err.contains("\t"), "\(export.err)")
    #expect(export.err.split(separator: "\n").count == 1, "\(export.err)")
  }
}
