/// Where a reader of a whole document (the KDBX module's database XML reader) takes its XML events from: the pull reader over the document's bytes (the open
/// path, no tree), or a walk over an ``XMLElement`` tree already in memory. Both give the events of
/// ``XMLReader``: a start and an end per element, and text, CDATA, comments and processing instructions.
package protocol XMLEventSource {
  /// The next event, or `nil` after the end of the document.
  mutating func nextEvent() throws(XMLError) -> XMLEvent?
}

extension XMLReader: XMLEventSource {
  package mutating func nextEvent() throws(XMLError) -> XMLEvent? { try next() }
}

/// The events of an ``XMLElement`` tree, in document order, walked with an explicit stack (deep trees do not
/// use the call stack). Nesting deeper than `maximumDepth` is refused as the pull reader refuses it.
package struct XMLTreeEventSource: XMLEventSource {
  private var stack: [(element: XMLElement, next: Int)] = []
  private var root: XMLElement?
  private let maximumDepth: Int

  package init(_ root: XMLElement, maximumDepth: Int) {
    self.root = root
    self.maximumDepth = maximumDepth
  }

  package mutating func nextEvent() throws(XMLError) -> XMLEvent? {
    if let element = root {
      root = nil
      return start(element)
    }
    while let top = stack.last {
      let index = top.next
      guard index < top.element.children.count else {
        stack.removeLast()
        return .endElement(name: top.element.name)
      }
      stack[stack.count - 1].next = index + 1
      switch top.element.children[index] {
      case .element(let child):
        guard stack.count < maximumDepth else {
          throw XMLError(.limitExceeded(.depth), line: 0, column: 0)
        }
        return start(child)
      case .text(let text): return .text(text)
      case .cdata(let text): return .cdata(text)
      case .comment(let text): return .comment(text)
      case .processingInstruction(let target, let data): return .processingInstruction(target: target, data: data)
      }
    }
    return nil
  }

  private mutating func start(_ element: XMLElement) -> XMLEvent {
    stack.append((element, 0))
    return .startElement(name: element.name, attributes: element.attributes)
  }
}
