// XMLStreamWriter's tree input (an element or node written verbatim, as a walk with an explicit stack so that deep
// trees do not use the call stack) and the markup that is only checked, never escaped: comments, CDATA sections
// and processing instructions.

extension XMLStreamWriter {
  private struct Frame {
    var children: [XMLNode]
    var next: Int
  }

  /// Writes `node` (an element with its whole subtree, or text, CDATA, a comment or a processing instruction) as the
  /// next child of the open element, laid out at the open element's depth.
  public mutating func write(_ node: XMLNode) throws(XMLError) {
    switch node {
    case .element(let element): try write(element)
    case .text(let text): try self.text(text)
    case .cdata(let text): try cdata(text)
    case .comment(let text): try comment(text)
    case .processingInstruction(let target, let data): try processingInstruction(target: target, data: data)
    }
  }

  /// Writes `element` and its subtree as the next child of the open element (or as the document's element).
  public mutating func write(_ element: XMLElement) throws(XMLError) {
    // The open elements above `current`; `current` itself is kept out of the array to avoid copies.
    var stack: [Frame] = []
    try start(element)
    var current = Frame(children: element.children, next: 0)
    while true {
      let index = current.next
      if index == current.children.count {
        endElement()
        guard let parent = stack.popLast() else { return }
        current = parent
        continue
      }
      current.next = index + 1
      switch current.children[index] {
      case .element(let child):
        try start(child)
        stack.append(current)
        current = Frame(children: child.children, next: 0)
      case .text(let text): try self.text(text)
      case .cdata(let text): try cdata(text)
      case .comment(let text): try comment(text)
      case .processingInstruction(let target, let data): try processingInstruction(target: target, data: data)
      }
    }
  }

  /// Starts `element` with its attributes, laid out as mixed content when it holds text or CDATA.
  private mutating func start(_ element: XMLElement) throws(XMLError) {
    let containsText = element.children.contains { child in
      switch child {
      case .text, .cdata: return true
      default: return false
      }
    }
    try startElement(element.name, containsText: containsText)
    for attribute in element.attributes { try self.attribute(attribute.name, value: attribute.value) }
  }

  mutating func writeCDATA(_ text: String) throws(XMLError) {
    let bytes = Array(text.utf8)
    if bytes.contains(0x0D) {
      try appendEscaped(text, .text)
      return
    }
    buffer.append("<![CDATA[")
    var start = 0
    // Split each "]]>" as "]]" + "]]><![CDATA[" + ">".
    for end in Self.occurrences(of: [0x5D, 0x5D, 0x3E], in: bytes) {
      try appendEscaped(String(decoding: bytes[start..<end + 2], as: UTF8.self), .raw)
      buffer.append("]]><![CDATA[")
      start = end + 2
    }
    try appendEscaped(String(decoding: bytes[start...], as: UTF8.self), .raw)
    buffer.append("]]>")
  }

  mutating func writeComment(_ text: String) throws(XMLError) {
    let bytes = Array(text.utf8)
    if !Self.occurrences(of: [0x2D, 0x2D], in: bytes).isEmpty || bytes.last == 0x2D {
      throw XMLError(.unwritable("a comment containing '--' or ending with '-'"), line: 0, column: 0)
    }
    buffer.append("<!--")
    try appendEscaped(text, .raw)
    buffer.append("-->")
  }

  mutating func writeProcessingInstruction(target: String, data: String) throws(XMLError) {
    let lowered = target.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    if lowered == [0x78, 0x6D, 0x6C] || !Self.occurrences(of: [0x3F, 0x3E], in: Array(data.utf8)).isEmpty {
      throw XMLError(.unwritable("a processing instruction named 'xml' or containing '?>'"), line: 0, column: 0)
    }
    buffer.append("<?")
    try appendName(target)
    if !data.isEmpty {
      buffer.append(0x20)
      try appendEscaped(data, .raw)
    }
    buffer.append("?>")
  }

  /// The start indices of the non-overlapping occurrences of `pattern` in `bytes`.
  private static func occurrences(of pattern: [UInt8], in bytes: [UInt8]) -> [Int] {
    var found: [Int] = []
    var index = 0
    while index + pattern.count <= bytes.count {
      if bytes[index..<index + pattern.count].elementsEqual(pattern) {
        found.append(index)
        index += pattern.count
      } else {
        index += 1
      }
    }
    return found
  }
}
