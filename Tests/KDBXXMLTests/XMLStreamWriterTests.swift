import KDBXXML
import Testing
import VectorSupport

/// ``XMLStreamWriter`` fed event by event gives the bytes ``XMLWriter`` gives for the same tree, and its layout
/// rules match hand-written KeePass-style documents.
@Suite struct XMLStreamWriterTests {
  private static func string(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

  /// Hand-written expectations for the layout rules: element-only content indented, mixed content on one line down
  /// to its deepest descendant, empty elements as `<Name />`, comments and processing instructions on their own
  /// lines among elements, text after elements when the element was started as holding text.
  @Test func layoutMatchesHandWrittenDocuments() throws {
    var writer = XMLStreamWriter()
    writer.writeDeclaration()
    try writer.startElement("a")
    try writer.element("b", text: "t")
    try writer.startElement("c")
    try writer.attribute("k", value: "v\t\"<&")
    try writer.comment(" note ")
    try writer.startElement("d")
    writer.endElement()
    writer.endElement()
    try writer.startElement("m", containsText: true)
    try writer.text("x")
    try writer.startElement("n")
    try writer.element("o", text: "")
    writer.endElement()
    try writer.text("y\r")
    writer.endElement()
    try writer.processingInstruction(target: "pi", data: "d")
    try writer.element("e", attributes: [XMLAttribute(name: "z", value: "1")], text: "]]>&")
    try writer.startElement("f", containsText: true)
    try writer.text("")
    writer.endElement()
    writer.endElement()
    let expected = """
      <?xml version="1.0" encoding="utf-8" standalone="yes"?>
      <a>
      \t<b>t</b>
      \t<c k="v&#x9;&quot;&lt;&amp;">
      \t\t<!-- note -->
      \t\t<d />
      \t</c>
      \t<m>x<n><o /></n>y&#xD;</m>
      \t<?pi d?>
      \t<e z="1">]]&gt;&amp;</e>
      \t<f></f>
      </a>
      """
    #expect(Self.string(writer.output) == expected)
    #expect(writer.depth == 0)
  }

  /// Without indentation nothing is added, and empty elements have no space before `/>`.
  @Test func compactLayout() throws {
    var writer = XMLStreamWriter(options: XMLWriter.Options(indentation: .none, writesDeclaration: false))
    writer.writeDeclaration()
    try writer.startElement("a")
    try writer.element("b", text: "")
    try writer.startElement("c")
    try writer.cdata("x]]>y")
    writer.endElement()
    writer.endElement()
    #expect(Self.string(writer.output) == "<a><b/><c><![CDATA[x]]]]><![CDATA[>y]]></c></a>")
  }

  @Test func refusesWhatXMLWriterRefuses() {
    var writer = XMLStreamWriter()
    #expect(throws: XMLError.self) { try writer.startElement("1a") }
    var other = XMLStreamWriter()
    #expect(throws: XMLError.self) { try other.element("a", text: "\u{1}") }
    var stripping = XMLStreamWriter(options: XMLWriter.Options(writesDeclaration: false, invalidCharacters: .strip))
    #expect(throws: Never.self) { try stripping.element("a", text: "x\u{1}\u{FFFE}y") }
    #expect(Self.string(stripping.output) == "<a>xy</a>")
  }

  /// A copy of a writer does not write into the original's output.
  @Test func copiesAreIndependent() throws {
    var writer = XMLStreamWriter(options: XMLWriter.Options(writesDeclaration: false))
    try writer.startElement("a")
    var copy = writer
    try copy.element("b", text: "1")
    copy.endElement()
    try writer.element("c", text: "2")
    writer.endElement()
    #expect(Self.string(copy.output) == "<a>\n\t<b>1</b>\n</a>")
    #expect(Self.string(writer.output) == "<a>\n\t<c>2</c>\n</a>")
  }

  /// Output past the 1 MiB working chunk: ranges read across the chunk's edge and the taken output are the bytes
  /// written, and a writer with reserved room hands over that very array (capacity kept: no joining copy, the
  /// output never in memory twice; issue #35, the AutoFill extension's save).
  @Test func largeOutputIsReadInRangesAndTakenWithoutACopy() throws {
    var writer = XMLStreamWriter(options: XMLWriter.Options(writesDeclaration: false))
    let reserved = 3 << 20
    writer.reserveCapacity(reserved)
    try writer.startElement("a")
    var index = 0
    while writer.byteCount < (2 << 20) + 12_345 {
      try writer.element("v", text: "value \(index) " + String(repeating: "x", count: index % 97))
      index += 1
    }
    writer.endElement()
    let whole = writer.output
    #expect(whole.count == writer.byteCount)
    for range in [0..<10, (1 << 20) - 5..<(1 << 20) + 5, 100..<whole.count, (2 << 20) - 1..<whole.count] {
      #expect(writer.output(in: range) == Array(whole[range]))
    }
    let taken = writer.takeOutput()
    #expect(taken == whole)
    #expect(taken.capacity >= reserved)
    #expect(writer.byteCount == 0)
  }

  /// Random trees with mixed content, comments, processing instructions, CDATA and attributes: the events give the
  /// tree writer's bytes, whether elements come as start/end pairs, as text-only elements or as whole subtrees.
  @Test func randomTreesStreamAsXMLWriterWrites() throws {
    for seed in 0..<300 as Range<UInt64> {
      var random = SplitMix64(seed: seed)
      let root = Self.randomElement(&random, depth: 0)
      for options in [
        XMLWriter.Options(invalidCharacters: .strip),
        XMLWriter.Options(indentation: .none, writesDeclaration: false, invalidCharacters: .strip),
      ] {
        let expected = try XMLWriter.write(root, options: options)
        var writer = XMLStreamWriter(options: options)
        writer.writeDeclaration()
        try Self.feed(.element(root), to: &writer, &random)
        #expect(writer.output == expected, "seed \(seed)\n\(Self.string(expected))\n---\n\(Self.string(writer.output))")
      }
    }
  }

  /// Feeds `node` to `writer` as events, choosing at random between the event forms.
  private static func feed(_ node: XMLNode, to writer: inout XMLStreamWriter, _ random: inout SplitMix64) throws {
    switch node {
    case .element(let element):
      // `element(_:attributes:text:)` with "" writes an element without children.
      let textOnly: Bool
      if element.children.isEmpty {
        textOnly = true
      } else if element.children.count == 1, case .text(let text) = element.children[0], !text.isEmpty {
        textOnly = true
      } else {
        textOnly = false
      }
      if textOnly && random.next() % 2 == 0 {
        try writer.element(element.name, attributes: element.attributes, text: element.text)
        return
      }
      if random.next() % 4 == 0 { return try writer.write(node) }
      let containsText = element.children.contains { child in
        switch child {
        case .text, .cdata: return true
        default: return false
        }
      }
      try writer.startElement(element.name, containsText: containsText)
      for attribute in element.attributes { try writer.attribute(attribute.name, value: attribute.value) }
      for child in element.children { try feed(child, to: &writer, &random) }
      writer.endElement()
    case .text(let text): try writer.text(text)
    case .cdata(let text): try writer.cdata(text)
    case .comment(let text): try writer.comment(text)
    case .processingInstruction(let target, let data): try writer.processingInstruction(target: target, data: data)
    }
  }

  private static func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T {
    items[Int(random.next() % UInt64(items.count))]
  }

  private static func randomText(_ random: inout SplitMix64) -> String {
    let pieces = ["a", "&", "<b>", "]]>", "\"", "\t", "\n", "\r", "\u{1}", "\u{FFFF}", "é", "🔑", " ", ""]
    var out = ""
    for _ in 0..<Int(random.next() % 4) { out += pick(pieces, &random) }
    return out
  }

  private static func randomElement(_ random: inout SplitMix64, depth: Int) -> XMLElement {
    var element = XMLElement(name: pick(["a", "B", "c:d", "_e", "é"], &random))
    for index in 0..<Int(random.next() % 3) {
      element.attributes.append(XMLAttribute(name: "x\(index)", value: randomText(&random)))
    }
    let childCount = depth < 5 ? Int(random.next() % 5) : 0
    for _ in 0..<childCount {
      switch random.next() % 8 {
      case 0: element.children.append(.text(randomText(&random)))
      case 1: element.children.append(.cdata(pick(["x", "a]]>b", "c\rd", ""], &random)))
      case 2: element.children.append(.comment(pick(["c", " n ", "x-y"], &random)))
      case 3: element.children.append(.processingInstruction(target: "p", data: pick(["", "d e", "x\ry"], &random)))
      default: element.children.append(.element(randomElement(&random, depth: depth + 1)))
      }
    }
    return element
  }
}
