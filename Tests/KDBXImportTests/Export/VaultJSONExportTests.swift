import KDBX
import KDBXBase
import KDBXCrypto
import KDBXImport
import Testing
import VectorSupport

/// The JSON document `kdbx export --format json` and the WebAssembly module both write (`VaultJSONExport`).
@Suite("Vault JSON export")
struct VaultJSONExportTests {
  static func demo() throws -> OpenedDatabase {
    let bytes = try #require(Vectors.data("demo/demo-light.kdbx"))
    return try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "demo"))
  }

  @Test func revealedDocumentHoldsThePasswords() throws {
    let text = VaultJSONExport.document(try Self.demo()).rendered()
    #expect(text.hasPrefix("{\n  \"version\": \"4.0\",\n  \"meta\": {\n    \"name\": \"Demo vault\""))
    #expect(text.contains("\"password\": \"correct horse battery staple\""))
  }

  /// Without revealing, exactly the protected values become `null`: the rest of the document is the same text.
  @Test func hiddenDocumentNullsOnlyProtectedValues() throws {
    let opened = try Self.demo()
    let revealed = VaultJSONExport.document(opened).rendered()
    let hidden = VaultJSONExport.document(opened, revealingProtectedValues: false).rendered()
    #expect(!hidden.contains("correct horse battery staple"))
    var protectedCount = 0
    for item in opened.database.flatEntries {
      protectedCount += item.entry.fields.filter { $0.value.isProtected }.count
    }
    #expect(protectedCount > 0)
    let revealedLines = revealed.split(separator: "\n", omittingEmptySubsequences: false)
    let hiddenLines = hidden.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(revealedLines.count == hiddenLines.count)
    // Line by line, the documents differ only where a value became null, once per protected value.
    var differing = 0
    for (left, right) in zip(revealedLines, hiddenLines) where left != right {
      differing += 1
      #expect(right.hasSuffix(": null") || right.hasSuffix(": null,"))
    }
    #expect(differing == protectedCount)
  }

  @Test func quotingEscapesControlsBidiAndLineSeparators() {
    #expect(JSONValue.quoted("a\"b\\c\n\t\u{1B}\u{202E}\u{2028}é") == "\"a\\\"b\\\\c\\n\\t\\u001b\\u202e\\u2028é\"")
  }

  /// A group tree 3,000 deep is exported on a thread with a 256 KiB stack (a recursive walk overflows it): every
  /// group is listed with its whole path. Built bottom up and taken apart from the top, so that neither recurses.
  #if canImport(Glibc) || canImport(Musl)
    @Test func deepTreeExportsOnASmallStack() throws {
      let depth = 3_000
      var opened = try Self.demo()
      var random = SplitMix64(seed: 7)
      let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
      var inner = Group.new(name: "G\(depth)", clock: clock, random: &random)
      for level in stride(from: depth - 1, through: 2, by: -1) {
        var parent = Group.new(name: "G\(level)", clock: clock, random: &random)
        parent.groups = [inner]
        inner = parent
      }
      opened.database.root?.groups = [inner]
      defer {
        var pending = opened.database.root.take().map { [$0] } ?? []
        while var group = pending.popLast() {
          pending.append(contentsOf: group.groups)
          group.groups = []
        }
      }
      let run = SmallStackRun { [opened] in
        guard case .object(let members) = VaultJSONExport.document(opened),
          case .array(let groups)? = members.first(where: { $0.0 == "groups" })?.1,
          case .object(let deepest)? = groups.last,
          case .array(let path)? = deepest.first(where: { $0.0 == "path" })?.1
        else { return [] }
        return [groups.count, path.count]
      }
      let results = try #require(run.wait(stackBytes: 256 * 1024))
      #expect(results == [depth - 1, depth - 1])
    }
  #endif
}
