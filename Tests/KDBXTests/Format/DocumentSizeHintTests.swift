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

  /// A database built in memory (an import) has no document size: its save reserves room for an estimate of
  /// its document, so that the output is not grown by copying either (the import's peak, issue #39).
  @Test(arguments: [0, 1, 500, 3_000], [false, true])
  func aBuiltDatabaseReservesAnEstimate(_ entryCount: Int, nested: Bool) throws {
    var random = SplitMix64(seed: UInt64(entryCount))
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var database = Database.new(name: "Imported", clock: clock, random: &random)
    let root = try #require(database.root?.uuid)
    var groups = [root]
    for index in 0..<entryCount {
      if index % 100 == 0, let parent = nested ? groups.last : root {
        groups.append(
          try #require(database.addGroup(named: "Team \(index)", in: parent, clock: clock, random: &random)))
      }
      var entry = Entry.new(clock: clock, random: &random)
      entry[field: "Title"] = .plain("Account \(index)")
      entry[field: "UserName"] = .plain("user\(index)@example.org")
      entry[field: "Password"] = .protected(ProtectedValue("pw-\(index)-\(random.next() % 1_000_000)-x7Q!"))
      entry[field: "URL"] = .plain("https://site\(index).example.com/login")
      entry[field: "Notes"] = .plain(String(repeating: "note line \(index)\n", count: index % 5))
      if index % 3 == 0 { entry.customFields.append(EntryField(key: "account id", value: .plain("A-\(index)"))) }
      if index % 10 == 0 { entry.history = [entry] }
      _ = try #require(database.addEntry(entry, to: try #require(groups.last)))
    }
    #expect(database.documentSize.byteCount == 0)
    var stream = PlaintextInnerStream()
    let actual = try DatabaseXML.serialize(database, version: .v4_0, stream: &stream).count
    let estimate = DatabaseXMLWriter<PlaintextInnerStream>.estimatedByteCount(database)
    // Within a fifth of the document written: the room reserved (a quarter more) holds it.
    #expect(abs(estimate - actual) * 5 <= actual, "estimate \(estimate) for \(actual) bytes")
    var saveRandom = SplitMix64(seed: 5)
    let saved = try KDBXFile.write(
      database, key: CompositeKey(password: "p"),
      settings: SaveSettings(
        version: .v4_0, kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [UInt8](repeating: 0, count: 32)))),
      primitives: StandardPrimitives(), random: &saveRandom, checksDocument: true)
    let document = try #require(saved.document)
    #expect(document.capacity >= estimate + estimate / 4, "capacity \(document.capacity) for \(document.count) bytes")
  }

  /// The estimate of a real vault's document (the corpus's large_5000: 5,000 entries in 50 groups, histories,
  /// attachments) against the document it was read from.
  @Test(.enabled(if: Corpus.isAvailable, "the shared corpus is not on this machine"))
  func theEstimateOfLarge5000() throws {
    let bytes = try #require(Corpus.file("generated/large_5000.kdbx"))
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "bench"))
    let estimate = DatabaseXMLWriter<PlaintextInnerStream>.estimatedByteCount(opened.database)
    let read = opened.database.documentSize.byteCount
    #expect(abs(estimate - read) * 5 <= read, "estimate \(estimate) for \(read) bytes")
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
