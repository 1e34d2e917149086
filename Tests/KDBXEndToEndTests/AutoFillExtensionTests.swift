import KDBX
import KDBXAutoFill
import KDBXFileIO
import Testing
import VectorSupport

/// The AutoFill extension's path on a real vault (issue #35, item 2): large_5000 (5,000 entries) re-saved as KDBX 4
/// with Argon2id 64 MiB, t=2, p=2 (KeePassXC's default), unlocked once by the app with the password, then opened by
/// the extension with the cached key under a 50 MB budget (where the password's KDF does not fit), a URL matched, a
/// password revealed and one change saved, which the app and the cached key then read. Its peak memory is measured
/// by `Benchmarks/scripts/autofill_memory.sh`, the same flow in one process (`kdbx-bench --autofill`).
@Suite(
  .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason),
  .enabled(if: Corpus.file("generated/large_5000.kdbx") != nil, "../shared/corpus/generated/large_5000.kdbx is missing")
)
struct AutoFillExtensionTests {
  final class File: @unchecked Sendable {
    var bytes: [UInt8]
    var version: UInt64 = 1
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  struct Storage: VaultStorage {
    let file: File
    mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) { (file.bytes, file.version) }
    mutating func write(_ bytes: [UInt8], replacing expected: UInt64?) throws(VaultStorageError) -> UInt64 {
      guard expected == nil || expected == file.version else { throw .changedSinceRead(location: "large.kdbx") }
      file.bytes = bytes
      file.version += 1
      return file.version
    }
  }

  /// Blocking calls, as `kdbx-bench --autofill` makes them: the key derivations run on their own threads, not on
  /// the test runner's concurrency pool, which the other suites keep busy.
  @Test func aCachedKeyFillsAndSavesALargeArgon2VaultUnderA50MBBudget() throws {
    let password = CompositeKey(password: "bench")
    let corpus = try KDBXFile.openBlocking(
      bytes: try #require(Corpus.file("generated/large_5000.kdbx")), key: password)
    var settings = SaveSettings(keeping: corpus)
    settings.version = .v4_0
    settings.kdf = .argon2(
      Argon2KDFParameters(
        variant: .id, iterations: 2, memoryBytes: 64 << 20, parallelism: 2, salt: [UInt8](repeating: 7, count: 32)))
    let file = File(try KDBXFile.saveBlocking(corpus.database, key: password, settings: settings))

    // The app: one unlock with the password; the key it hands out goes to the Keychain.
    let app = try SynchronousVaultSession(storage: Storage(file: file), key: password)
    let keychain = try #require(app.cachedKey).serialized

    // The extension: 50 MB. The password's KDF (64 MiB) does not fit; the cached key needs none.
    var load = LoadOptions.default
    load.availableMemoryBytes = 50_000_000
    let budget = VaultSessionOptions(load: load)
    do {
      _ = try SynchronousVaultSession(storage: Storage(file: file), key: password, options: budget)
      Issue.record("Argon2id 64 MiB should not fit a 50 MB budget")
    } catch {
      #expect(error.category == .tooLarge)
    }
    let fromExtension = try SynchronousVaultSession(
      storage: Storage(file: file), cachedKey: CachedVaultKey(serialized: keychain), options: budget)
    let database = try #require(fromExtension.database)
    #expect(database.flatEntries.count >= 5_000)
    let request = try #require(ServiceIdentifier("https://xray.example.org/login"))
    let matches = CredentialMatcher().match(request, in: database.matchCandidates(now: SystemClock().now())).matches
    let best = try #require(matches.first)
    let entry = try #require(database.entry(withUUID: best.id))
    #expect(!entry.password.reveal().isEmpty)
    fromExtension.database?.editEntry(best.id, clock: SystemClock()) { $0.notes = "filled from the extension" }
    #expect(try fromExtension.save() == .saved)

    // The change is in the file; the cached key still opens it (the save kept the KDF seed).
    let again = try SynchronousVaultSession(
      storage: Storage(file: file), cachedKey: CachedVaultKey(serialized: keychain), options: budget)
    #expect(again.database?.entry(withUUID: best.id)?.notes == "filled from the extension")
    #expect(again.database?.flatEntries.count == database.flatEntries.count)
  }
}
