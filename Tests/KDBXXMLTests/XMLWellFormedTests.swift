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

/// A reader that defers plain text (the event pipeline's helper) gives the same events once each `.text("")` is
/// replaced by the string of the bytes it left in `deferredTextRange`; text with references or carriage returns
/// still comes decoded, and no text run is reported empty otherwise.
@Test(arguments: Vectors.records("xml/xml10-wellformed.vec"))
func xml10WellFormedDeferringPlainText(_ record: VectorRecord) throws {
  let bytes = record.bytes("document")
  var reader = XMLReader(bytes: bytes)
  var all: [XMLEvent] = []
  while let event = try reader.next() { all.append(event) }
  var deferring = XMLReader(bytes: bytes)
  deferring.defersPlainText = true
  var resolved: [XMLEvent] = []
  var deferredCount = 0
  while let event = try deferring.next() {
    if case .text(let text) = event, text.isEmpty {
      deferredCount += 1
      #expect(deferring.deferredTextCount == deferredCount)
      resolved.append(.text(String(decoding: bytes[deferring.deferredTextRange], as: UTF8.self)))
    } else {
      resolved.append(event)
    }
  }
  #expect(render(resolved) == render(all))
  #expect(!all.contains(.text("")))
}

@Test func deferringLeavesTextThatNeedsDecodingDecoded() throws {
  let bytes = Array("<a>one<b>two &amp; three</b>four\r\nfive</a>".utf8)
  var reader = XMLReader(bytes: bytes)
  reader.defersPlainText = true
  var events: [XMLEvent] = []
  var ranges: [Range<Int>] = []
  while let event = try reader.next() {
    events.append(event)
    if case .text("") = event { ranges.append(reader.deferredTextRange) }
  }
  #expect(
    events == [
      .startElement(name: "a", attributes: []), .text(""), .startElement(name: "b", attributes: []),
      .text("two & three"), .endElement(name: "b"), .text("four\nfive"), .endElement(name: "a"),
    ])
  #expect(ranges.map { String(decoding: bytes[$0], as: UTF8.self) } == ["one"])
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
