import Foundation
import KDBXBase
import KDBXXML
import Testing
import VectorSupport

@testable import KDBX

/// A mutable value that escaping closures can share.
final class Box<T>: @unchecked Sendable {
  var value: T
  init(_ value: T) { self.value = value }
}

/// The model read straight from the pull reader (``DatabaseXMLReader/read(xml:binaries:stream:random:gzip:options:pipeline:)``,
/// the open path) equals the model read from a tree (``DatabaseXMLReader/read(document:binaries:stream:random:gzip:options:)``)
/// on the corpus and on random documents (issue #22 item 1); unknown XML kept compactly (`KeptXML`) behaves as
/// `XMLNode`s did; the node and memory limits hold for hostile documents and leave room for real vaults
/// (issue #19 item 8).
@Suite struct DatabaseXMLPullReaderTests {
  /// What one document cost the pull reader.
  struct Cost {
    var xmlByteCount: Int
    var nodeCount: Int
    var heldBytes: Int
  }

  /// Reads `xml` both ways, with the same stream position for each, and expects equal models; returns the pull
  /// reader's model and cost.
  static func readBothWays<S: InnerRandomStream>(
    _ xml: [UInt8], binaries: [InnerHeader.Binary] = [], stream: inout S, label: String
  ) throws -> (Database, Cost) {
    var treeStream = stream
    var random = SplitMix64(seed: 1)
    let tree = try XMLElement.parse(xml)
    let viaTree = try DatabaseXMLReader.read(
      document: tree, binaries: binaries, stream: &treeStream, random: &random, gzip: StandardPrimitives())
    var limit = XMLReader.Options()
    limit.limits.maximumDepth = LoadOptions.default.maxXMLDepth
    // Boxed copies, so that the reader's escaping closures can hold them.
    let pullStream = Box(stream)
    let pullRandom = Box(SplitMix64(seed: 1))
    var reader = DatabaseModelReader(
      source: XMLReader(bytes: xml, options: limit), options: .default,
      heldByteLimit: DatabaseXMLReader<S, SplitMix64, StandardPrimitives>.heldByteLimit(xmlByteCount: xml.count),
      applyStream: { pullStream.value.apply(to: &$0) },
      protect: { ProtectedValue(bytes: $0, using: &pullRandom.value) },
      decompress: { (bytes, limit) throws(KDBXError) in
        try StandardPrimitives().decompressGzip(bytes, maxOutputByteCount: limit)
      })
    let viaPull = try reader.readDocument(binaries: binaries)
    stream = pullStream.value
    #expect(viaPull == viaTree, "\(label): the two paths read different models")
    return (viaPull, Cost(xmlByteCount: xml.count, nodeCount: reader.nodes.count, heldBytes: reader.heldBytes))
  }

  /// The database XML reader of the open path, reading every database both ways (and keeping the pull reader's
  /// model).
  final class BothWays: @unchecked Sendable {
    var label = ""
    var costs: [Cost] = []

    /// The database XML reader of an open that reads with ``readDatabase(xml:binaries:stream:random:options:)``.
    var xml: DatabaseXMLOverride<StandardPrimitives.InnerStream> {
      DatabaseXMLOverride(read: { xml, binaries, stream, options throws(KDBXError) in
        var random = SplitMix64(seed: 2)
        return try self.readDatabase(xml: xml, binaries: binaries, stream: &stream, random: &random, options: options)
      })
    }

    func readDatabase<S: InnerRandomStream, R: RandomNumberGenerator>(
      xml: [UInt8], binaries: [InnerHeader.Binary], stream: inout S, random: inout R, options: LoadOptions
    ) throws(KDBXError) -> Database {
      do {
        let (database, cost) = try DatabaseXMLPullReaderTests.readBothWays(
          xml, binaries: binaries, stream: &stream, label: label)
        costs.append(cost)
        return database
      } catch let error as KDBXError {
        throw error
      } catch {
        throw .malformedDocument(path: label, reason: "\(error)")
      }
    }
  }

  /// Every corpus file whose transformed key is known (no KDF run), large_5000 included: both paths read equal
  /// models, and real vaults use a small part of the limits. Prints the largest figures.
  @Test(.enabled(if: Corpus.isAvailable)) func corpusReadsEqualBothWaysWithinTheLimits() throws {
    let files = CorpusKDBXFile.all.filter { CorpusTransformedKeys.byFile[$0.path] != nil }
    #expect(files.count >= 60)
    var largest: (path: String, cost: Cost)? = nil
    var highestRatio: (path: String, ratio: Double)? = nil
    for file in files {
      let bytes = try #require(Corpus.file(file.path))
      let key = try CompositeKey(transformedKey: try #require(CorpusTransformedKeys.byFile[file.path]).key)
      let reader = BothWays()
      reader.label = file.path
      var random = SplitMix64(seed: 2)
      let opened = try KDBXFile.open(
        bytes: bytes, key: key, primitives: StandardPrimitives(), random: &random, xml: reader.xml)
      // The same model as the standard open.
      #expect(opened.database == (try KDBXFile.openBlocking(bytes: bytes, key: key)).database, "\(file.path)")
      let cost = try #require(reader.costs.first)
      if cost.nodeCount > largest?.cost.nodeCount ?? -1 { largest = (file.path, cost) }
      let ratio = Double(cost.heldBytes) / Double(max(cost.xmlByteCount, 1))
      if ratio > highestRatio?.ratio ?? -1 { highestRatio = (file.path, ratio) }
      // Real vaults hold at most twice their XML (the bound is three times, plus 16 MiB), and use a tiny part of
      // the node limit.
      #expect(cost.heldBytes <= 2 * cost.xmlByteCount + (1 << 20), "\(file.path): \(cost)")
      #expect(cost.nodeCount * 40 <= LoadOptions.default.maxXMLNodeCount, "\(file.path): \(cost)")
    }
    if let largest, let highestRatio {
      print(
        "DatabaseXMLPullReaderTests: most nodes \(largest.path): \(largest.cost.nodeCount) nodes, "
          + "\(largest.cost.xmlByteCount) bytes of XML, \(largest.cost.heldBytes) bytes held; highest held/XML "
          + "ratio \(highestRatio.path): \(highestRatio.ratio)")
    }
  }

  /// Random documents with unknown content everywhere (``RandomDocument``): written by the model writer, read
  /// back both ways, equal; and read back, the document keeps what the first read kept.
  @Test func randomDocumentsReadEqualBothWays() throws {
    for seed in 0..<60 as Range<UInt64> {
      var generator = RandomDocument(seed: seed)
      var stream = PlaintextInnerStream()
      var database = try DatabaseXMLReader.read(
        document: generator.document(), stream: &stream, random: &generator.random, gzip: StandardPrimitives())
      generator.addModelContent(to: &database)
      for version in [KDBXVersion.v3_1, .v4_1] {
        // The first write normalizes what XML cannot carry (stripped characters, \r in comments): from the second
        // on, write -> read -> write gives the same bytes.
        var firstStream = PlaintextInnerStream()
        let first = try DatabaseXML.serialize(database, version: version, stream: &firstStream)
        var readStream = PlaintextInnerStream()
        let (read, _) = try Self.readBothWays(first, stream: &readStream, label: "seed \(seed) \(version.name)")
        var secondStream = PlaintextInnerStream()
        let second = try DatabaseXML.serialize(read, version: version, stream: &secondStream)
        var againStream = PlaintextInnerStream()
        let (again, _) = try Self.readBothWays(second, stream: &againStream, label: "seed \(seed) \(version.name)")
        #expect(again == read, "seed \(seed) \(version.name): read again, a different model")
        var thirdStream = PlaintextInnerStream()
        let third = try DatabaseXML.serialize(again, version: version, stream: &thirdStream)
        if third != second {
          let index = (0..<min(third.count, second.count)).first { third[$0] != second[$0] } ?? second.count
          let context = { (bytes: [UInt8]) in
            String(decoding: bytes[max(0, index - 120)..<min(bytes.count, index + 80)], as: UTF8.self)
          }
          let message =
            "seed \(seed) \(version.name): written again, different at byte \(index)\n\(context(second))\n---\n"
            + context(third)
          Issue.record(Comment(rawValue: message))
        }
      }
    }
  }

  // MARK: - KeptXML

  static func element(_ name: String, _ attributes: [(String, String)] = [], _ children: [XMLNode] = []) -> XMLNode {
    .element(
      XMLElement(name: name, attributes: attributes.map { XMLAttribute(name: $0.0, value: $0.1) }, children: children))
  }

  @Test func keptNodesComeBackAsTheyWere() {
    let long = String(repeating: "x", count: 300)
    let nodes: [XMLNode] = [
      Self.element("a"),
      Self.element("mixed", [("k", "v")], [.text("t"), Self.element("in"), .cdata("c]]>d")]),
      .text(long), .text(""), .comment(" note "), .processingInstruction(target: "pi", data: "d a t a"),
      Self.element(String(repeating: "N", count: 40), [("attribute-\(long)", long)], [.text("é漢🔑")]),
      .cdata(""), Self.element("deep", [], [Self.element("deeper", [], [Self.element("deepest", [], [.text("x")])])]),
    ]
    let layout = XMLLayout(items: [.known("UUID")] + nodes.map { .unknown($0) } + [.known("Times")])
    #expect(layout.unknownNodes == nodes)
    #expect(layout.items == [.known("UUID")] + nodes.map { .unknown($0) } + [.known("Times")])
    #expect(layout.hasUnknownNodes)
    #expect(layout.holdsText)
    // Equality ignores the known order, not the nodes.
    #expect(layout == XMLLayout(items: nodes.map { .unknown($0) }))
    #expect(layout != XMLLayout(items: nodes.dropLast().map { .unknown($0) }))
    #expect(
      XMLLayout(items: [.unknown(.text("a")), .unknown(.text("b"))]) != XMLLayout(items: [.unknown(.text("ab"))]))
    // Canonically equivalent strings are equal, as Strings (and XMLNodes) are.
    #expect(XMLLayout(items: [.unknown(.text("e\u{301}"))]) == XMLLayout(items: [.unknown(.text("\u{E9}"))]))
    // The bytes are no larger than the nodes' XML.
    var writer = XMLStreamWriter(options: XMLWriter.Options(indentation: .none, writesDeclaration: false))
    for node in nodes { try? writer.write(node) }
    #expect(layout.keptByteCount <= writer.output.count + 2)
  }

  @Test func knownElementsMatchTheirNames() {
    #expect(KnownElement.allCases.count == XMLNames.layoutNames.count)
    #expect(XMLNames.layoutNames.count <= 128)
    for element in KnownElement.allCases {
      let name = XMLNames.layoutNames[Int(element.rawValue)]
      #expect(String(describing: element).lowercased() == name.lowercased())
      #expect(KnownElementTable.shared.element(name) == element)
    }
    for name in ["a", "", "Entries", "UUIDs", "Strin", "KeePassFil", "uuid", "Ｕ"] {
      #expect(KnownElementTable.shared.element(name) == nil, "\(name)")
    }
  }

  @Test func invalidUTF8IsFoundAndEscaped() {
    #expect(UTF8Bytes.isValid(Array("plain é 漢 🔑".utf8)))
    for bad: [UInt8] in [[0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
      #expect(!UTF8Bytes.isValid(bad), "\(bad)")
    }
    var random = SplitMix64(seed: 3)
    let value = ProtectedValue(bytes: [0x66, 0xFF, 0xC3, 0xA9, 0xC3], using: &random)
    #expect(!value.isValidUTF8)
    #expect(value.reveal { "\\x" + String($0, radix: 16) } == "f\\xffé\\xc3")
    #expect(value.reveal() == "f\u{FFFD}é\u{FFFD}")
    #expect(ProtectedValue("ok", using: &random).isValidUTF8)
  }

  // MARK: - Limits

  static func document(meta: String = "", group: String = "") -> [UInt8] {
    Array(
      ("<KeePassFile><Meta>\(meta)</Meta><Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAA==</UUID>\(group)</Group>"
        + "</Root></KeePassFile>").utf8)
  }

  static func read(_ xml: [UInt8], options: LoadOptions = .default) throws(KDBXError) -> Database {
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 4)
    return try DatabaseXMLReader.read(
      xml: xml, stream: &stream, random: &random, gzip: NoGzipDecompressor(), options: options)
  }

  @Test func unknownElementsAreKeptInAboutTheirSize() throws {
    let count = 100_000
    let database = try Self.read(Self.document(meta: String(repeating: "<a/>", count: count)))
    #expect(database.meta.layout.keptByteCount <= 3 * count + 64)
    #expect(database.meta.layout.unknownNodes.count == count)
  }

  @Test func theNodeLimitRefusesMoreNodes() throws {
    let xml = Self.document(meta: String(repeating: "<a/>", count: 1_000))
    #expect(throws: KDBXError.self) { try Self.read(xml, options: LoadOptions(maxXMLNodeCount: 900)) }
    do {
      _ = try Self.read(xml, options: LoadOptions(maxXMLNodeCount: 900))
    } catch {
      #expect(error.description == "XML node count 901 exceeds the limit 900")
    }
    _ = try Self.read(xml, options: LoadOptions(maxXMLNodeCount: 1_010))
  }

  /// `KDBXFile.verifyIntegrity` (the read-back check of a save) applies the same node limit, to elements.
  @Test func integrityCheckAppliesTheNodeLimit() throws {
    var uuids = SplitMix64(seed: 7)
    var database = Database.new(
      name: "limits", clock: FixedClock(Timestamp(unixSeconds: 1_700_000_000)), random: &uuids)
    database.meta.layout = XMLLayout(items: Array(repeating: .unknown(.element(XMLElement(name: "a"))), count: 1_000))
    let key = CompositeKey(password: "limits")
    let settings = SaveSettings(
      version: .v4_0, kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [UInt8](repeating: 0, count: 32))))
    var random = SplitMix64(seed: 8)
    let saved = try KDBXFile.write(
      database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random)
    let cached = CompositeKey(transformedSecret: saved.transformedKey)
    let report = try KDBXFile.verifyIntegrity(bytes: saved.bytes, key: cached, primitives: StandardPrimitives())
    #expect(report.elementCount > 1_000)
    #expect(throws: KDBXError.self) {
      try KDBXFile.verifyIntegrity(
        bytes: saved.bytes, key: cached, primitives: StandardPrimitives(), options: LoadOptions(maxXMLNodeCount: 900))
    }
    let reopened = try KDBXFile.openBlocking(bytes: saved.bytes, key: cached)
    #expect(reopened.database.meta.layout.unknownNodes.count == 1_000)
  }

  @Test func modelsBeyondThreeTimesTheDocumentAreRefused() throws {
    // 8 bytes of XML per entry, several hundred bytes of model.
    let xml = Self.document(group: String(repeating: "<Entry/>", count: 200_000))
    do {
      _ = try Self.read(xml)
      Issue.record("200,000 empty entries were read")
    } catch {
      guard case .limitExceeded(let what, _, let limit) = error else {
        Issue.record("unexpected error \(error)")
        return
      }
      #expect(what.contains("memory"))
      #expect(limit == UInt64(3 * xml.count + (16 << 20)))
    }
    // Ten thousand fit under the floor.
    let fitting = try Self.read(Self.document(group: String(repeating: "<Entry/>", count: 10_000)))
    #expect(fitting.root?.entries.count == 10_000)
  }

  @Test func danglingReferencesAreKeptAndWrittenBackMissing() throws {
    let entry =
      "<Entry><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Binary><Key>a.txt</Key><Value Ref=\"5\"/></Binary>"
      + "<Binary><Key>b.txt</Key><Value Ref=\"0\"/></Binary></Entry>"
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 6)
    let database = try DatabaseXMLReader.read(
      xml: Self.document(group: entry), binaries: [InnerHeader.Binary(isProtected: false, data: [1, 2, 3])],
      stream: &stream, random: &random, gzip: NoGzipDecompressor())
    let attachments = try #require(database.root?.entries.first?.attachments)
    #expect(attachments.map(\.name) == ["a.txt", "b.txt"])
    #expect(attachments[0].missingReference == "5")
    #expect(attachments[0].isMissing(in: database))
    #expect(database.contents(of: attachments[0]) == nil)
    #expect(attachments[1].missingReference == nil)
    #expect(database.contents(of: attachments[1]) == [1, 2, 3])
    // Written back: still dangling, with its number while that names no binary...
    var writeStream = PlaintextInnerStream()
    let tree = DatabaseXMLWriter.write(database, version: .v4_0, stream: &writeStream)
    let text = String(decoding: try XMLWriter.write(tree), as: UTF8.self)
    #expect(text.contains("<Value Ref=\"5\" />"))
    // ...and past the pool once it would name one.
    var grown = database
    for byte in 10..<16 as Range<UInt8> { _ = grown.binaries.add([byte]) }
    var grownStream = PlaintextInnerStream()
    let grownText = String(
      decoding: try XMLWriter.write(DatabaseXMLWriter.write(grown, version: .v4_0, stream: &grownStream)),
      as: UTF8.self)
    #expect(grownText.contains("<Value Ref=\"7\" />"), "\(grownText)")
  }
}
