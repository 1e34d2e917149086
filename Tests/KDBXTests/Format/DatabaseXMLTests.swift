import KDBXBase
import KDBXXML
import Testing
import VectorSupport

@testable import KDBX

/// A deterministic stand-in for the Salsa20/ChaCha20 inner stream: byte n of the key stream is `n * 7 + 3`.
/// Reader and writer must consume it in document order, so a test stream started afresh must line up.
struct CountingStream: InnerRandomStream {
  var position = 0
  mutating func apply(to bytes: inout [UInt8]) {
    for index in 0..<bytes.count {
      bytes[index] ^= UInt8(truncatingIfNeeded: position * 7 + 3)
      position += 1
    }
  }
}

func el(_ name: String, _ text: String? = nil, _ attributes: [XMLAttribute] = [], _ children: [XMLElement] = [])
  -> XMLElement
{
  var nodes: [XMLNode] = children.map { .element($0) }
  if let text, !text.isEmpty { nodes.insert(.text(text), at: 0) }
  return XMLElement(name: name, attributes: attributes, children: nodes)
}

@Suite struct DatabaseXMLTests {
  static let time = KDBXTime.encodeBinary(Timestamp(unixSeconds: 1_700_000_000))
  static let uuidA = KDBXUUID(string: "00112233-4455-6677-8899-aabbccddeeff") ?? .zero
  static let uuidB = KDBXUUID(string: "ffeeddcc-bbaa-9988-7766-554433221100") ?? .zero

  /// A KDBX 4.1 document with protected values in document order (history after current fields), unknown
  /// elements and attributes in Meta, Group and Entry, a comment, an empty Notes and every entry feature.
  static func document() -> XMLElement {
    var stream = CountingStream()
    func protected(_ text: String) -> XMLElement {
      var bytes = Array(text.utf8)
      stream.apply(to: &bytes)
      return el("Value", Base64.encode(bytes), [XMLAttribute(name: "Protected", value: "True")])
    }
    let times = el("Times", nil, [], [el("CreationTime", time), el("Expires", "False"), el("UsageCount", "4")])
    let current = protected("s3cr3t!")
    let history = el(
      "History", nil, [],
      [
        el(
          "Entry", nil, [],
          [
            el("UUID", uuidA.base64), el("String", nil, [], [el("Key", "Password"), protected("old")]),
          ])
      ])
    let entry = el(
      "Entry", nil, [XMLAttribute(name: "x-plugin", value: "1")],
      [
        el("UUID", uuidA.base64), el("IconID", "0"), el("ForegroundColor"), el("QualityCheck", "False"),
        el("Tags", "web;test"), el("PluginThing", "x", [XMLAttribute(name: "a", value: "1")]),
        el("PreviousParentGroup", uuidB.base64), times,
        el(
          "CustomData", nil, [],
          [el("Item", nil, [], [el("Key", "k"), el("Value", "v"), el("LastModificationTime", time)])]),
        el("String", nil, [], [el("Key", "Title"), el("Value", "Simple"), el("PluginHint", "h")]),
        el("String", nil, [], [el("Key", "Password"), current]),
        el("String", nil, [], [el("Key", "Empty"), el("Value")]),
        el("Binary", nil, [], [el("Key", "hello.txt"), el("Value", nil, [XMLAttribute(name: "Ref", value: "0")])]),
        el(
          "AutoType", nil, [],
          [
            el("Enabled", "True"), el("DataTransferObfuscation", "0"),
            el("Association", nil, [], [el("Window", "Firefox*"), el("KeystrokeSequence", "{USERNAME}")]),
          ]),
        history,
      ])
    var group = el(
      "Group", nil, [],
      [
        el("UUID", uuidB.base64), el("Name", "Root"), el("Notes"), el("EnableAutoType", "null"), el("Tags", "corpus"),
        entry, el("Group", nil, [], [el("UUID", uuidA.base64), el("Name", "Sub")]),
      ])
    group.children.insert(.comment(" kept "), at: 2)
    let meta = el(
      "Meta", nil, [],
      [
        el("Generator", "KeePassXC"), el("DatabaseName", "Generated Sample"), el("DatabaseNameChanged", time),
        el("MemoryProtection", nil, [], [el("ProtectTitle", "False"), el("ProtectPassword", "True")]),
        el(
          "CustomIcons", nil, [],
          [
            el(
              "Icon", nil, [],
              [el("UUID", uuidA.base64), el("Data", "iVBORw=="), el("Name", "icon"), el("LastModificationTime", time)])
          ]),
        el("UnknownMetaField", "keep me"),
        el("RecycleBinEnabled", "True"), el("RecycleBinUUID", uuidB.base64), el("HistoryMaxItems", "10"),
        el(
          "CustomData", nil, [],
          [el("Item", nil, [], [el("Key", "KPXC_DECRYPTION_TIME_PREFERENCE"), el("Value", "100")])]),
      ])
    let root = el(
      "Root", nil, [],
      [
        group,
        el(
          "DeletedObjects", nil, [],
          [el("DeletedObject", nil, [], [el("UUID", uuidA.base64), el("DeletionTime", time)])]),
      ])
    return el("KeePassFile", nil, [], [meta, root])
  }

  @Test func readsEveryFeature() throws {
    var stream = CountingStream()
    var random = SplitMix64(seed: 9)
    let database = try DatabaseXMLReader.read(
      document: Self.document(), binaries: [.init(isProtected: false, data: Array("hello world!\n".utf8))],
      stream: &stream, random: &random, gzip: NoGzipDecompressor())
    #expect(database.meta.generator == "KeePassXC")
    #expect(database.meta.databaseName == "Generated Sample")
    #expect(database.meta.memoryProtection?.protectPassword == true)
    #expect(database.meta.memoryProtection?.protectURL == nil)
    #expect(database.meta.customIcons?.first?.name == "icon")
    #expect(database.meta.customIcons?.first?.data == [0x89, 0x50, 0x4E, 0x47])
    #expect(database.meta.recycleBinUUID == Self.uuidB)
    #expect(database.meta.customData?["KPXC_DECRYPTION_TIME_PREFERENCE"] == "100")
    #expect(database.meta.layout.unknownNodes.count == 1)
    let root = try #require(database.root)
    #expect(root.name == "Root")
    #expect(root.notes == "")  // empty, not absent
    #expect(root.defaultAutoTypeSequence == nil)
    #expect(root.enableAutoType == .some(nil))
    #expect(root.tagsText == "corpus")
    #expect(root.groups.first?.name == "Sub")
    let entry = try #require(root.entries.first)
    #expect(entry[field: "Title"] == .plain("Simple"))
    #expect(entry[field: "Password"]?.isProtected == true)
    #expect(entry[field: "Password"]?.reveal() == "s3cr3t!")
    #expect(entry[field: "Empty"] == .plain(""))
    #expect(entry.foregroundColor == "")
    #expect(entry.backgroundColor == nil)
    #expect(entry.qualityCheck == false)
    #expect(entry.previousParentGroup == Self.uuidB)
    #expect(entry.times?.usageCount == 4)
    #expect(entry.times?.creationTime == Timestamp(unixSeconds: 1_700_000_000))
    #expect(entry.customData?.items.first?.lastModificationTime == Timestamp(unixSeconds: 1_700_000_000))
    #expect(entry.attachments == [Attachment(name: "hello.txt", binaryIndex: 0)])
    #expect(database.binaries[0]?.data == Array("hello world!\n".utf8))
    #expect(entry.autoType?.associations.first?.keystrokeSequence == "{USERNAME}")
    #expect(entry.history?.first?[field: "Password"]?.reveal() == "old")
    #expect(entry.layout.unknownNodes.count == 1)
    #expect(database.deletedObjects?.first?.uuid == Self.uuidA)
    #expect(stream.position == "s3cr3t!".utf8.count + "old".utf8.count)
  }

  @Test func roundTripIsLossless() throws {
    var readStream = CountingStream()
    var random = SplitMix64(seed: 10)
    let input = Self.document()
    let database = try DatabaseXMLReader.read(
      document: input, binaries: [.init(isProtected: false, data: [1])], stream: &readStream, random: &random,
      gzip: NoGzipDecompressor())
    var writeStream = CountingStream()
    let output = DatabaseXMLWriter.write(database, version: .v4_1, stream: &writeStream)
    #expect(output == input)
    #expect(writeStream.position == readStream.position)
    // The comparison is sensitive: an absent field differs from an empty one.
    var changed = database
    changed.root?.notesText = nil
    var otherStream = CountingStream()
    #expect(DatabaseXMLWriter.write(changed, version: .v4_1, stream: &otherStream) != input)
  }

  @Test func olderVersionsDropNewerFieldsAndUseISOTimes() throws {
    var stream = CountingStream()
    var random = SplitMix64(seed: 11)
    var database = try DatabaseXMLReader.read(
      document: Self.document(), binaries: [.init(isProtected: true, data: [1, 2, 3])], stream: &stream,
      random: &random, gzip: NoGzipDecompressor())
    database.meta.headerHash = [UInt8](repeating: 0xAB, count: 32)
    var writeStream = CountingStream()
    let output = DatabaseXMLWriter.write(database, version: .v3_1, stream: &writeStream)
    var reread = CountingStream()
    let back = try DatabaseXMLReader.read(
      document: output, stream: &reread, random: &random, gzip: NoGzipDecompressor())
    #expect(back.root?.entries.first?.qualityCheck == nil)
    #expect(back.root?.entries.first?.customData == nil)
    #expect(back.root?.tagsText == nil)
    #expect(back.meta.customIcons?.first?.name == nil)
    #expect(back.meta.headerHash == [UInt8](repeating: 0xAB, count: 32))
    #expect(back.binaries[0] == BinaryPool.Binary(data: [1, 2, 3], isProtected: true))
    #expect(back.root?.entries.first?[field: "Password"]?.reveal() == "s3cr3t!")
    #expect(back.root?.entries.first?.times?.creationTime == Timestamp(unixSeconds: 1_700_000_000))
    // KDBX 3.1 times are ISO 8601 text.
    let meta = output.children.compactMap {
      if case .element(let e) = $0, e.name == "Meta" { return e } else { return nil }
    }
    let changed = meta.first?.children.compactMap {
      if case .element(let e) = $0, e.name == "DatabaseNameChanged" { return e } else { return nil }
    }
    #expect(changed?.first?.children == [.text("2023-11-14T22:13:20Z")])
  }

  @Test func malformedDocumentsThrow() {
    var stream = CountingStream()
    var random = SplitMix64(seed: 12)
    func read(_ document: XMLElement) throws(KDBXError) -> Database {
      try DatabaseXMLReader.read(document: document, stream: &stream, random: &random, gzip: NoGzipDecompressor())
    }
    #expect(throws: KDBXError.malformedDocument(path: "Root", reason: "root element is not KeePassFile")) {
      try read(el("Root"))
    }
    #expect(throws: KDBXError.malformedValue(element: "UUID", reason: "not a base64 16-byte UUID")) {
      try read(el("KeePassFile", nil, [], [el("Root", nil, [], [el("Group", nil, [], [el("UUID", "AAAA")])])]))
    }
    #expect(throws: KDBXError.malformedDocument(path: "Root", reason: "more than one root group")) {
      try read(el("KeePassFile", nil, [], [el("Root", nil, [], [el("Group"), el("Group")])]))
    }
    // A dangling attachment reference (`Ref="3"` with no binary 3) no longer throws (issue #19 item 14): the
    // attachment is kept as missing; Tests/KDBXEndToEndTests/HostileXMLTests.swift checks it.
    #expect(throws: KDBXError.malformedDocument(path: "Entry/Binary", reason: "missing Key or Value")) {
      let entry = el("Entry", nil, [], [el("Binary", nil, [], [el("Key", "a")])])
      return try read(el("KeePassFile", nil, [], [el("Root", nil, [], [el("Group", nil, [], [entry])])]))
    }
    var deep = el("Group")
    for _ in 0..<20 { deep = el("Group", nil, [], [deep]) }
    let options = LoadOptions(maxXMLDepth: 10)
    #expect(throws: KDBXError.self) {
      try DatabaseXMLReader.read(
        document: el("KeePassFile", nil, [], [el("Root", nil, [], [deep])]), stream: &stream, random: &random,
        gzip: NoGzipDecompressor(), options: options)
    }
  }

  @Test func protectedValueNeverPrints() {
    var random = SplitMix64(seed: 13)
    let value = ProtectedValue("hunter2", using: &random)
    #expect(value.reveal() == "hunter2")
    #expect("\(value)" == "<protected>")
    #expect(String(reflecting: value) == "ProtectedValue(<protected>)")
    var dumped = ""
    dump(FieldValue.protected(value), to: &dumped)
    #expect(!dumped.contains("hunter2"))
    #expect(value.masked != Array("hunter2".utf8))
    #expect(value == ProtectedValue("hunter2", using: &random))
    #expect(value != ProtectedValue("hunter3", using: &random))
  }

  @Test func binaryPoolDeduplicates() {
    var pool = BinaryPool()
    #expect(pool.add([1, 2]) == 0)
    #expect(pool.add([3]) == 1)
    #expect(pool.add([1, 2], isProtected: true) == 0)
    #expect(pool.count == 2)
    #expect(pool[0]?.isProtected == true)
    #expect(pool[5] == nil)
  }

  /// The check of a save (`keepsTree` false) reads every group and entry and keeps none of them once read: a tree
  /// of 40 groups under the root, 30 of them nested in a chain, each with an entry, reads back as a bare root.
  @Test func saveCheckKeepsNoFinishedGroup() throws {
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var random = SplitMix64(seed: 12)
    var database = Database.new(name: "Root", clock: clock, random: &random)
    var chain = Group.new(name: "C30", clock: clock, random: &random)
    for level in stride(from: 29, through: 1, by: -1) {
      var parent = Group.new(name: "C\(level)", clock: clock, random: &random)
      parent.entries = [Entry.new(clock: clock, random: &random)]
      parent.groups = [chain]
      chain = parent
    }
    database.root?.groups = [chain]
    for index in 0..<10 {
      var group = Group.new(name: "G\(index)", clock: clock, random: &random)
      group.entries = [Entry.new(clock: clock, random: &random)]
      database.root?.groups.append(group)
    }
    var stream = PlaintextInnerStream()
    let xml = try DatabaseXMLWriter.serialize(database, version: .v4_1, stream: &stream, options: .init())
    func read(keepsTree: Bool) throws -> Database {
      try readDatabaseModel(
        xml: xml, binaries: [], options: .default, heldByteLimit: .max, keepsTree: keepsTree, pipeline: .sequential,
        applyStream: { _ in }, protect: { ProtectedValue(bytes: $0, using: &random) },
        decompress: { (_, _) throws(KDBXError) in [] })
    }
    let opened = try read(keepsTree: true)
    #expect(opened.root?.groups.count == 11)
    #expect(opened.root?.groups.first?.groups.count == 1)
    let checked = try read(keepsTree: false)
    #expect(checked.root?.name == "Root")
    #expect(checked.root?.groups.isEmpty == true)
    #expect(checked.root?.entries.isEmpty == true)
  }

  /// Unknown attributes stay on the element they were read on: those of a `String` or `Binary` element on it, and
  /// those of its `Value` (plain, protected or a binary reference) on the `Value`, beside the model's own
  /// (`Protected`, `Ref`), even those named as the binary pool's (`ID`, `Compressed`), which a field's `Value` does
  /// not have. Before, the parent's attributes were copied onto `Value` and the `Value`'s own lost.
  @Test func valueAttributesStayOnTheValue() throws {
    var protectedBytes = Array("pw".utf8)
    var protectStream = CountingStream()
    protectStream.apply(to: &protectedBytes)
    let xml = Array(
      """
      <?xml version="1.0" encoding="utf-8" standalone="yes"?>
      <KeePassFile><Meta/><Root><Group><UUID>\(Self.uuidA.base64)</UUID><Name>R</Name><Entry>\
      <UUID>\(Self.uuidB.base64)</UUID>\
      <String Bar="2"><Key>A</Key><Value Foo="1">x</Value></String>\
      <String><Key>B</Key><Value ID="7" Compressed="no">y</Value></String>\
      <String><Key>Password</Key><Value Protected="True" Zed="5">\(Base64.encode(protectedBytes))</Value></String>\
      <Binary Baz="3"><Key>f</Key><Value Ref="0" Qux="4"/></Binary>\
      </Entry></Group></Root></KeePassFile>
      """.utf8)
    var readStream = CountingStream()
    var random = SplitMix64(seed: 13)
    let database = try DatabaseXMLReader.read(
      xml: xml, binaries: [.init(isProtected: false, data: [1])], stream: &readStream, random: &random,
      gzip: NoGzipDecompressor())
    var writeStream = CountingStream()
    let output = String(
      decoding: try DatabaseXMLWriter.serialize(database, version: .v4_1, stream: &writeStream, options: .init()),
      as: UTF8.self)
    for expected in [
      "<String Bar=\"2\">", "<Value Foo=\"1\">x</Value>", "<Value ID=\"7\" Compressed=\"no\">y</Value>",
      "<Value Protected=\"True\" Zed=\"5\">",
      "<Binary Baz=\"3\">", "<Value Ref=\"0\" Qux=\"4\" />",
    ] {
      #expect(output.contains(expected), "missing \(expected)")
    }
    #expect(!output.contains("<Value Bar"))
    #expect(!output.contains("<Value Ref=\"0\" Baz"))
  }

  /// A document in KeePass's element order with nothing unknown (what this library and KeePass write) reads into
  /// layouts that hold no storage: every group, entry, field, `Times`, `AutoType` and history costs one word for
  /// its layout and allocates nothing for it.
  @Test func canonicalDocumentLayoutsHoldNoStorage() throws {
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var random = SplitMix64(seed: 14)
    var database = Database.new(name: "Root", clock: clock, random: &random)
    var group = Group.new(name: "G", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry.title = "t"
    entry.fields.append(EntryField(key: "custom", value: .plain("c")))
    entry.history = [Entry.new(clock: clock, random: &random)]
    group.entries = [entry]
    database.root?.groups = [group]
    var writeStream = CountingStream()
    let xml = try DatabaseXMLWriter.serialize(database, version: .v4_1, stream: &writeStream, options: .init())
    var readStream = CountingStream()
    let read = try DatabaseXMLReader.read(
      xml: xml, stream: &readStream, random: &random, gzip: NoGzipDecompressor(), pipeline: .sequential)
    let readGroup = try #require(read.root?.groups.first)
    let readEntry = try #require(readGroup.entries.first)
    var layouts = [read.rootLayout, readGroup.layout, readEntry.layout, readEntry.historyLayout]
    layouts += [readGroup.times?.layout, readEntry.times?.layout, readEntry.autoType?.layout].compactMap { $0 }
    layouts += readEntry.fields.map(\.layout) + (readEntry.history ?? []).map(\.layout)
    #expect(layouts.count == 14)
    #expect(layouts.allSatisfy { !$0.holdsStorage })
    // A layout that keeps something does hold storage.
    #expect(XMLLayout(items: [.unknown(.comment("x"))]).holdsStorage)
  }
}
