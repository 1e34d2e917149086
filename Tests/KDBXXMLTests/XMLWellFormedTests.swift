import KDBXXML
import Testing
import VectorSupport

/// Renders events in the format of Vectors/xml/xml10-wellformed.vec.
private func render(_ events: [XMLEvent]) -> String {
  func escaped(_ text: String) -> String {
    var out = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
  return events.map { event in
    switch event {
    case .startElement(let name, let attributes):
      return (["S " + name] + attributes.map { $0.name + "=" + escaped($0.value) }).joined(separator: " ")
    case .endElement(let name): return "E " + name
    case .text(let text): return "T " + escaped(text)
    case .cdata(let text): return "D " + escaped(text)
    case .comment(let text): return "C " + escaped(text)
    case .processingInstruction(let target, let data): return "P " + target + " " + escaped(data)
    }
  }.joined(separator: "\n")
}

@Test(arguments: Vectors.records("xml/xml10-wellformed.vec"))
func xml10WellFormed(_ record: VectorRecord) throws {
  var reader = XMLReader(bytes: record.bytes("document"))
  var all: [XMLEvent] = []
  while let event = try reader.next() { all.append(event) }
  #expect(render(all) == record.string("events"))
}

@Test(arguments: Vectors.records("xml/xml10-wellformed.vec"))
func xml10WellFormedDiscardingText(_ record: VectorRecord) throws {
  var reader = XMLReader(bytes: record.bytes("document"))
  var all: [XMLEvent] = []
  while let event = try reader.next() { all.append(event) }
  var discarding = XMLReader(bytes: record.bytes("document"))
  discarding.discardsText = true
  var structure: [XMLEvent] = []
  while let event = try discarding.next() { structure.append(event) }
  let expected = all.filter { if case .text = $0 { return false } else { return true } }
  #expect(render(structure) == render(expected))
}

@Test func discardingTextCanBeSwitchedBetweenEvents() throws {
  var reader = XMLReader(bytes: Array("<a>one<b>two &amp; three</b>four</a>".utf8))
  reader.discardsText = true
  var texts: [String] = []
  while let event = try reader.next() {
    switch event {
    case .startElement(let name, _): reader.discardsText = name != "b"
    case .endElement: reader.discardsText = true
    case .text(let text): texts.append(text)
    default: break
    }
  }
  #expect(texts == ["two & three"])
}
