import KDBX
import KDBXBase
import KDBXCompression
import KDBXXML
import Testing
import VectorSupport

/// The streamed database XML (``DatabaseXML/serialize(_:version:stream:)``, what a save writes)
/// is byte for byte the tree path's (`DatabaseXMLWriter.write` then `XMLWriter.write` with stripping), and moves
/// the inner random stream the same way.
@Suite struct DatabaseXMLStreamTests {
  static let versions: [KDBXVersion] = [.v3_1, .v4_0, .v4_1]

  /// The tree path's bytes and the streamed bytes, each with the stream position after it.
  static func bothPaths(_ database: Database, _ version: KDBXVersion) throws -> (tree: [UInt8], streamed: [UInt8]) {
    var treeStream = CountingStream()
    let tree = DatabaseXMLWriter.write(database, version: version, stream: &treeStream)
    var options = XMLWriter.Options()
    options.invalidCharacters = .strip
    let treeBytes = try XMLWriter.write(tree, options: options)
    var stream = CountingStream()
    let streamed = try DatabaseXML.serialize(database, version: version, stream: &stream)
    #expect(stream.position == treeStream.position, "inner random stream position, \(version.name)")
    return (treeBytes, streamed)
  }

  static func expectSame(_ database: Database, _ label: String) throws {
    for version in versions {
      let (tree, streamed) = try bothPaths(database, version)
      if tree != streamed {
        let common = min(tree.count, streamed.count)
        let index = (0..<common).first { tree[$0] != streamed[$0] } ?? common
        let context = { (bytes: [UInt8]) in
          String(decoding: bytes[max(0, index - 80)..<min(bytes.count, index + 80)], as: UTF8.self)
        }
        Issue.record(
          "\(label) \(version.name): first difference at byte \(index)\n\(context(tree))\n---\n\(context(streamed))")
      }
    }
  }

  @Test(arguments: Fixture.all)
  func fixturesStreamAsTheTreeWrites(_ fixture: Fixture) throws {
    let bytes = try #require(fixture.bytes, "missing fixture \(fixture.name)")
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: try fixture.key())
    try Self.expectSame(opened.database, fixture.name)
  }

  @Test(.enabled(if: Corpus.isAvailable), arguments: CorpusContentTests.files)
  func corpusXMLStreamsAsTheTreeWrites(_ name: String) throws {
    let bytes = try #require(Corpus.file(name))
    let document = try XMLElement.parse(bytes)
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 5)
    let database = try DatabaseXMLReader.read(
      document: document, stream: &stream, random: &random, gzip: StandardPrimitives())
    try Self.expectSame(database, name)
  }

  /// Random documents with unknown content everywhere, read into the model, then changed through the model.
  @Test func randomDatabasesStreamAsTheTreeWrites() throws {
    for seed in 0..<60 as Range<UInt64> {
      var generator = RandomDocument(seed: seed)
      let document = generator.document()
      var stream = PlaintextInnerStream()
      var database = try DatabaseXMLReader.read(
        document: document, stream: &stream, random: &generator.random, gzip: StandardPrimitives())
      generator.addModelContent(to: &database)
      try Self.expectSame(database, "seed \(seed)")
    }
  }

  /// The seam: a save whose database XML writer is the tree path (``DatabaseXMLOverride``) gives the same payload
  /// as the standard save (the same header and, decompressed, the same inner header and XML; the standard save
  /// compresses in other pieces).
  @Test func defaultSerializationIsTheTreePath() throws {
    var generator = RandomDocument(seed: 99)
    var stream = PlaintextInnerStream()
    var database = try DatabaseXMLReader.read(
      document: generator.document(), stream: &stream, random: &generator.random, gzip: StandardPrimitives())
    generator.addModelContent(to: &database)
    let key = CompositeKey(password: "stream")
    let settings = SaveSettings(
      version: .v4_1, kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [UInt8](repeating: 0, count: 32))))
    var firstRandom = SplitMix64(seed: 1)
    let standard = try KDBXFile.save(
      database, key: key, settings: settings, primitives: StandardPrimitives(), random: &firstRandom)
    var secondRandom = SplitMix64(seed: 1)
    let treePath = DatabaseXMLOverride<StandardPrimitives.InnerStream>(serialize: {
      database, version, stream throws(KDBXError) in
      do throws(XMLError) {
        return try XMLWriter.write(
          DatabaseXMLWriter.write(database, version: version, stream: &stream), options: DatabaseXML.writerOptions)
      } catch {
        throw .xml(error)
      }
    })
    let viaTree = try KDBXFile.write(
      database, key: key, settings: settings, primitives: StandardPrimitives(), random: &secondRandom, xml: treePath
    ).bytes
    #expect(standard.prefix(200) == viaTree.prefix(200))
    var payloads: [[UInt8]] = []
    for file in [standard, viaTree] {
      let reader = RecordingPrimitives(base: StandardPrimitives())
      var random = SplitMix64(seed: 2)
      _ = try KDBXFile.open(bytes: file, key: key, primitives: reader, random: &random)
      payloads.append(try Gzip.decompress(try #require(reader.log.plaintexts.last)))
    }
    #expect(payloads[0] == payloads[1])
    #expect(payloads[0].count > 1000)
  }
}

/// Random KeePass documents (as trees) with unknown elements, comments, processing instructions, CDATA, stray
/// text, attributes on known elements, characters XML 1.0 cannot carry, and then model content: protected values,
/// empty versus absent fields and deep groups.
struct RandomDocument {
  var random: SplitMix64

  init(seed: UInt64) { random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 17) }

  mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

  mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }

  /// Text with the characters that need escaping, stripping or care.
  mutating func text() -> String {
    let pieces = [
      "plain", "a & b", "<tag>", "]]>", "\"quoted\"", "tab\there", "line\nfeed", "carriage\rreturn", "crlf\r\n",
      "\u{1}ctl", "\u{FFFE}", "\u{FFFF}", "é", "漢字", "🔑", " ", "", "\u{0B}\u{0C}", "'apos'", "\u{7F}",
    ]
    var out = ""
    for _ in 0..<Int(random.next() % 4) { out += pick(pieces) }
    return out
  }

  mutating func unknownNode(depth: Int) -> XMLNode {
    switch random.next() % 6 {
    case 0: return .comment(pick(["c", " note ", "x-y", "é", "a\rb"]))
    case 1: return .processingInstruction(target: pick(["pi", "app"]), data: pick(["", "d", "a b", "x\ry"]))
    case 2: return .cdata(pick(["c", "a]]>b", "x\ry", "<&>", ""]))
    case 3: return .text(pick(["stray", " x ", "a&b"]))
    default:
      var element = XMLElement(name: pick(["Unknown", "X:y", "_u", "Plugin"]))
      if chance(50) { element.attributes.append(XMLAttribute(name: "a", value: text())) }
      if depth < 3 {
        for _ in 0..<Int(random.next() % 4) { element.children.append(unknownNode(depth: depth + 1)) }
      }
      return .element(element)
    }
  }

  /// `children` with unknown nodes inserted at random positions.
  mutating func sprinkle(_ children: [XMLNode]) -> [XMLNode] {
    var out: [XMLNode] = []
    for child in children {
      if chance(12) { out.append(unknownNode(depth: 0)) }
      out.append(child)
    }
    if chance(12) { out.append(unknownNode(depth: 0)) }
    return out
  }

  mutating func leaf(_ name: String, _ value: String) -> XMLNode {
    var element = XMLElement(name: name, children: value.isEmpty ? [] : [.text(value)])
    if chance(8) { element.attributes.append(XMLAttribute(name: "Extra", value: text())) }
    return .element(element)
  }

  mutating func uuid() -> String { Base64.encode(random.bytes(16)) }

  mutating func time() -> String { pick(["2024-01-02T03:04:05Z", Base64.encode(random.bytes(8)), ""]) }

  mutating func container(_ name: String, _ children: [XMLNode]) -> XMLNode {
    var element = XMLElement(name: name, children: sprinkle(children))
    if chance(5) { element.attributes.append(XMLAttribute(name: "Ext", value: "1")) }
    return .element(element)
  }

  mutating func times() -> XMLNode {
    var children: [XMLNode] = []
    for name in ["CreationTime", "LastModificationTime", "LastAccessTime", "ExpiryTime", "LocationChanged"]
    where chance(80) {
      children.append(leaf(name, time()))
    }
    if chance(70) { children.append(leaf("Expires", pick(["True", "False"]))) }
    if chance(70) { children.append(leaf("UsageCount", "\(random.next() % 1000)")) }
    if chance(20) { children.shuffle(using: &random) }
    return container("Times", children)
  }

  mutating func customData() -> XMLNode {
    var items: [XMLNode] = []
    for _ in 0..<Int(random.next() % 3) {
      var item = [leaf("Key", text()), leaf("Value", text())]
      if chance(50) { item.append(leaf("LastModificationTime", time())) }
      items.append(container("Item", item))
    }
    return container("CustomData", items)
  }

  mutating func field(_ key: String) -> XMLNode {
    var value = XMLElement(name: "Value")
    if chance(40) {
      value.attributes.append(XMLAttribute(name: "Protected", value: "True"))
      let bytes = random.bytes(Int(random.next() % 20))
      if !bytes.isEmpty { value.children = [.text(Base64.encode(bytes))] }
    } else {
      let text = text()
      if !text.isEmpty { value.children = [.text(text)] }
    }
    if chance(10) { value.attributes.append(XMLAttribute(name: "Extra", value: "v")) }
    return container("String", [leaf("Key", key), .element(value)])
  }

  mutating func entry(history: Bool) -> XMLNode {
    var children: [XMLNode] = [leaf("UUID", uuid())]
    if chance(60) { children.append(leaf("IconID", "\(random.next() % 60)")) }
    if chance(30) { children.append(leaf("ForegroundColor", "")) }
    if chance(30) { children.append(leaf("Tags", text())) }
    if chance(30) { children.append(leaf("QualityCheck", pick(["True", "False"]))) }
    if chance(70) { children.append(times()) }
    for key in ["Title", "UserName", "Password", "URL", "Notes"] where chance(70) { children.append(field(key)) }
    if chance(20) { children.append(field(text())) }
    if chance(30) { children.append(customData()) }
    if chance(30) {
      var autoType = [leaf("Enabled", "True"), leaf("DataTransferObfuscation", "0")]
      if chance(50) { autoType.append(leaf("DefaultSequence", text())) }
      for _ in 0..<Int(random.next() % 3) {
        autoType.append(container("Association", [leaf("Window", text()), leaf("KeystrokeSequence", text())]))
      }
      children.append(container("AutoType", autoType))
    }
    if !history && chance(40) {
      children.append(container("History", (0..<Int(random.next() % 3)).map { _ in entry(history: true) }))
    }
    if chance(15) { children.shuffle(using: &random) }
    return container("Entry", children)
  }

  mutating func group(depth: Int) -> XMLNode {
    var children: [XMLNode] = [leaf("UUID", uuid()), leaf("Name", text())]
    if chance(50) { children.append(leaf("Notes", text())) }
    if chance(60) { children.append(times()) }
    if chance(40) { children.append(leaf("IsExpanded", "True")) }
    if chance(40) { children.append(leaf("EnableAutoType", pick(["null", "true", "false"]))) }
    if chance(20) { children.append(customData()) }
    for _ in 0..<Int(random.next() % 4) {
      if chance(60) || depth > 3 {
        children.append(entry(history: false))
      } else {
        children.append(group(depth: depth + 1))
      }
    }
    return container("Group", children)
  }

  mutating func document() -> XMLElement {
    var meta: [XMLNode] = [leaf("Generator", text()), leaf("DatabaseName", text())]
    if chance(50) { meta.append(leaf("DatabaseNameChanged", time())) }
    if chance(50) { meta.append(leaf("MaintenanceHistoryDays", "365")) }
    if chance(50) {
      meta.append(
        container("MemoryProtection", [leaf("ProtectTitle", "False"), leaf("ProtectPassword", "True")]))
    }
    if chance(30) {
      let icon = container("Icon", [leaf("UUID", uuid()), leaf("Data", Base64.encode(random.bytes(5)))])
      meta.append(container("CustomIcons", [icon]))
    }
    if chance(40) {
      var binaries: [XMLNode] = []
      for index in 0..<Int(random.next() % 3) {
        var binary = XMLElement(name: "Binary", attributes: [XMLAttribute(name: "ID", value: "\(index)")])
        if chance(50) { binary.attributes.append(XMLAttribute(name: "Protected", value: "True")) }
        binary.children = [.text(Base64.encode(random.bytes(1 + Int(random.next() % 9))))]
        binaries.append(.element(binary))
      }
      meta.append(container("Binaries", binaries))
    }
    if chance(40) { meta.append(customData()) }
    var root: [XMLNode] = [group(depth: 0)]
    if chance(50) {
      let deleted = container("DeletedObject", [leaf("UUID", uuid()), leaf("DeletionTime", time())])
      root.append(container("DeletedObjects", [deleted]))
    }
    guard case .element(let file) = container("KeePassFile", [container("Meta", meta), container("Root", root)])
    else { return XMLElement(name: "KeePassFile") }
    return file
  }

  /// Adds content through the model: protected and plain values with awkward characters, an empty and an absent
  /// field, and a chain of nested groups.
  mutating func addModelContent(to database: inout Database) {
    var entry = Entry(uuid: KDBXUUID.random(using: &random))
    entry.fields.append(EntryField(key: "Password", value: .protected(ProtectedValue(text(), using: &random))))
    entry.fields.append(EntryField(key: "Empty", value: .plain("")))
    entry.fields.append(EntryField(key: "Awkward\r\u{1}", value: .plain(text() + "\r\n\u{FFFF}&")))
    entry.fields.append(EntryField(key: "Secret", value: .protected(ProtectedValue("", using: &random))))
    var deepest = Group(uuid: KDBXUUID.random(using: &random), name: text())
    deepest.entries.append(entry)
    for level in 0..<Int(random.next() % 40) {
      var parent = Group(uuid: KDBXUUID.random(using: &random), name: "level \(level)")
      parent.groups.append(deepest)
      deepest = parent
    }
    database.root?.groups.append(deepest)
  }
}
