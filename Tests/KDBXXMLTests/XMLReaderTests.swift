import KDBXXML
import Testing

@Test func readsElementsAttributesAndText() throws {
  let all = try events("<?xml version='1.0' encoding='UTF-8' standalone='yes'?>\n<a x=\"1\" y='two'>hi<b/></a>\n")
  #expect(
    all == [
      .startElement(
        name: "a", attributes: [XMLAttribute(name: "x", value: "1"), XMLAttribute(name: "y", value: "two")]),
      .text("hi"),
      .startElement(name: "b", attributes: []),
      .endElement(name: "b"),
      .endElement(name: "a"),
    ])
}

@Test func decodesPredefinedEntitiesAndCharacterReferences() throws {
  let all = try events("<a q=\"&quot;&apos;&lt;&gt;&amp;\">&lt;&#65;&#x42;&#x20AC;&#128512;&amp;</a>")
  #expect(all[0] == .startElement(name: "a", attributes: [XMLAttribute(name: "q", value: "\"'<>&")]))
  #expect(all[1] == .text("<AB€😀&"))
}

@Test func normalizesLineEndingsInTextAndAttributes() throws {
  let all = try events("<a v=\"x\r\ny\rz\tw\nv&#10;&#x9;&#13;\">1\r\n2\r3\n</a>")
  // §3.3.3: literal white space becomes a space; character references keep their character.
  #expect(all[0] == .startElement(name: "a", attributes: [XMLAttribute(name: "v", value: "x y z w v\n\t\r")]))
  #expect(all[1] == .text("1\n2\n3\n"))
}

@Test func readsCDATACommentsAndProcessingInstructions() throws {
  let all = try events("<!--before--><?pi  some data ?><a><![CDATA[<&>\r\n]]><!-- c --><?t?></a><!--after-->")
  #expect(
    all == [
      .comment("before"), .processingInstruction(target: "pi", data: "some data "),
      .startElement(name: "a", attributes: []), .cdata("<&>\n"), .comment(" c "),
      .processingInstruction(target: "t", data: ""), .endElement(name: "a"), .comment("after"),
    ])
}

@Test func skipsIndentationButKeepsWhitespaceValues() throws {
  let document = "<a>\n\t<b> </b>\n\t<c>  x </c>\n\t<d></d>\n</a>"
  let compact = try events(document)
  #expect(
    compact == [
      .startElement(name: "a", attributes: []),
      .startElement(name: "b", attributes: []), .text(" "), .endElement(name: "b"),
      .startElement(name: "c", attributes: []), .text("  x "), .endElement(name: "c"),
      .startElement(name: "d", attributes: []), .endElement(name: "d"),
      .endElement(name: "a"),
    ])
  let all = try events(document, options: XMLReader.Options(keepsWhitespaceText: true))
  #expect(all.count == compact.count + 4)
  #expect(all[1] == .text("\n\t"))
}

@Test func acceptsByteOrderMarkAndNonASCIINames() throws {
  let all = try events("\u{FEFF}<Größe a·b=\"é\">日本</Größe>")
  #expect(all[0] == .startElement(name: "Größe", attributes: [XMLAttribute(name: "a·b", value: "é")]))
  #expect(all[1] == .text("日本"))
}

@Test func allowsWhitespaceInTagsAndSkipsAllowedDoctype() throws {
  let all = try events(
    "<!DOCTYPE a [<!ELEMENT a ANY>]>\n<a\n x = '1'\t></a\n>", options: XMLReader.Options(allowsDoctype: true))
  #expect(all == [.startElement(name: "a", attributes: [XMLAttribute(name: "x", value: "1")]), .endElement(name: "a")])
}

@Test func reportsLocationsLazily() {
  let reader = XMLReader(bytes: Array("ab\r\ncd\re\né".utf8))
  #expect(reader.location(ofByteOffset: 0) == (1, 1))
  #expect(reader.location(ofByteOffset: 4) == (2, 1))
  #expect(reader.location(ofByteOffset: 7) == (3, 1))
  #expect(reader.location(ofByteOffset: 9) == (4, 1))
  #expect(reader.location(ofByteOffset: 11) == (4, 2))
}

@Test func depthLimitCanBeRaised() throws {
  let depth = 10_000
  var document = String(repeating: "<e>", count: depth)
  document += String(repeating: "</e>", count: depth)
  #expect(readError(Array(document.utf8))?.kind == .limitExceeded(.depth))
  let options = XMLReader.Options(limits: XMLReader.Limits(maximumDepth: depth))
  #expect(readError(Array(document.utf8), options: options) == nil)
}
