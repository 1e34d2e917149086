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
