import KDBX
import Testing
import VectorSupport

/// The README's async quick start, compiled and run against the demo vault (its light copy, `demo-light.kdbx`: the
/// same content with a 1 MiB KDF, which a debug build derives 16 times faster), so the README stays true.
@MainActor private var unlockProgress = 0.0

// --- README async quick start (keep in sync) ---
@MainActor func unlock(_ fileBytes: [UInt8], password: String) async throws(KDBXError) -> OpenedDatabase {
  // Progress, 0...1 after every Argon2 slice or AES-KDF step, in order through one stream read on the main actor.
  let (progress, reporter) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
  Task { for await fraction in progress { unlockProgress = fraction } }
  defer { reporter.finish() }
  let opened = try await KDBXFile.open(bytes: fileBytes, key: CompositeKey(password: password)) { fraction in
    reporter.yield(fraction)
  }
  return opened  // later: try await KDBXFile.save(database, key: key, settings: SaveSettings(keeping: opened))
}
// --- end ---

@Suite("README async quick start")
struct ReadmeAsyncQuickStartTests {
  @MainActor @Test func asyncQuickStartWorksOnTheDemoVault() async throws {
    let bytes = try #require(Vectors.data("demo/demo-light.kdbx"))
    let opened = try await unlock(bytes, password: "demo")
    #expect(opened.database.flatEntries.contains { $0.entry[field: "Title"]?.reveal() == "GitHub" })
    await #expect(throws: KDBXError.invalidCredentials) { _ = try await unlock(bytes, password: "wrong") }
  }
}
