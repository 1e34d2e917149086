/// Writes an XML 1.0 document (W3C XML 1.0, 5th edition) as a stream of events, without building a tree: the
/// formatting of ``XMLWriter`` (which is a walk over a tree feeding this writer), so both give the same bytes.
///
/// ```swift
/// var writer = XMLStreamWriter()  // or XMLStreamWriter(options: XMLWriter.Options(indentation: ...))
/// writer.writeDeclaration()
/// try writer.startElement("KeePassFile")
/// try writer.startElement("Name", containsText: true)
/// try writer.text("Example")
/// writer.endElement()
/// writer.endElement()
/// let bytes = writer.output
/// ```
///
/// Layout with ``XMLWriter/Indentation/tabs``: each element on its own line, one tab per level, except inside an
/// element that holds text or CDATA (mixed content), which is written on one line with nothing added inside it,
/// down to its deepest descendant. Since the layout of an element's first child depends on whether text follows
/// later, the caller says so when it starts the element (`containsText`). An element without children is written
/// as `<Name />`. Escaping, stripping and the checks are those listed on ``XMLWriter``.
public struct XMLStreamWriter {
  /// The options in use.
  public let options: XMLWriter.Options
  var buffer = XMLOutputBuffer()
  /// The classification tables, loaded once (a global's lazy-initialization check per call costs time).
  let escapeClasses = XMLEscapeTable.table
  let nameClasses = ByteClass.nameTable

  /// An element whose end tag is not written yet.
  private struct OpenElement {
    var name: String
    var indentsChildren: Bool
  }

  /// The open elements, outermost first.
  private var open: [OpenElement] = []
  /// Whether the innermost open element's start tag still lacks its `>` (no child written yet).
  private var startTagIsOpen = false

  /// Creates a writer with empty output.
  public init(options: XMLWriter.Options = XMLWriter.Options()) {
    self.options = options
  }

  /// The bytes written so far.
  public var output: [UInt8] { buffer.bytes() }

  /// The bytes written so far, which the writer no longer holds (it starts again from empty output, with the same
  /// open elements): the output is not in memory twice, as it is for a moment with ``output``.
  package mutating func takeOutput() -> [UInt8] {
    guard isKnownUniquelyReferenced(&buffer) else {
      let bytes = buffer.bytes()
      buffer = XMLOutputBuffer()
      return bytes
    }
    return buffer.takeBytes()
  }

  /// The number of bytes written so far.
  package var byteCount: Int { buffer.count }

  /// Makes room for `byteCount` bytes of output in all (a hint: the output still grows past it), so that a
  /// document of about that size is written into one array without copies as it grows.
  package mutating func reserveCapacity(_ byteCount: Int) {
    makeBufferUnique()
    buffer.reserveCapacity(byteCount)
  }

  /// The bytes written so far at offsets `range` (which must lie within `0..<byteCount`).
  package func output(in range: Range<Int>) -> [UInt8] { buffer.bytes(in: range) }

  /// The number of elements started and not yet ended.
  public var depth: Int { open.count }

  /// Writes `<?xml version="1.0" encoding="utf-8" standalone="yes"?>` (§2.8) when ``XMLWriter/Options/writesDeclaration``
  /// is set, followed by a line feed with ``XMLWriter/Indentation/tabs``. Call it first.
  public mutating func writeDeclaration() {
    guard options.writesDeclaration else { return }
    makeBufferUnique()
    buffer.append(#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#)
    if options.indentation == .tabs { buffer.append(0x0A) }
  }

  /// Starts the element `name` as the next child of the open element (or as the document's element).
  ///
  /// - Parameter containsText: whether the element will hold text or CDATA among its children; it is then written
  ///   on one line with its whole content (as ``XMLWriter`` lays out mixed content).
  ///   `checksName`: `false` skips the check of `name` (only for names known to be valid, such as constants).
  /// - Throws: ``XMLError`` when `name` does not match `Name` (§2.3).
  public mutating func startElement(_ name: String, containsText: Bool = false, checksName: Bool = true)
    throws(XMLError)
  {
    let parentIndents = beginChild()
    // Opened before the name is checked, so that after an error the caller's endElement still matches.
    open.append(OpenElement(name: name, indentsChildren: parentIndents && !containsText))
    startTagIsOpen = true
    buffer.append(0x3C)
    if checksName { try appendName(name) } else { buffer.append(name) }
  }

  /// Writes a whole element holding only `text` (`<Name />` when it is empty): the bytes of ``startElement(_:containsText:checksName:)``,
  /// ``attribute(_:value:)`` for each attribute, ``text(_:)`` when `text` is not empty and ``endElement()``.
  ///
  /// - Throws: as those do.
  public mutating func element(
    _ name: String, attributes: [XMLAttribute] = [], text: String, checksName: Bool = true
  ) throws(XMLError) {
    _ = beginChild()
    buffer.append(0x3C)
    if checksName { try appendName(name) } else { buffer.append(name) }
    for attribute in attributes { try appendAttribute(attribute.name, attribute.value) }
    if text.isEmpty { return appendEmptyElementEnd() }
    buffer.append(0x3E)
    try appendEscaped(text, .text)
    appendEndTag(name)
  }

  /// Adds an attribute to the element just started (before its first child).
  ///
  /// - Throws: ``XMLError`` when `name` is not a `Name`, or (with ``XMLWriter/InvalidCharacterPolicy/throwError``)
  ///   when `value` holds a character XML 1.0 cannot carry.
  public mutating func attribute(_ name: String, value: String) throws(XMLError) {
    precondition(startTagIsOpen, "XMLStreamWriter: an attribute after the element's content")
    try appendAttribute(name, value)
  }

  private mutating func appendAttribute(_ name: String, _ value: String) throws(XMLError) {
    buffer.append(0x20)
    try appendName(name)
    buffer.append(0x3D, 0x22)
    try appendEscaped(value, .attribute)
    buffer.append(0x22)
  }

  /// Appends character data (an empty string still counts as content: the element gets an end tag).
  public mutating func text(_ text: String) throws(XMLError) {
    _ = beginChild()
    try appendEscaped(text, .text)
  }

  /// Ends the innermost open element: `<Name />` when it has no children, else its end tag.
  public mutating func endElement() {
    guard let element = open.popLast() else { preconditionFailure("XMLStreamWriter: no open element to end") }
    makeBufferUnique()
    if startTagIsOpen {
      startTagIsOpen = false
      appendEmptyElementEnd()
      return
    }
    if element.indentsChildren { buffer.appendNewline(tabs: open.count) }
    appendEndTag(element.name)
  }

  /// ` />` (or `/>` without indentation).
  private func appendEmptyElementEnd() {
    if options.indentation == .tabs { buffer.append(0x20) }
    buffer.append(0x2F, 0x3E)
  }

  /// `</name>`; the name was checked when the start tag was written.
  private func appendEndTag(_ name: String) {
    buffer.append(0x3C, 0x2F)
    buffer.append(name)
    buffer.append(0x3E)
  }

  /// Closes the open start tag and starts a new line when the parent indents its children; returns whether the
  /// parent indents (at the top level: whether the layout is ``XMLWriter/Indentation/tabs``).
  @inline(__always)
  private mutating func beginChild() -> Bool {
    makeBufferUnique()
    guard let parent = open.last else { return options.indentation == .tabs }
    if startTagIsOpen {
      startTagIsOpen = false
      buffer.append(0x3E)
    }
    if parent.indentsChildren { buffer.appendNewline(tabs: open.count) }
    return parent.indentsChildren
  }

  /// Copies the shared output buffer before writing, so that copies of a writer do not write into each other.
  @inline(__always)
  private mutating func makeBufferUnique() {
    if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
  }

  /// Writes a comment (§2.5).
  ///
  /// - Throws: ``XMLError`` when `text` contains `--` or ends with `-`.
  public mutating func comment(_ text: String) throws(XMLError) {
    _ = beginChild()
    try writeComment(text)
  }

  /// Writes a CDATA section (§2.7); one containing `]]>` is split, one containing `\r` is written as escaped text.
  public mutating func cdata(_ text: String) throws(XMLError) {
    _ = beginChild()
    try writeCDATA(text)
  }

  /// Writes a processing instruction (§2.6).
  ///
  /// - Throws: ``XMLError`` when `target` is `xml` (in any case) or not a `Name`, or `data` contains `?>`.
  public mutating func processingInstruction(target: String, data: String) throws(XMLError) {
    _ = beginChild()
    try writeProcessingInstruction(target: target, data: data)
  }
}
