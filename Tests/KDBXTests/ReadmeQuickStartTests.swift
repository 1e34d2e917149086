import KDBX
import Testing
import VectorSupport

/// The README's library quick start, run against the demo vault, so the README stays true.
@Suite("README quick start")
struct ReadmeQuickStartTests {
  @Test func quickStartWorksOnTheDemoVault() throws {
    let bytes = try #require(Vectors.data("demo/demo.kdbx"))
    // --- README quick start (keep in sync) ---
    let opened = try KDBXFile.open(bytes: bytes, key: CompositeKey(password: "demo"))
    var database = opened.database
    for item in database.flatEntries {
      let title = item.entry[field: "Title"]?.reveal() ?? ""
      _ = (item.groupPath + [title]).joined(separator: "/")  // "Internet/GitHub"
    }
    let github = try #require(database.flatEntries.first { $0.entry[field: "Title"]?.reveal() == "GitHub" }?.entry)
    let password = github[field: "Password"]?.reveal()  // revealed only on request
    let code = github.oneTimePassword()?.code(at: 1_700_000_000)
    database.meta.databaseName = "Renamed"
    let saved = try KDBXFile.save(
      database, key: CompositeKey(password: "demo"), settings: SaveSettings(keeping: opened))
    // --- end ---
    #expect(password == "correct horse battery staple")
    #expect(code?.count == 6)
    let reopened = try KDBXFile.open(bytes: saved, key: CompositeKey(password: "demo"))
    #expect(reopened.database.meta.databaseName == "Renamed")
    #expect(reopened.database.flatEntries.count == database.flatEntries.count)
  }
}
