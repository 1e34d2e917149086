import KDBX
import Testing
import VectorSupport

/// The README's library quick start, run against the demo vault, so the README stays true.
@Suite("README quick start")
struct ReadmeQuickStartTests {
  @Test func quickStartWorksOnTheDemoVault() throws {
    let bytes = try #require(Vectors.data("demo/demo.kdbx"))
    // --- README quick start (keep in sync) ---
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "demo"))
    var database = opened.database
    for item in database.flatEntries {
      _ = (item.groupPath + [item.entry.title]).joined(separator: "/")  // "Internet/GitHub"
    }
    let github = try #require(database.flatEntries.first { $0.entry.title == "GitHub" }?.entry)
    let password = github.password  // kept obfuscated in memory until read
    let code = github.oneTimePassword()?.generator.code(at: 1_700_000_000)
    database.editEntry(github.uuid, clock: FixedClock(Timestamp(unixSeconds: 1_700_000_000))) { entry in
      entry.userName = "octocat"  // the old version goes to the history
      entry.tags = ["work", "code"]
    }
    database.meta.databaseName = "Renamed"
    let saved = try KDBXFile.saveBlocking(
      database, key: CompositeKey(password: "demo"), settings: SaveSettings(keeping: opened))
    // --- end ---
    #expect(password == "correct horse battery staple")
    #expect(code?.count == 6)
    let reopened = try KDBXFile.openBlocking(bytes: saved, key: CompositeKey(password: "demo"))
    #expect(reopened.database.meta.databaseName == "Renamed")
    #expect(reopened.database.flatEntries.count == database.flatEntries.count)
    let edited = try #require(reopened.database.entry(withUUID: github.uuid))
    #expect(
      edited.userName == "octocat" && edited.tags == ["work", "code"]
        && (edited.history?.count ?? 0) == (github.history?.count ?? 0) + 1)
  }
}
