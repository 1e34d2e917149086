import Foundation
import KDBX
import KDBXFileIO
import KDBXFoundation
import Testing

/// ``CoordinatedVaultStorage`` on Linux, where it falls back to the plain file storage: the compare-and-replace
/// holds, another writer's save is reported, and a session opens, saves and merges through it.
@Suite struct CoordinatedVaultStorageTests {
  static let key = CompositeKey(password: "coordinated")
  static let clock = FixedClock(Timestamp(unixSeconds: 1_772_366_400))
  /// A cheap KDF so that debug-mode tests stay fast.
  static let settings = SaveSettings(
    version: .v4_0, cipher: .aes256, kdf: .aesKDF(AESKDFParameters(rounds: 200, seed: [UInt8](repeating: 1, count: 32)))
  )

  /// A temporary directory removed when the test ends.
  final class Scratch {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-coordinated-\(UUID())")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }
  }

  /// A vault with one entry titled "Alpha"; returns the bytes and the entry's id.
  static func vault() throws -> (bytes: [UInt8], alpha: KDBXUUID) {
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "Coordinated", clock: clock, random: &random)
    var alpha = Entry.new(clock: clock, random: &random)
    alpha.title = "Alpha"
    database.addEntry(alpha, to: try #require(database.root?.uuid))
    return (try KDBXFile.saveBlocking(database, key: key, settings: settings), alpha.uuid)
  }

  @Test func compareAndReplaceRefusesAnotherWritersSave() throws {
    let scratch = try Scratch()
    let url = scratch.url.appendingPathComponent("vault.kdbx")
    var storage = CoordinatedVaultStorage(url: url)
    #expect(throws: VaultStorageError.notFound(location: url.path)) { _ = try storage.read() }
    let first = try Self.vault().bytes
    let created = try storage.write(first, replacing: nil)
    #expect(throws: VaultStorageError.changedSinceRead(location: url.path)) {
      _ = try storage.write(first, replacing: nil)  // the file exists now: "create" must not replace it
    }
    let (read, version) = try storage.read()
    #expect(read == first && version == created)

    // Another program saves the file: a write over the version read first is refused and changes nothing.
    let theirs = try Self.vault().bytes
    try Data(theirs).write(to: url)
    #expect(throws: VaultStorageError.changedSinceRead(location: url.path)) {
      _ = try storage.write(first, replacing: version)
    }
    #expect(try [UInt8](Data(contentsOf: url)) == theirs)
    let current = try storage.read().version
    _ = try storage.write(first, replacing: current)
    #expect(try [UInt8](Data(contentsOf: url)) == first)
  }

  @Test func otherSchemesAreRefusedInWords() throws {
    var storage = CoordinatedVaultStorage(url: try #require(URL(string: "https://example.com/vault.kdbx")))
    #expect(throws: VaultStorageError.readFailed(location: "https://example.com/vault.kdbx", reason: "not a file URL"))
    {
      _ = try storage.read()
    }
    #expect(throws: VaultStorageError.self) { _ = try storage.write([1, 2, 3], replacing: nil) }
  }
}
