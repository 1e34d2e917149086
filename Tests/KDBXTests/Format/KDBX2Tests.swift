import Foundation
import KDBX
import Testing
import VectorSupport

/// KDBX 2.x (KeePass 2.00-2.19): the 3.x container without Meta/HeaderHash, attachments inline or pooled. Our two
/// fixtures come from make_kdbx2_fixtures.py and open in KeePass 2.47; the corpus has KeePassXC's 2.x test files.
@Suite("KDBX 2.x files")
struct KDBX2Tests {
  /// The corpus rows whose format is KDBX 2.x and which must open.
  static let corpusFiles: [(path: String, password: String?, keyFile: String?)] = {
    guard let manifest = Corpus.file("MANIFEST.tsv") else { return [] }
    var files: [(String, String?, String?)] = []
    for line in String(decoding: manifest, as: UTF8.self).split(separator: "\n").dropFirst() {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count > 8, cells[4].hasPrefix("KDBX2"), cells[8] == "no", cells[0].hasSuffix(".kdbx") else {
        continue
      }
      files.append((cells[0], cells[5] == "-" ? nil : cells[5], cells[6] == "-" ? nil : cells[6]))
    }
    return files
  }()

  @Test func fixturesAreVersion2() throws {
    for (name, minor) in [("kdbx2-inline-binaries", UInt16(0)), ("kdbx2-binary-pool", 1)] {
      let bytes = try #require(Fixture(name: name).bytes)
      #expect(try KDBXFile.readVersion(bytes: bytes) == .v2)
      let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "fixture"))
      #expect(opened.header.minorVersion == minor)
      #expect(opened.database.meta.headerHash == nil)
      #expect(opened.database.binaries.binaries.count == 3)
    }
  }

  /// Saving a 2.x file writes KDBX 3.1 (with a HeaderHash and a binary pool) that opens with the same content.
  @Test func savingWritesKDBX31() throws {
    let fixture = Fixture(name: "kdbx2-inline-binaries")
    let bytes = try #require(fixture.bytes)
    let key = CompositeKey(password: "fixture")
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    let settings = SaveSettings(keeping: opened)
    #expect(settings.version == .v3_1)
    let saved = try KDBXFile.saveBlocking(opened.database, key: key, settings: settings)
    let reopened = try KDBXFile.openBlocking(bytes: saved, key: key)
    #expect(reopened.header.version == .v3_1)
    #expect(reopened.database.meta.headerHash != nil)
    let problems = ExpectedJSON.compare(reopened.database, with: try #require(fixture.expected))
    #expect(problems.isEmpty, "\(problems.prefix(10).joined(separator: "; "))")
  }

  /// The legacy ArcFour-variant inner stream (CrsAlgorithm 1, never written by a KeePass 2 release) is refused
  /// with a typed error naming it.
  @Test func arcFourInnerStreamIsRefused() throws {
    let bytes = try #require(Fixture(name: "kdbx2-binary-pool").bytes)
    let block = try KDBXFile.readHeader(bytes: bytes)
    var header = block.header
    header.innerRandomStream = .arcFourVariant
    let changed = try header.serialized() + Array(bytes[block.payloadOffset...])
    #expect(throws: KDBXError.unsupportedInnerRandomStream(id: 1)) {
      try KDBXFile.openBlocking(bytes: changed, key: CompositeKey(password: "fixture"))
    }
  }

  @Test(.enabled(if: Corpus.isAvailable)) func corpusHasKDBX2Files() {
    #expect(Self.corpusFiles.count >= 5)
  }

  /// KeePassXC's KDBX 2.0 test files (AES-KDF 6,000 rounds, cheap enough for the full derivation).
  @Test(.enabled(if: Corpus.isAvailable), arguments: corpusFiles.map { $0.path })
  func corpusFileOpensAndMatchesExpectedJSON(_ path: String) throws {
    let file = try #require(Self.corpusFiles.first { $0.path == path })
    let bytes = try #require(Corpus.file(path))
    let expected = try #require(ExpectedJSON.load(path + ".expected.json"), "no expected JSON for \(path)")
    let key = try CorpusOpenTests.key(password: file.password, keyFile: file.keyFile, expected: expected)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    #expect(opened.header.version == .v2)
    let problems = ExpectedJSON.compare(opened.database, with: expected)
    #expect(problems.isEmpty, "\(path): \(problems.prefix(10).joined(separator: "; "))")
  }
}
