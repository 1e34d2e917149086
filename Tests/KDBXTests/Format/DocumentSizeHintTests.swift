import KDBX
import Testing
import VectorSupport

/// A database remembers the size of the document it was read from, and its next save writes the document into one
/// array with that much room: the output is never joined from pieces or grown by copying, so it is in memory once
/// (issue #35: the AutoFill extension's save, 47 -> 41 MiB peak with glibc's default allocator).
@Suite struct DocumentSizeHintTests {
  static let fixtures = ["kdbx31-aes256-aeskdf", "kdbx40-chacha20-aeskdf", "uncompressed"].map { Fixture(name: $0) }

  @Test(arguments: fixtures)
  func aSaveReservesTheRoomOfTheDocumentRead(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes)
    let key = try fixture.key()
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    let read = opened.database.documentSize.byteCount
    #expect(read > 0)
    var random = SplitMix64(seed: 3)
    let saved = try KDBXFile.write(
      opened.database, key: key, settings: SaveSettings(keeping: opened), primitives: StandardPrimitives(),
      random: &random, checksDocument: true)
    let document = try #require(saved.document)
    // The room reserved: the document read, a sixteenth more and 64 KiB (more than these small documents grow).
    #expect(
      document.capacity >= read + read / 16 + (64 << 10),
      "capacity \(document.capacity) for \(document.count) bytes: not the reserved array")
    // Reopened, the hint is the size of the document just written.
    let reopened = try KDBXFile.openBlocking(bytes: saved.bytes, key: key)
    #expect(reopened.database.documentSize.byteCount == document.count)
  }

  @Test func theHintIsNotContent() throws {
    let opened = try KDBXFile.openBlocking(
      bytes: try #require(Self.fixtures[1].bytes), key: try Self.fixtures[1].key())
    var other = opened.database
    other.documentSize = DocumentSizeHint(byteCount: 1)
    #expect(other == opened.database)
    #expect(DocumentSizeHint(byteCount: -5).byteCount == 0)
  }
}
