import KDBXXML
import Testing

@Test func buildsTreeWithOrderAttributesAndMixedContent() throws {
  let root = try XMLElement.parse(Array("<r a='1' b='2'>x<e/>y<!--c--><![CDATA[z]]><?p d?><f k='v'>t</f></r>".utf8))
  #expect(root.name == "r")
  #expect(root.attributes == [XMLAttribute(name: "a", value: "1"), XMLAttribute(name: "b", value: "2")])
  #expect(
    root.children == [
      .text("x"), .element(XMLElement(name: "e")), .text("y"), .comment("c"), .cdata("z"),
      .processingInstruction(target: "p", data: "d"),
      .element(XMLElement(name: "f", attributes: [XMLAttribute(name: "k", value: "v")], children: [.text("t")])),
    ])
  #expect(root.text == "xyz")
  #expect(root.firstChild(named: "f")?.text == "t")
  #expect(root.firstChild(named: "f")?.attribute(named: "k") == "v")
  #expect(root.children(named: "e").count == 1)
  #expect(root.childElements.map(\.name) == ["e", "f"])
}

@Test func buildsTenThousandDeepTreeWithoutRecursion() throws {
  let depth = 10_000
  var document = String(repeating: "<e>", count: depth) + "leaf" + String(repeating: "</e>", count: depth)
  document = "<?xml version=\"1.0\"?>" + document
  let options = XMLReader.Options(limits: XMLReader.Limits(maximumDepth: depth))
  var element = try XMLElement.parse(Array(document.utf8), options: options)
  var levels = 1
  while let child = element.firstChild(named: "e") {
    element = child
    levels += 1
  }
  #expect(levels == depth)
  #expect(element.text == "leaf")
  // The writer also walks it without recursion.
  let written = try XMLWriter.write(element, options: XMLWriter.Options(indentation: .none))
  #expect(written.count > 0)
}

@Test func parsesLargeKeePassLikeDocument() throws {
  // About 50 MB in release runs would take too long in debug CI; 8 MB exercises the same code paths, and the
  // benchmark (xml-tree-build) parses the full 50 MB document.
  let document = keePassLikeDocument(targetBytes: 8_000_000)
  let root = try XMLElement.parse(document)
  #expect(root.name == "KeePassFile")
  let groups = root.firstChild(named: "Root")?.children(named: "Group") ?? []
  #expect(groups.count > 100)
  let first = groups.first?.firstChild(named: "Name")?.text
  #expect(first == "Group 0")
  // Read back what we write.
  let written = try XMLWriter.write(root)
  #expect(try XMLElement.parse(written) == root)
}
