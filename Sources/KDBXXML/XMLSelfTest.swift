import KDBXBase

/// The known-answer checks of `KDBXXML` for the library's self-test (`KDBXSelfTest.run()` in `KDBX`): the pull
/// reader against hand-derived events of W3C XML 1.0 documents (`xml/xml10-wellformed.vec`), and the writer by a
/// round trip through the reader.
///
/// The checks go to the self-test recorder of `KDBXBase`; `KDBX` makes the report. Never traps, uses no I/O, builds
/// in Embedded Swift.
package enum XMLSelfTest {
  /// `xml/xml10-wellformed.vec`, records 1 and 2: a KeePass-like document (§2.8 declaration, indentation, §3.1
  /// empty-element tags) and §4.6 predefined entities with §4.1 character references.
  static let documents: [(source: String, document: String, events: String)] = [
    (
      "W3C XML 1.0 §2.8, §3.1 (xml/xml10-wellformed.vec record 1)",
      "<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile>\n\t<Meta>\n"
        + "\t\t<Generator>KeePass</Generator>\n\t\t<Color />\n\t</Meta>\n"
        + "\t<Value Protected=\"True\">c2VjcmV0</Value>\n</KeePassFile>\n",
      "S KeePassFile\nS Meta\nS Generator\nT KeePass\nE Generator\nS Color\nE Color\nE Meta\n"
        + "S Value Protected=True\nT c2VjcmV0\nE Value\nE KeePassFile"
    ),
    (
      "W3C XML 1.0 §4.6, §4.1 (xml/xml10-wellformed.vec record 2)",
      "<a>&lt;&gt;&amp;&apos;&quot;&#65;&#x42;&#x1F600;</a>",
      "S a\nT <>&'\"AB\u{1F600}\nE a"
    ),
  ]

  /// Runs every check into `recorder`.
  package static func run(into recorder: inout SelfTestRecorder) {
    for (index, item) in documents.enumerated() {
      let suffix = index == 0 ? "" : "-entities"
      let expected = Array(item.events.utf8)
      do {
        let read = try events(Array(item.document.utf8))
        recorder.record("xml-reader" + suffix, item.source, expected: expected, actual: read)
      } catch {
        recorder.record("xml-reader" + suffix, item.source, expected: expected, actual: [], error: error.description)
      }
      do {
        let tree = try XMLElement.parse(Array(item.document.utf8))
        let written = try XMLWriter.write(tree, options: XMLWriter.Options(indentation: .none))
        let read = try events(written)
        recorder.record(
          "xml-writer" + suffix, item.source + ", parsed, written, read again", expected: expected, actual: read)
      } catch {
        recorder.record("xml-writer" + suffix, item.source, expected: expected, actual: [], error: error.description)
      }
    }
  }

  /// The reader's events in the vector file's notation: one line per event, `S name a=v`, `E name`, `T text`,
  /// `D cdata`, `C comment`, `P target data`, with backslash, line feed, tab and carriage return escaped.
  package static func events(_ document: [UInt8]) throws(XMLError) -> [UInt8] {
    var reader = XMLReader(bytes: document)
    var lines: [String] = []
    while let event = try reader.next() {
      switch event {
      case .startElement(let name, let attributes):
        var line = "S " + name
        for attribute in attributes { line += " " + attribute.name + "=" + escaped(attribute.value) }
        lines.append(line)
      case .endElement(let name): lines.append("E " + name)
      case .text(let text): lines.append("T " + escaped(text))
      case .cdata(let text): lines.append("D " + escaped(text))
      case .comment(let text): lines.append("C " + escaped(text))
      case .processingInstruction(let target, let data): lines.append("P " + target + " " + escaped(data))
      }
    }
    var out: [UInt8] = []
    for (index, line) in lines.enumerated() {
      if index > 0 { out.append(0x0a) }
      out += Array(line.utf8)
    }
    return out
  }

  static func escaped(_ text: String) -> String {
    var out: [UInt8] = []
    for byte in text.utf8 {
      switch byte {
      case 0x5c: out += [0x5c, 0x5c]
      case 0x0a: out += [0x5c, UInt8(ascii: "n")]
      case 0x09: out += [0x5c, UInt8(ascii: "t")]
      case 0x0d: out += [0x5c, UInt8(ascii: "r")]
      default: out.append(byte)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }
}
