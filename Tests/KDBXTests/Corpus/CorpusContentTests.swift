import KDBX
import KDBXXML
import Testing
import VectorSupport

/// The corpus's plain KeePass XML files, parsed by the test-only Foundation oracle parser, mapped to the model,
/// compared with their `expected.json`, and written back losslessly (model -> tree -> model is identical).
@Suite struct CorpusContentTests {
  static let files = [
    "generated/history-v4.0.content.xml", "generated/keyfile-v4.0.content.xml",
    "generated/one_attachment-v4.0.content.xml", "generated/sample-v3.1.content.xml",
    "generated/sample-v4.0.content.xml", "generated/sample-v4.1.content.xml", "generated/totp-v4.0.content.xml",
    "keepass-rs/inner_xml_with_custom_fields.xml", "keepassxc/NewDatabase.xml", "keepassxc/EmptyUuids.xml",
  ]

  @Test(.enabled(if: Corpus.isAvailable && ProcessGzip.path != nil), arguments: files)
  func contentMatchesOracleAndRoundTrips(_ name: String) throws {
    let bytes = try #require(Corpus.file(name))
    let document = try #require(TestXMLParser.parse(bytes))
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 50)
    let database = try DatabaseXMLReader.read(document: document, stream: &stream, random: &random, gzip: ProcessGzip())
    if let expected = ExpectedJSON.load(name + ".expected.json") {
      let problems = ExpectedJSON.compare(database, with: expected)
      #expect(problems.isEmpty, "\(problems.prefix(10))")
    }
    for version in [KDBXVersion.v3_1, .v4_1] {
      var writeStream = CountingStream()
      let written = DatabaseXMLWriter.write(database, version: version, stream: &writeStream)
      var readStream = CountingStream()
      // KDBX 4 keeps binaries in the inner header, KDBX 3.1 in Meta/Binaries.
      let inner =
        version.isKDBX4
        ? database.binaries.binaries.map { InnerHeader.Binary(isProtected: $0.isProtected, data: $0.data) } : []
      let again = try DatabaseXMLReader.read(
        document: written, binaries: inner, stream: &readStream, random: &random, gzip: ProcessGzip())
      #expect(readStream.position == writeStream.position)
      if version == .v4_1 {
        var meta = database.meta
        meta.hasBinariesElement = false  // KDBX 4 moves Meta/Binaries into the inner header
        #expect(again.meta == meta)
        // A save writes the fields Meta/MemoryProtection protects as protected values, whatever the model held.
        #expect(again.root == database.root.map { Self.protecting($0, keys: database.meta.protectedFieldKeys) })
        #expect(again.deletedObjects == database.deletedObjects)
        #expect(again.binaries == database.binaries)
        #expect(again.documentLayout == database.documentLayout && again.rootLayout == database.rootLayout)
      }
      if let expected = ExpectedJSON.load(name + ".expected.json") {
        #expect(ExpectedJSON.compare(again, with: expected).isEmpty, "\(version.name)")
      }
    }
  }

  /// `group` as a save writes it: plain values of the fields `keys` names turned into protected values.
  static func protecting(_ group: Group, keys: [String]) -> Group {
    var random = SplitMix64(seed: 7)
    func protect(_ entry: Entry) -> Entry {
      var copy = entry
      for index in copy.fields.indices where keys.contains(copy.fields[index].key) {
        if case .plain(let text) = copy.fields[index].value {
          copy.fields[index].value = .protected(ProtectedValue(text, using: &random))
        }
      }
      copy.history = entry.history?.map { protect($0) }
      return copy
    }
    var copy = group
    copy.entries = group.entries.map { protect($0) }
    copy.groups = group.groups.map { protecting($0, keys: keys) }
    return copy
  }
}

/// KeePassXC's broken-XML fixtures: the reader is lenient like KeePass (and KeePassXC's lenient mode), and refuses
/// the three documents KeePassXC refuses even in lenient mode.
@Suite struct CorpusBrokenXMLTests {
  static let cases: [(String, Bool)] = [
    ("keepassxc/BrokenDeletedObjects.xml", true), ("keepassxc/BrokenDifferentEntryHistoryUuid.xml", true),
    ("keepassxc/BrokenGroupReference.xml", true), ("keepassxc/BrokenNoEntryUuid.xml", true),
    ("keepassxc/BrokenNoGroupUuid.xml", true), ("keepassxc/BrokenNoRootGroup.xml", false),
    ("keepassxc/BrokenTwoRootGroups.xml", false), ("keepassxc/BrokenTwoRoots.xml", false),
  ]

  @Test(.enabled(if: Corpus.isAvailable), arguments: cases) func lenientLikeKeePassXC(_ item: (String, Bool)) throws {
    let bytes = try #require(Corpus.file(item.0))
    let document = try #require(TestXMLParser.parse(bytes))
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 51)
    if item.1 {
      _ = try DatabaseXMLReader.read(document: document, stream: &stream, random: &random, gzip: NoGzipDecompressor())
    } else {
      #expect(throws: KDBXError.self) {
        try DatabaseXMLReader.read(document: document, stream: &stream, random: &random, gzip: NoGzipDecompressor())
      }
    }
  }
}
