import KDBXXML

/// The compact byte form in which an ``XMLLayout`` keeps what it holds: the children the model does not understand
/// (unknown elements with their whole subtrees, comments, processing instructions, non-blank text), and the read
/// order of the known children when it is not KeePass's order.
///
/// A tree of `XMLNode` values costs about 40 bytes per node plus an allocation per element and per string, so a
/// hostile document of millions of 4-byte `<a/>` elements would need ten times its size. This form needs a few
/// bytes of header per node: every node takes at most one byte more than its own XML text, and every element
/// (`<a/>` at least) at least one byte less, so what a layout keeps is never larger than the XML it came from,
/// plus one byte per known child. Nodes become `XMLNode`s only on demand (``XMLLayout/unknownNodes``); the
/// writer replays them as events.
///
/// Items, each starting with a tag byte (lengths are unsigned LEB128):
///
/// | tag | item |
/// |---|---|
/// | `0x00` | end of the open element's children |
/// | `0x01` | CDATA section: length, UTF-8 |
/// | `0x02` | comment: length, UTF-8 |
/// | `0x03` | processing instruction: target length, target, data length, data |
/// | `0x04` | known child by name: length, name (top level only) |
/// | `0x06`, `0x07` | element with attributes (`0x07`: holds text or CDATA): name length, name, attribute count, then each attribute's name length, name, value length, value; its children; `0x00` |
/// | `0x20 + n` | element without attributes, name of n = 1...31 bytes (`0x20`: the length follows); its children; `0x00` |
/// | `0x40 + n` | the same, holding text or CDATA |
/// | `0x60 + n` | text of n = 0...30 bytes (`0x7F`: the length follows) |
/// | `0x80 + id` | known child by its index in ``XMLNames/layoutNames`` (top level only) |
///
/// Whether an element holds text is part of its tag, so that the writer can lay it out (on one line) before it
/// has seen its children, as ``XMLStreamWriter`` needs.
enum KeptXML {
  static let end: UInt8 = 0x00
  static let cdataTag: UInt8 = 0x01
  static let commentTag: UInt8 = 0x02
  static let processingInstructionTag: UInt8 = 0x03
  static let knownNameTag: UInt8 = 0x04
  static let attributedElementTag: UInt8 = 0x06
  static let elementTag: UInt8 = 0x20
  static let textElementTag: UInt8 = 0x40
  static let textTag: UInt8 = 0x60
  static let longTextTag: UInt8 = 0x7F
  static let knownIDTag: UInt8 = 0x80

  // MARK: - Writing

  static func appendLength(_ value: Int, to bytes: inout [UInt8]) {
    var rest = UInt(clamping: value)
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(truncatingIfNeeded: rest))
  }

  static func appendString(_ text: String, to bytes: inout [UInt8]) {
    appendLength(text.utf8.count, to: &bytes)
    bytes.append(contentsOf: text.utf8)
  }

  /// Starts an element; returns the offset of its tag, for ``markHoldsText(at:in:)``.
  @discardableResult
  static func appendStart(
    _ name: String, _ attributes: [XMLAttribute], holdsText: Bool = false, to bytes: inout [UInt8]
  ) -> Int {
    let offset = bytes.count
    if attributes.isEmpty {
      let base = holdsText ? textElementTag : elementTag
      let count = name.utf8.count
      if count >= 1 && count <= 31 {
        bytes.append(base + UInt8(truncatingIfNeeded: count))
      } else {
        bytes.append(base)
        appendLength(count, to: &bytes)
      }
      bytes.append(contentsOf: name.utf8)
    } else {
      bytes.append(holdsText ? attributedElementTag + 1 : attributedElementTag)
      appendString(name, to: &bytes)
      appendLength(attributes.count, to: &bytes)
      for attribute in attributes {
        appendString(attribute.name, to: &bytes)
        appendString(attribute.value, to: &bytes)
      }
    }
    return offset
  }

  /// Marks the element whose tag is at `offset` as holding text or CDATA.
  static func markHoldsText(at offset: Int, in bytes: inout [UInt8]) {
    guard offset >= 0, offset < bytes.count else { return }
    let tag = bytes[offset]
    if tag == attributedElementTag {
      bytes[offset] = attributedElementTag + 1
    } else if tag >= elementTag && tag < textElementTag {
      bytes[offset] = tag + (textElementTag - elementTag)
    }
  }

  static func appendText(_ text: String, to bytes: inout [UInt8]) {
    let count = text.utf8.count
    if count <= 30 {
      bytes.append(textTag + UInt8(truncatingIfNeeded: count))
    } else {
      bytes.append(longTextTag)
      appendLength(count, to: &bytes)
    }
    bytes.append(contentsOf: text.utf8)
  }

  /// Appends a node that is not an element (text, CDATA, a comment or a processing instruction).
  static func appendLeaf(_ node: XMLNode, to bytes: inout [UInt8]) {
    switch node {
    case .element(let element): append(element, to: &bytes)
    case .text(let text): appendText(text, to: &bytes)
    case .cdata(let text):
      bytes.append(cdataTag)
      appendString(text, to: &bytes)
    case .comment(let text):
      bytes.append(commentTag)
      appendString(text, to: &bytes)
    case .processingInstruction(let target, let data):
      bytes.append(processingInstructionTag)
      appendString(target, to: &bytes)
      appendString(data, to: &bytes)
    }
  }

  /// Appends `element` with its subtree (an explicit stack: deep trees do not use the call stack).
  static func append(_ element: XMLElement, to bytes: inout [UInt8]) {
    var stack: [(children: [XMLNode], next: Int)] = []
    appendStart(element.name, element.attributes, holdsText: holdsText(element), to: &bytes)
    var current = (children: element.children, next: 0)
    while true {
      guard current.next < current.children.count else {
        bytes.append(end)
        guard let parent = stack.popLast() else { return }
        current = parent
        continue
      }
      let node = current.children[current.next]
      current.next += 1
      if case .element(let child) = node {
        appendStart(child.name, child.attributes, holdsText: holdsText(child), to: &bytes)
        stack.append(current)
        current = (children: child.children, next: 0)
      } else {
        appendLeaf(node, to: &bytes)
      }
    }
  }

  static func holdsText(_ element: XMLElement) -> Bool {
    element.children.contains { child in
      switch child {
      case .text, .cdata: return true
      default: return false
      }
    }
  }

  /// Appends `node`.
  static func append(_ node: XMLNode, to bytes: inout [UInt8]) {
    if case .element(let element) = node { append(element, to: &bytes) } else { appendLeaf(node, to: &bytes) }
  }

  // MARK: - Reading

  /// One step of a walk over kept bytes.
  enum Event {
    case start(name: String, attributes: [XMLAttribute], holdsText: Bool)
    case end
    /// Text, CDATA, a comment or a processing instruction.
    case leaf(XMLNode)
    /// A known child (top level only).
    case known(String)
  }

  /// Walks kept bytes. The bytes are only ever made by the functions above; a malformed item (which they never
  /// write) ends the walk early instead of trapping.
  struct Reader {
    let bytes: [UInt8]
    var offset: Int
    let endOffset: Int
    /// The elements open after the last event.
    private(set) var depth = 0

    init(_ bytes: [UInt8], range: Range<Int>? = nil) {
      self.bytes = bytes
      let range = range ?? 0..<bytes.count
      self.offset = max(0, min(range.lowerBound, bytes.count))
      self.endOffset = max(offset, min(range.upperBound, bytes.count))
    }

    var isAtEnd: Bool { offset >= endOffset }

    mutating func byte() -> UInt8? {
      guard offset < endOffset else { return nil }
      defer { offset += 1 }
      return bytes[offset]
    }

    mutating func length() -> Int? {
      var value = 0
      var shift = 0
      while let byte = byte() {
        guard shift <= 56 else { return nil }
        value |= Int(byte & 0x7F) << shift
        if byte & 0x80 == 0 { return value <= endOffset - offset ? value : nil }
        shift += 7
      }
      return nil
    }

    mutating func string(count: Int) -> String? {
      guard count >= 0, count <= endOffset - offset else { return nil }
      defer { offset += count }
      return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    mutating func string() -> String? {
      guard let count = length() else { return nil }
      return string(count: count)
    }

    /// Skips `count` bytes; `false` when they are not there.
    mutating func skip(_ count: Int?) -> Bool {
      guard let count, count >= 0, count <= endOffset - offset else { return false }
      offset += count
      return true
    }

    /// The next event, or `nil` at the end (or at a malformed item).
    mutating func next() -> Event? {
      guard let tag = byte() else { return nil }
      switch tag {
      case KeptXML.end:
        guard depth > 0 else { return nil }
        depth -= 1
        return .end
      case KeptXML.cdataTag: return string().map { .leaf(.cdata($0)) }
      case KeptXML.commentTag: return string().map { .leaf(.comment($0)) }
      case KeptXML.processingInstructionTag:
        guard let target = string(), let data = string() else { return nil }
        return .leaf(.processingInstruction(target: target, data: data))
      case KeptXML.knownNameTag: return string().map { .known($0) }
      case KeptXML.attributedElementTag, KeptXML.attributedElementTag + 1:
        guard let name = string(), let count = length() else { return nil }
        var attributes: [XMLAttribute] = []
        for _ in 0..<count {
          guard let attributeName = string(), let value = string() else { return nil }
          attributes.append(XMLAttribute(name: attributeName, value: value))
        }
        depth += 1
        return .start(name: name, attributes: attributes, holdsText: tag != KeptXML.attributedElementTag)
      case KeptXML.elementTag..<KeptXML.textTag:
        let base = tag < KeptXML.textElementTag ? KeptXML.elementTag : KeptXML.textElementTag
        let inline = Int(tag - base)
        guard let count = inline == 0 ? length() : inline, let name = string(count: count) else { return nil }
        depth += 1
        return .start(name: name, attributes: [], holdsText: base == KeptXML.textElementTag)
      case KeptXML.textTag..<KeptXML.longTextTag:
        return string(count: Int(tag - KeptXML.textTag)).map { .leaf(.text($0)) }
      case KeptXML.longTextTag: return string().map { .leaf(.text($0)) }
      case KeptXML.knownIDTag...:
        let id = Int(tag - KeptXML.knownIDTag)
        guard id < XMLNames.layoutNames.count else { return nil }
        return .known(XMLNames.layoutNames[id])
      default:
        return nil
      }
    }

    /// Skips one item and, for an element, its subtree, without making strings; `false` at a malformed item.
    mutating func skipItem() -> Bool {
      let startDepth = depth
      repeat {
        guard let tag = byte() else { return false }
        switch tag {
        case KeptXML.end:
          guard depth > startDepth else { return false }
          depth -= 1
        case KeptXML.cdataTag, KeptXML.commentTag, KeptXML.knownNameTag, KeptXML.longTextTag:
          guard skip(length()) else { return false }
        case KeptXML.processingInstructionTag:
          guard skip(length()), skip(length()) else { return false }
        case KeptXML.attributedElementTag, KeptXML.attributedElementTag + 1:
          guard skip(length()), let count = length() else { return false }
          for _ in 0..<count where !(skip(length()) && skip(length())) { return false }
          depth += 1
        case KeptXML.elementTag..<KeptXML.textTag:
          let base = tag < KeptXML.textElementTag ? KeptXML.elementTag : KeptXML.textElementTag
          let inline = Int(tag - base)
          guard skip(inline == 0 ? length() : inline) else { return false }
          depth += 1
        case KeptXML.textTag..<KeptXML.longTextTag:
          guard skip(Int(tag - KeptXML.textTag)) else { return false }
        case KeptXML.knownIDTag...:
          break
        default:
          return false
        }
      } while depth > startDepth
      return true
    }
  }

  /// One top-level item of a layout: a known child's name, or the byte range of one kept node.
  enum Item {
    case known(String)
    case node(Range<Int>)
  }

  /// Calls `body` with each top-level item of `bytes`, in order, without decoding the kept nodes.
  static func forEachItem(in bytes: [UInt8], _ body: (Item) -> Void) {
    var reader = Reader(bytes)
    while !reader.isAtEnd {
      let start = reader.offset
      // `start` < `bytes.count`: the reader is not at its end.
      let tag = bytes[start]
      if tag >= knownIDTag {
        let id = Int(tag - knownIDTag)
        guard id < XMLNames.layoutNames.count else { return }
        _ = reader.byte()
        body(.known(XMLNames.layoutNames[id]))
      } else if tag == knownNameTag {
        guard case .known(let name)? = reader.next() else { return }
        body(.known(name))
      } else {
        guard reader.skipItem() else { return }
        body(.node(start..<reader.offset))
      }
    }
  }

  /// The kept node in `range` of `bytes` as an `XMLNode`.
  static func node(in bytes: [UInt8], range: Range<Int>) -> XMLNode? {
    var reader = Reader(bytes, range: range)
    var builder = NodeBuilder()
    while let event = reader.next() {
      if let node = builder.add(event) { return node }
    }
    return nil
  }

  /// Builds `XMLNode`s from events, with an explicit stack.
  struct NodeBuilder {
    private var open: [XMLElement] = []

    /// Adds one event; returns a node once it is complete at the top level.
    mutating func add(_ event: Event) -> XMLNode? {
      switch event {
      case .start(let name, let attributes, _):
        open.append(XMLElement(name: name, attributes: attributes))
      case .end:
        guard let element = open.popLast() else { return nil }
        return attach(.element(element))
      case .leaf(let node):
        return attach(node)
      case .known:
        return nil
      }
      return nil
    }

    private mutating func attach(_ node: XMLNode) -> XMLNode? {
      guard !open.isEmpty else { return node }
      open[open.count - 1].children.append(node)
      return nil
    }
  }

  /// Whether the kept nodes of `lhs` and `rhs` (their known items left out) are equal as `XMLNode`s would be:
  /// same structure, names, attributes and strings (compared as `String`s), without building the nodes.
  static func nodesEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
    if lhs == rhs { return true }
    var left = Reader(lhs)
    var right = Reader(rhs)
    func nextNodeEvent(_ reader: inout Reader) -> Event? {
      while let event = reader.next() {
        if case .known = event, reader.depth == 0 { continue }
        return event
      }
      return nil
    }
    while true {
      let a = nextNodeEvent(&left)
      let b = nextNodeEvent(&right)
      switch (a, b) {
      case (nil, nil): return left.isAtEnd && right.isAtEnd
      case (.start(let n1, let a1, _)?, .start(let n2, let a2, _)?):
        guard n1 == n2, a1 == a2 else { return false }
      case (.end?, .end?): continue
      case (.leaf(let x)?, .leaf(let y)?):
        guard x == y else { return false }
      default: return false
      }
    }
  }

  /// Whether any top-level kept node is text or CDATA (the element holding them is then mixed content).
  static func holdsText(_ bytes: [UInt8]) -> Bool {
    var found = false
    forEachItem(in: bytes) { item in
      guard !found, case .node(let range) = item, !range.isEmpty else { return }
      let tag = bytes[range.lowerBound]
      if tag == cdataTag || (tag >= textTag && tag <= longTextTag) { found = true }
    }
    return found
  }

  /// Replays the kept node in `range` of `bytes` into `writer` (as `XMLStreamWriter.write(_:)` would write the
  /// node).
  static func replay(_ bytes: [UInt8], range: Range<Int>, into writer: inout XMLStreamWriter) throws(XMLError) {
    var reader = Reader(bytes, range: range)
    while let event = reader.next() {
      switch event {
      case .start(let name, let attributes, let holdsText):
        try writer.startElement(name, containsText: holdsText)
        for attribute in attributes { try writer.attribute(attribute.name, value: attribute.value) }
      case .end: writer.endElement()
      case .leaf(let node): try writer.write(node)
      case .known: break
      }
    }
  }
}
