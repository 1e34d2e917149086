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

@Test func parsesFiftyMegabyteKeePassLikeDocument() throws {
  // 50 MB: a generated 1 MB KeePass-like document whose groups are repeated (a byte copy, fast in debug builds).
  let sample = keePassLikeDocument(targetBytes: 1_000_000)
  let open = Array("<Root>\n".utf8)
  let close = Array("\t</Root>\n".utf8)
  guard let bodyStart = firstIndex(of: open, in: sample), let bodyEnd = firstIndex(of: close, in: sample) else {
    Issue.record("generator output changed")
    return
  }
  let body = sample[(bodyStart + open.count)..<bodyEnd]
  var document = Array(sample[..<(bodyStart + open.count)])
  var copies = 0
  while document.count < 50_000_000 {
    document.append(contentsOf: body)
    copies += 1
  }
  document.append(contentsOf: sample[bodyEnd...])
  let root = try XMLElement.parse(document)
  let groups = root.firstChild(named: "Root")?.children(named: "Group") ?? []
  let groupsPerCopy = try XMLElement.parse(sample).firstChild(named: "Root")?.children(named: "Group").count ?? 0
  #expect(groupsPerCopy > 10)
  #expect(groups.count == groupsPerCopy * copies)
  #expect(groups.last?.firstChild(named: "Name")?.text == "Group \(groupsPerCopy - 1)")
}

@Test func writesAndRereadsKeePassLikeDocument() throws {
  let document = keePassLikeDocument(targetBytes: 2_000_000)
  let root = try XMLElement.parse(document)
  #expect(root.name == "KeePassFile")
  let groups = root.firstChild(named: "Root")?.children(named: "Group") ?? []
  #expect(groups.count > 20)
  #expect(groups.first?.firstChild(named: "Name")?.text == "Group 0")
  // Read back what we write, indented and compact.
  #expect(try XMLElement.parse(try XMLWriter.write(root)) == root)
  let compact = try XMLWriter.write(root, options: XMLWriter.Options(indentation: .none))
  #expect(try XMLElement.parse(compact) == root)
}

private func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
  guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
  var index = 0
  while index <= bytes.count - pattern.count {
    if bytes[index] == first && bytes[index..<index + pattern.count].elementsEqual(pattern) { return index }
    index += 1
  }
  return nil
}
