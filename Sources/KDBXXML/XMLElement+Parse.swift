extension XMLElement {
  /// Parses a whole UTF-8 XML 1.0 document and returns its root element (W3C XML 1.0 §2.1).
  ///
  /// The tree keeps element order, every attribute in order, and mixed content (text, CDATA, comments and
  /// processing instructions inside the root). Comments and processing instructions outside the root are not kept.
  /// White-space-only text follows ``XMLReader/Options/keepsWhitespaceText``.
  ///
  /// The builder keeps open elements on an explicit heap-allocated stack, never on the call stack, so nesting depth
  /// is bounded only by ``XMLReader/Limits/maximumDepth``. (Releasing or comparing a tree is done by Swift's value
  /// semantics, which do recurse; the default depth limit of 1024 keeps that shallow.)
  ///
  /// - Throws: ``XMLError`` with the line and column of the first problem.
  public static func parse(_ bytes: [UInt8], options: XMLReader.Options = XMLReader.Options()) throws(XMLError)
    -> XMLElement
  {
    var reader = XMLReader(bytes: bytes, options: options)
    var builder = XMLTreeBuilder()
    var root: XMLElement? = nil
    // One pass over the whole input straight on the scanning kernel; errors are turned into XMLErrors, with line
    // and column, outside it. SAFETY: `reader` is not used after the scope of its borrowed input.
    try reader.withBorrowedInput { (reader) throws(XMLError) in
      guard let bytes = reader.borrowed else { preconditionFailure("withBorrowedInput lends the input") }
      do throws(ScanFailure) {
        while let event = try reader.scan(bytes) {
          if let element = builder.add(event) { root = element }
        }
      } catch {
        throw reader.error(error.kind, at: error.offset)
      }
    }
    // The reader throws `missingRoot` before it can end without a root element.
    guard let root else { throw XMLError(.missingRoot, line: 1, column: 1) }
    return root
  }
}

/// Builds ``XMLElement`` trees from ``XMLEvent``s with an explicit stack.
struct XMLTreeBuilder {
  private struct Frame {
    var name: String
    var attributes: [XMLAttribute]
    var firstChild: Int
  }

  private var frames: [Frame] = []
  /// The children of every open element, concatenated; each frame knows where its own start.
  private var pending = XMLNodeStack()

  /// Adds one event; returns the root element once it is complete.
  mutating func add(_ event: consuming XMLEvent) -> XMLElement? {
    switch consume event {
    case .startElement(let name, let attributes):
      frames.append(Frame(name: name, attributes: attributes, firstChild: pending.count))
    case .endElement:
      guard let frame = frames.popLast() else { return nil }
      // A fresh array with exactly the element's children: no spare capacity stays in the tree.
      let children = pending.popArray(from: frame.firstChild)
      let element = XMLElement(name: frame.name, attributes: frame.attributes, children: children)
      if frames.isEmpty { return element }
      pending.push(.element(element))
    case .text(let text):
      if !frames.isEmpty { pending.push(.text(text)) }
    case .cdata(let text):
      if !frames.isEmpty { pending.push(.cdata(text)) }
    case .comment(let text):
      if !frames.isEmpty { pending.push(.comment(text)) }
    case .processingInstruction(let target, let data):
      if !frames.isEmpty { pending.push(.processingInstruction(target: target, data: data)) }
    }
    return nil
  }
}
