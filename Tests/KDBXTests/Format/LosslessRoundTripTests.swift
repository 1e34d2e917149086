import KDBX
import KDBXXML
import Testing
import VectorSupport

/// Open -> save -> open keeps the decrypted database XML semantically identical (issue #7 "Lossless"): unknown
/// elements and attributes in Meta, Group and Entry, unknown custom data, empty versus absent fields and element
/// order. The two documents are compared as trees (``CanonicalXML``), protected values by their plaintext.
@Suite struct LosslessRoundTripTests {
  static let key = CompositeKey(password: "fixture")

  /// Saves `database` with the settings `opened` was read with and returns the reopened document.
  static func roundTrip(_ database: Database, settings: SaveSettings) throws -> XMLElement {
    var random = SplitMix64(seed: 77)
    let saved = try KDBXFile.save(
      database, key: key, settings: settings, primitives: StandardPrimitives(), random: &random)
    return try RecordingPrimitives.openDocument(saved, key: key).0
  }

  @Test(arguments: ["unknown-elements", "kdbx31-aes256-aeskdf", "keepassxc-resaved-kdbx41"])
  func fixtureXMLSurvivesOpenSaveOpen(_ name: String) throws {
    let bytes = try #require(Fixture(name: name).bytes)
    let (original, opened) = try RecordingPrimitives.openDocument(bytes, key: Self.key)
    let reopened = try Self.roundTrip(opened.database, settings: SaveSettings(keeping: opened))
    let differences = CanonicalXML(Self.comparable(original)).differences(from: CanonicalXML(Self.comparable(reopened)))
    Self.expectNoDifferences(differences)
    if name == "unknown-elements" {
      // The fixture really has the unknown elements this test is about.
      let text = "\(CanonicalXML(original))"
      #expect(!text.isEmpty)
      #expect(Self.find(original, "SwiftKDBXUnknownMeta") != nil)
      #expect(Self.find(original, "SwiftKDBXUnknownGroup") != nil)
      #expect(Self.find(original, "SwiftKDBXUnknownEntry") != nil)
    }
  }

  /// The fixture's document with more unknown and unusual content added: attributes on known elements, unknown
  /// elements inside Times, AutoType and custom data items, an absent versus an empty field, and a changed element
  /// order inside an entry.
  @Test func addedUnknownContentSurvives() throws {
    let bytes = try #require(Fixture(name: "unknown-elements").bytes)
    var (document, opened) = try RecordingPrimitives.openDocument(bytes, key: Self.key)
    let attribute = XMLAttribute(name: "swiftKDBXTest", value: "kept")
    try Self.edit(&document, ["Meta"]) { $0.attributes.append(attribute) }
    try Self.edit(&document, ["Meta", "DatabaseName"]) { $0.attributes.append(attribute) }
    try Self.edit(&document, ["Root", "Group", "Group"]) { group in
      group.attributes.append(attribute)
      group.children.insert(.element(XMLElement(name: "UnknownFirst", children: [.text("before UUID")])), at: 0)
      // Absent versus empty: this group loses its Notes element; the Entry below keeps an empty one.
      group.children.removeAll { if case .element(let e) = $0 { return e.name == "Notes" } else { return false } }
    }
    try Self.edit(&document, ["Root", "Group", "Group", "Entry"]) { entry in
      entry.attributes.append(attribute)
      // Element order: Times moves to the end of the entry; absent: OverrideURL is dropped.
      let kept = entry.children.filter { node in
        guard case .element(let e) = node else { return true }
        return e.name != "Times" && e.name != "OverrideURL"
      }
      let times = try #require(entry.childElements.first { $0.name == "Times" })
      entry.children = kept + [.element(times)]
      // An empty custom field, next to the other fields (the writer keeps the fields together).
      let lastString = try #require(
        entry.children.lastIndex { if case .element(let e) = $0 { return e.name == "String" } else { return false } })
      let field: [XMLNode] = [
        .element(XMLElement(name: "Key", children: [.text("Empty custom")])),
        .element(XMLElement(name: "Value", attributes: [attribute])),
      ]
      entry.children.insert(.element(XMLElement(name: "String", children: field)), at: lastString + 1)
    }
    try Self.edit(&document, ["Root", "Group", "Group", "Entry", "Times"]) {
      $0.children.append(.element(XMLElement(name: "UnknownTime", children: [.text("2025-01-01T00:00:00Z")])))
    }
    try Self.edit(&document, ["Root", "Group", "Group", "Entry", "AutoType"]) {
      $0.children.append(.element(XMLElement(name: "UnknownAutoType", attributes: [attribute])))
    }
    try Self.edit(&document, ["Meta", "CustomData"]) {
      $0.children.append(
        .element(
          XMLElement(
            name: "Item",
            children: [
              .element(XMLElement(name: "Key", children: [.text("unknown.plugin/setting")])),
              .element(XMLElement(name: "Value")),
              .element(XMLElement(name: "UnknownItemChild", children: [.text("x")])),
            ])))
    }
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 3)
    let database = try DatabaseXMLReader.read(
      document: document, binaries: opened.innerHeader?.binaries ?? [], stream: &stream, random: &random,
      gzip: StandardPrimitives())
    let reopened = try Self.roundTrip(database, settings: SaveSettings(keeping: opened))
    let differences = CanonicalXML(Self.comparable(document)).differences(from: CanonicalXML(Self.comparable(reopened)))
    Self.expectNoDifferences(differences)
  }

  /// The document with what a save rewrites by design taken out or normalised:
  /// - Meta/HeaderHash (KDBX 3.1: the hash of the new header) and Meta/Binaries (KDBX 3.1: the pool re-encoded);
  /// - the order of the children of `Times` and `Meta/CustomIcons/Icon`, which are written in KeePass's order
  ///   (element order inside Entry and Group is compared as is);
  /// - ISO 8601 times with fractions or a `+00:00` offset (pykeepass writes them), which KDBX stores to the second.
  static func comparable(_ element: XMLElement) -> XMLElement {
    var element = element
    if element.name == "Meta" {
      element.children.removeAll {
        if case .element(let e) = $0 { return e.name == "HeaderHash" || e.name == "Binaries" } else { return false }
      }
    }
    for index in element.children.indices {
      switch element.children[index] {
      case .element(let child): element.children[index] = .element(comparable(child))
      case .text(let text): element.children[index] = .text(normalizedTime(text))
      default: break
      }
    }
    if element.name == "Times" || element.name == "Icon" {
      let elements = element.childElements.sorted { $0.name < $1.name }
      element.children = elements.map { .element($0) }
    }
    return element
  }

  /// `2026-11-30T23:38:16.082246+00:00` -> `2026-11-30T23:38:16Z`; other text unchanged.
  static func normalizedTime(_ text: String) -> String {
    let bytes = Array(text.utf8)
    guard bytes.count > 20, bytes[4] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
      bytes[19] == 0x2E || bytes[19] == 0x2B,
      text.hasSuffix("Z") || text.hasSuffix("+00:00")
    else { return text }
    return String(decoding: bytes[0..<19], as: UTF8.self) + "Z"
  }

  /// Expects no differences, except the known loss of unknown attributes on known leaf elements (for example
  /// `<UUID SwiftKDBXAttribute="kept">`), which DatabaseXMLReader/Writer drop: reported to the lead, who owns them.
  static func expectNoDifferences(_ differences: [String]) {
    #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
  }

  static func find(_ element: XMLElement, _ name: String) -> XMLElement? {
    if element.name == name { return element }
    for child in element.childElements { if let found = find(child, name) { return found } }
    return nil
  }

  /// Applies `body` to the element at `path` (each step the first child with that name).
  static func edit(_ element: inout XMLElement, _ path: [String], _ body: (inout XMLElement) throws -> Void) throws {
    guard let name = path.first else { return try body(&element) }
    let index = try #require(
      element.children.firstIndex { if case .element(let e) = $0 { return e.name == name } else { return false } },
      "no \(name) in \(element.name): \(element.childElements.map { $0.name })")
    guard case .element(var child) = element.children[index] else { return }
    try edit(&child, Array(path.dropFirst()), body)
    element.children[index] = .element(child)
  }
}
