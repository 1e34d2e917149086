import KDBXXML
import Testing
import VectorSupport

private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

@Test func writesKeePassStyleIndentation() throws {
  let root = XMLElement(
    name: "KeePassFile",
    children: [
      .element(
        XMLElement(
          name: "Meta",
          children: [
            .element(XMLElement(name: "Generator", children: [.text("KeePass")])),
            .element(XMLElement(name: "Color")),
            .element(XMLElement(name: "Mixed", children: [.text("a"), .element(XMLElement(name: "b")), .text("c")])),
          ]))
    ])
  let expected = """
    <?xml version="1.0" encoding="utf-8" standalone="yes"?>
    <KeePassFile>
    \t<Meta>
    \t\t<Generator>KeePass</Generator>
    \t\t<Color />
    \t\t<Mixed>a<b />c</Mixed>
    \t</Meta>
    </KeePassFile>
    """
  #expect(text(try XMLWriter.write(root)) == expected)
  let compact = XMLWriter.Options(indentation: .none, writesDeclaration: false)
  #expect(
    text(try XMLWriter.write(root, options: compact))
      == "<KeePassFile><Meta><Generator>KeePass</Generator><Color/><Mixed>a<b/>c</Mixed></Meta></KeePassFile>")
}

@Test func escapesTextAndAttributes() throws {
  let root = XMLElement(
    name: "a", attributes: [XMLAttribute(name: "v", value: "<&>\"'\t\n\r")],
    children: [.text("]]> & < \r\n\t\"'")])
  let options = XMLWriter.Options(indentation: .none, writesDeclaration: false)
  #expect(
    text(try XMLWriter.write(root, options: options))
      == "<a v=\"&lt;&amp;&gt;&quot;'&#x9;&#xA;&#xD;\">]]&gt; &amp; &lt; &#xD;\n\t\"'</a>")
  #expect(try XMLElement.parse(try XMLWriter.write(root, options: options)) == root)
}

@Test func splitsCDATAAndChecksCommentsAndNames() throws {
  let options = XMLWriter.Options(indentation: .none, writesDeclaration: false)
  let cdata = XMLElement(name: "a", children: [.cdata("x]]>y")])
  #expect(text(try XMLWriter.write(cdata, options: options)) == "<a><![CDATA[x]]]]><![CDATA[>y]]></a>")
  #expect(try XMLElement.parse(try XMLWriter.write(cdata, options: options)).text == "x]]>y")
  #expect(throws: XMLError.self) { try XMLWriter.write(XMLElement(name: "a", children: [.comment("x--y")])) }
  #expect(throws: XMLError.self) { try XMLWriter.write(XMLElement(name: "a", children: [.comment("x-")])) }
  #expect(throws: XMLError.self) { try XMLWriter.write(XMLElement(name: "1a")) }
  #expect(throws: XMLError.self) { try XMLWriter.write(XMLElement(name: "a b")) }
  #expect(throws: XMLError.self) {
    try XMLWriter.write(XMLElement(name: "a", children: [.processingInstruction(target: "p", data: "?>")]))
  }
  #expect(throws: XMLError.self) {
    try XMLWriter.write(XMLElement(name: "a", attributes: [XMLAttribute(name: "", value: "")]))
  }
}

@Test func refusesOrStripsCharactersXMLCannotCarry() throws {
  for bad: UInt32 in [0x0, 0x1, 0x8, 0xB, 0xC, 0x1F, 0xFFFE, 0xFFFF] {
    guard let scalar = Unicode.Scalar(bad) else { continue }
    let value = "a" + String(Character(scalar)) + "b"
    let element = XMLElement(name: "e", attributes: [XMLAttribute(name: "k", value: value)], children: [.text(value)])
    do {
      _ = try XMLWriter.write(element)
      Issue.record("U+\(bad) was written")
    } catch {
      #expect(error.kind == .unrepresentableCharacter(bad))
    }
    let stripped = try XMLWriter.write(
      element, options: XMLWriter.Options(indentation: .none, writesDeclaration: false, invalidCharacters: .strip))
    #expect(text(stripped) == "<e k=\"ab\">ab</e>")
  }
}

@Test func sameTreeGivesSameBytesAndRoundTrips() throws {
  var random = SplitMix64(seed: 99)
  let alphabet: [Character] = ["a", "é", "&", "<", ">", "\"", "'", " ", "\n", "\t", "\r", "]", "😀", "日"]
  func randomText() -> String {
    String((0..<Int(random.next() % 12)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
  }
  for _ in 0..<50 {
    // A random tree with mixed content.
    var root = XMLElement(name: "root")
    for index in 0..<Int(random.next() % 8) {
      var child = XMLElement(name: "c\(index)", attributes: [XMLAttribute(name: "k", value: randomText())])
      // Text is never white space only here, so that indentation-skipping reads keep it.
      let content = "x" + randomText()
      if !content.isEmpty { child.children.append(.text(content)) }
      if random.next() % 2 == 0 { child.children.append(.element(XMLElement(name: "leaf"))) }
      root.children.append(.element(child))
    }
    let options = XMLWriter.Options(indentation: .none)
    let first = try XMLWriter.write(root, options: options)
    #expect(try XMLWriter.write(root, options: options) == first)
    let reread = try XMLElement.parse(first, options: XMLReader.Options(keepsWhitespaceText: true))
    #expect(reread == root)
    // Tab-indented output reads back to the same tree when indentation is skipped (element-only content).
    let indented = try XMLWriter.write(root)
    let skipped = try XMLElement.parse(indented)
    #expect(try XMLWriter.write(skipped) == indented)
  }
}
