import KDBX
import KDBXBase
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
}
