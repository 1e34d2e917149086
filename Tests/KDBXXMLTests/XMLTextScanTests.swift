import KDBXXML
import Testing
import VectorSupport

// The reader's character-data scanner skips indentation and text eight bytes at a time and jumps to the first
// special byte of a word from its mask. These tests put each special byte at every position of texts of 0...64
// bytes, with the text starting at each offset modulo 8 (so that every byte falls at every place of a word and
// across word boundaries), and compare with what the byte-by-byte rules give.

/// `<r` + `shift` spaces + `>` + `content` + `tail`: the text starts at offset 3 + `shift`.
private func document(_ content: [UInt8], shift: Int, tail: String) -> [UInt8] {
  Array("<r".utf8) + [UInt8](repeating: 0x20, count: shift) + [0x3E] + content + Array(tail.utf8)
}

private func readAll(_ bytes: [UInt8]) -> Result<[XMLEvent], XMLError> {
  var reader = XMLReader(bytes: bytes)
  var all: [XMLEvent] = []
  do {
    while let event = try reader.next() { all.append(event) }
    return .success(all)
  } catch {
    return .failure(error)
  }
}

private let root = XMLEvent.startElement(name: "r", attributes: [])
private let empty = [XMLEvent.startElement(name: "e", attributes: []), .endElement(name: "e")]

/// White space (spaces, tabs, line feeds) with at most one other character: the text is dropped before a start
/// tag exactly when it is white space only, and otherwise reported whole.
@Test func whiteSpaceOnlyTextIsFoundAtEveryLengthAndPosition() {
  let spaces: [UInt8] = [0x20, 0x09, 0x0A]
  var random = SplitMix64(seed: 22)
  var failures = 0
  for length in 0...64 {
    for position in -1..<length {
      for other in [UInt8(ascii: "x"), 0x21, 0x7E] {
        var content = (0..<length).map { _ in spaces[Int(random.next() % 3)] }
        if position >= 0 { content[position] = other }
        for shift in 0..<8 {
          let bytes = document(content, shift: shift, tail: "<e/></r>")
          let expected: [XMLEvent] =
            [root] + (position >= 0 ? [.text(String(decoding: content, as: UTF8.self))] : []) + empty
            + [.endElement(name: "r")]
          if readAll(bytes) != .success(expected) {
            failures += 1
            if failures < 5 {
              Issue.record("length \(length), position \(position), shift \(shift): \(readAll(bytes))")
            }
          }
        }
      }
    }
  }
  #expect(failures == 0)
}

/// Text of all spaces only: dropped before a start tag, kept before the end tag of its element.
@Test func spaceRunsOfEveryLengthFollowTheWhiteSpaceRule() {
  for length in 1...64 {
    for shift in 0..<8 {
      let content = [UInt8](repeating: 0x20, count: length)
      #expect(
        readAll(document(content, shift: shift, tail: "<e/></r>"))
          == .success([root] + empty + [.endElement(name: "r")]))
      let text = String(decoding: content, as: UTF8.self)
      #expect(
        readAll(document(content, shift: shift, tail: "</r>")) == .success([root, .text(text), .endElement(name: "r")]))
    }
  }
}

/// Each special byte (or sequence) at every position of plain text: the text decoded as the rules say, or the
/// error at the byte itself.
@Test func specialBytesAreFoundAtEveryPosition() {
  enum Expected {
    case text([UInt8])
    case error(XMLError.Kind, at: Int)
    case split
  }
  let cases: [(inserted: [UInt8], expected: Expected)] = [
    (Array("&amp;".utf8), .text([0x26])),
    (Array("&#x41;".utf8), .text([0x41])),
    (Array("]".utf8), .text([0x5D])),
    (Array("]]".utf8), .text([0x5D, 0x5D])),
    (Array("]]>".utf8), .error(.cdataEndInText, at: 0)),
    ([0x0D], .text([0x0A])),
    ([0x0D, 0x0A], .text([0x0A])),
    ([0x09], .text([0x09])),
    ([0x0A], .text([0x0A])),
    ([0x20], .text([0x20])),
    (Array(">".utf8), .text([0x3E])),
    ([0x01], .error(.invalidCharacter(1), at: 0)),
    ([0x1F], .error(.invalidCharacter(0x1F), at: 0)),
    ([0x00], .error(.invalidCharacter(0), at: 0)),
    ([0x80], .error(.invalidUTF8, at: 0)),
    ([0xFF], .error(.invalidUTF8, at: 0)),
    ([0xC0, 0xAF], .error(.invalidUTF8, at: 0)),
    ([0xC3], .error(.invalidUTF8, at: 0)),
    ([0xED, 0xA0, 0x80], .error(.invalidUTF8, at: 0)),
    ([0xEF, 0xBF, 0xBE], .error(.invalidCharacter(0xFFFE), at: 0)),
    ([0xC3, 0xA9], .text([0xC3, 0xA9])),
    ([0xE2, 0x82, 0xAC], .text([0xE2, 0x82, 0xAC])),
    ([0xF0, 0x9F, 0x94, 0x91], .text([0xF0, 0x9F, 0x94, 0x91])),
    (Array("<b/>".utf8), .split),
  ]
  var failures = 0
  for length in 0...64 {
    for position in 0...length {
      for (inserted, expected) in cases {
        let before = [UInt8](repeating: UInt8(ascii: "a"), count: position)
        let after = [UInt8](repeating: UInt8(ascii: "z"), count: length - position)
        for shift in 0..<8 {
          let bytes = document(before + inserted + after, shift: shift, tail: "</r>")
          let textStart = 3 + shift
          let want: Result<[XMLEvent], XMLError>
          switch expected {
          case .text(let decoded):
            want = .success([
              root, .text(String(decoding: before + decoded + after, as: UTF8.self)), .endElement(name: "r"),
            ])
          case .error(let kind, let offset):
            let got = readAll(bytes)
            guard case .failure(let error) = got, error.kind == kind, error.byteOffset == textStart + position + offset
            else {
              failures += 1
              if failures < 5 { Issue.record("\(inserted) at \(position) of \(length), shift \(shift): \(got)") }
              continue
            }
            continue
          case .split:
            var events = [root]
            if !before.isEmpty { events.append(.text(String(decoding: before, as: UTF8.self))) }
            events += [.startElement(name: "b", attributes: []), .endElement(name: "b")]
            if !after.isEmpty { events.append(.text(String(decoding: after, as: UTF8.self))) }
            want = .success(events + [.endElement(name: "r")])
          }
          let got = readAll(bytes)
          if got != want {
            failures += 1
            if failures < 5 { Issue.record("\(inserted) at \(position) of \(length), shift \(shift): \(got)") }
          }
        }
      }
    }
  }
  #expect(failures == 0)
}

/// The tree parser, which runs on the same kernel, reads texts of every length and alignment as the reader does.
@Test func treeParserReadsTextsOfEveryLength() throws {
  for length in 0...64 {
    for shift in 0..<8 {
      let content = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
      let tree = try XMLElement.parse(document(content, shift: shift, tail: "</r>"))
      #expect(tree.children == (length == 0 ? [] : [.text(String(decoding: content, as: UTF8.self))]))
    }
  }
}
