import Foundation
import KDBX
import KDBXFileIO
import KDBXFoundation
import Testing
import VectorSupport

/// The `Data`, `URL` and `UUID` forms give what the byte API gives, on the demo vault.
@Suite struct DataAndURLTests {
  static let key = CompositeKey(password: "demo")

  static func demo() throws -> [UInt8] { try #require(Vectors.data("demo/demo-light.kdbx")) }

  @Test func dataOpenEqualsByteOpen() async throws {
    let bytes = try Self.demo()
    let fromBytes = try KDBXFile.openBlocking(bytes: bytes, key: Self.key)
    let fromData = try await KDBXFile.open(data: Data(bytes), key: Self.key)
    #expect(fromData.database == fromBytes.database)
    #expect(fromData.header == fromBytes.header)
  }

  /// `saveData` writes a file that the byte API opens to the same model as the byte API's own save.
  @Test func saveDataOpensLikeByteSave() async throws {
    let opened = try await KDBXFile.open(bytes: try Self.demo(), key: Self.key)
    let settings = SaveSettings(keeping: opened)
    let data = try await KDBXFile.saveData(opened.database, key: Self.key, settings: settings)
    let bytes = try KDBXFile.saveBlocking(opened.database, key: Self.key, settings: settings)
    let viaData = try KDBXFile.openBlocking(bytes: [UInt8](data), key: Self.key).database
    let viaBytes = try KDBXFile.openBlocking(bytes: bytes, key: Self.key).database
    #expect(viaData == viaBytes)
    #expect(viaData.flatEntries.map(\.entry.title) == opened.database.flatEntries.map(\.entry.title))
    #expect(try await KDBXFile.open(data: data, key: Self.key).database == opened.database)
  }

  @Test func uuidRoundTripKeepsBytesAndText() throws {
    let opened = try KDBXFile.openBlocking(bytes: try Self.demo(), key: Self.key)
    let ids = opened.database.flatEntries.map(\.entry.uuid)
    #expect(!ids.isEmpty)
    for id in ids {
      let uuid = UUID(id)
      #expect(KDBXUUID(uuid) == id)
      #expect(uuid.uuidString.lowercased() == id.description)
    }
    let fresh = UUID()
    #expect(UUID(KDBXUUID(fresh)) == fresh)
    #expect(KDBXUUID(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!) == .zero)
  }

  @Test func attachmentContentsAsData() throws {
    var database = try KDBXFile.openBlocking(bytes: try Self.demo(), key: Self.key).database
    let id = try #require(database.flatEntries.first?.entry.uuid)
    let payload = Data("attached through Foundation".utf8)
    let attached = database.setAttachment(
      named: "note.txt", contents: payload, inEntry: id, clock: FixedClock(Timestamp(unixSeconds: 1_704_067_200)))
    #expect(attached)
    let entry = try #require(database.flatEntries.first { $0.entry.uuid == id }?.entry)
    let attachment = try #require(entry.attachments.first { $0.name == "note.txt" })
    #expect(database.contents(of: attachment) == [UInt8](payload))
  }

  @Test func urlOpenAndSave() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-foundation-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("vault.kdbx")
    try Data(try Self.demo()).write(to: url)

    let opened = try await KDBXFile.open(contentsOf: url, key: Self.key)
    var database = opened.database
    database.meta.databaseName = "Saved through a URL"
    try await KDBXFile.save(database, key: Self.key, settings: SaveSettings(keeping: opened), to: url)
    let reopened = try await KDBXFile.open(bytes: [UInt8](try Data(contentsOf: url)), key: Self.key)
    #expect(reopened.database.meta.databaseName == "Saved through a URL")

    await #expect(throws: VaultFileError.kdbx(.invalidCredentials)) {
      _ = try await KDBXFile.open(contentsOf: url, key: CompositeKey(password: "wrong"))
    }
    let missing = directory.appendingPathComponent("missing.kdbx")
    await #expect(throws: VaultFileError.storage(.notFound(location: missing.path))) {
      _ = try await KDBXFile.open(contentsOf: missing, key: Self.key)
    }
    await #expect(throws: VaultFileError.self) {
      _ = try await KDBXFile.open(contentsOf: URL(string: "https://example.com/vault.kdbx")!, key: Self.key)
    }
  }
}
