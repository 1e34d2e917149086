import KDBXXML

/// Receives the database XML from ``DatabaseXMLWriter`` as a stream of events, in document order.
protocol DatabaseXMLSink {
  /// Starts a child element of the open element; `containsText` when text or CDATA will be among its children.
  mutating func startElement(_ name: String, attributes: [XMLAttribute], containsText: Bool)
  /// A whole element holding only `text` (nothing when it is empty).
  mutating func leaf(_ name: String, attributes: [XMLAttribute], text: String)
  /// A kept node (an unknown element with its subtree, text, a comment...): the bytes `range` of a layout's
  /// compact form (`KeptXML`), written as the node it stands for.
  mutating func kept(_ bytes: [UInt8], _ range: Range<Int>)
  /// Ends the open element.
  mutating func endElement()
}

/// Builds the ``XMLElement`` tree of the events.
struct XMLTreeSink: DatabaseXMLSink {
  /// The document's element, once it has ended.
  var root = XMLElement(name: "")
  /// The open elements, outermost first.
  private var open: [XMLElement] = []

  mutating func startElement(_ name: String, attributes: [XMLAttribute], containsText: Bool) {
    open.append(XMLElement(name: name, attributes: attributes))
  }

  mutating func leaf(_ name: String, attributes: [XMLAttribute], text: String) {
    append(.element(XMLElement(name: name, attributes: attributes, children: text.isEmpty ? [] : [.text(text)])))
  }

  mutating func kept(_ bytes: [UInt8], _ range: Range<Int>) {
    if let node = KeptXML.node(in: bytes, range: range) { append(node) }
  }

  private mutating func append(_ node: XMLNode) {
    guard !open.isEmpty else { preconditionFailure("DatabaseXMLWriter: a node outside the document element") }
    open[open.count - 1].children.append(node)
  }

  mutating func endElement() {
    guard let element = open.popLast() else { preconditionFailure("DatabaseXMLWriter: no open element to end") }
    if open.isEmpty { root = element } else { open[open.count - 1].children.append(.element(element)) }
  }
}

/// Writes the events as XML bytes through an ``XMLStreamWriter``; the first error is kept (and what follows it is
/// not written), to be thrown when the walk is over.
struct XMLByteSink: DatabaseXMLSink {
  var writer: XMLStreamWriter
  var failure: XMLError? = nil {
    didSet { failed = true }
  }
  /// Whether ``failure`` is set (a plain flag is cheaper to test on every event than the optional error).
  private(set) var failed = false
  /// Where the output is handed on while it is written, if anywhere.
  var chunks: Chunks? = nil

  /// The hand-offs of ``DatabaseXMLWriter/serialize(_:version:stream:options:chunkByteCount:earlyHandOff:onChunk:)``.
  struct Chunks {
    /// Bytes between hand-offs, at least (unless ``early`` asks for them sooner).
    let size: Int
    /// An earlier hand-off: once at least `minimum` bytes are waiting, whenever `wanted()` says so (the one who
    /// takes them is idle).
    let early: (minimum: Int, wanted: () -> Bool)?
    let handler: (_ bytes: [UInt8], _ newBytesStart: Int) -> Void
    /// The output up to here has been handed on.
    var handedOff = 0

    /// The DEFLATE window (RFC 1951 §2): how far back a piece's matches may refer.
    static let window = 32 * 1024
  }

  mutating func startElement(_ name: String, attributes: [XMLAttribute], containsText: Bool) {
    guard !failed else { return }
    do throws(XMLError) {
      // The walk's element names are the library's constants.
      try writer.startElement(name, containsText: containsText, checksName: false)
      for attribute in attributes { try writer.attribute(attribute.name, value: attribute.value) }
    } catch {
      failure = error
    }
  }

  mutating func leaf(_ name: String, attributes: [XMLAttribute], text: String) {
    guard !failed else { return }
    do throws(XMLError) {
      try writer.element(name, attributes: attributes, text: text, checksName: false)
    } catch {
      failure = error
    }
  }

  mutating func kept(_ bytes: [UInt8], _ range: Range<Int>) {
    guard !failed else { return }
    do throws(XMLError) { try KeptXML.replay(bytes, range: range, into: &writer) } catch { failure = error }
  }

  mutating func endElement() {
    guard !failed else { return }
    writer.endElement()
    guard let chunks else { return }
    let waiting = writer.byteCount - chunks.handedOff
    if waiting >= chunks.size { return handOn(chunks) }
    if let early = chunks.early, waiting >= early.minimum, early.wanted() { handOn(chunks) }
  }

  /// Hands the bytes written since the last hand-off to the handler, with the window before them.
  private mutating func handOn(_ chunks: Chunks) {
    var chunks = chunks
    let end = writer.byteCount
    let start = max(chunks.handedOff - Chunks.window, 0)
    chunks.handler(writer.output(in: start..<end), chunks.handedOff - start)
    chunks.handedOff = end
    self.chunks = chunks
  }
}
