/// Writes ``XMLElement`` trees as UTF-8 XML 1.0 documents (W3C XML 1.0, 5th edition).
///
/// ```swift
/// let bytes = try XMLWriter.write(root)                                  // KeePass-style, tab-indented
/// let compact = try XMLWriter.write(root, options: .init(indentation: .none))
/// ```
///
/// - Text escapes `&`, `<`, `>` (so `]]>` never appears) and `\r` (as `&#xD;`, so it survives §2.11).
/// - Attribute values are double-quoted and escape `&`, `<`, `>`, `"`, and `\t`, `\n`, `\r` as character references,
///   so that attribute-value normalization (§3.3.3) gives the same value back.
/// - A character XML 1.0 cannot carry at all (§2.2: U+0000-U+0008, U+000B, U+000C, U+000E-U+001F, U+FFFE, U+FFFF)
///   throws ``XMLError/Kind/unrepresentableCharacter(_:)`` by default, or is dropped with
///   ``InvalidCharacterPolicy/strip`` (what KeePass does). The writer never silently produces an invalid file.
/// - Names must match `Name` (§2.3); a comment may not contain `--` or end with `-`; a processing instruction's data
///   may not contain `?>` and its target may not be `xml`: otherwise ``XMLError/Kind/unwritable(_:)`` is thrown.
/// - A CDATA section containing `]]>` is split into several sections. One containing `\r` is written as escaped
///   text instead, since a CDATA section cannot carry a carriage return. In comments and processing instructions
///   a `\r` is written as is and reads back as `\n`.
///
/// The output depends only on the tree and the options: the same tree always gives the same bytes. The writer
/// walks the tree with an explicit stack, so deep trees do not use the call stack.
public struct XMLWriter {
  /// How elements are laid out.
  public enum Indentation: Sendable, Equatable {
    /// No added white space: the bytes are exactly the tree's content.
    case none
    /// As KeePass writes: each element on its own line, indented by one tab per level; an element holding text
    /// (mixed content) is written on one line with nothing added inside it; empty elements as `<Name />`.
    case tabs
  }

  /// What to do with characters XML 1.0 cannot carry (§2.2).
  public enum InvalidCharacterPolicy: Sendable, Equatable {
    /// Throw ``XMLError/Kind/unrepresentableCharacter(_:)``.
    case throwError
    /// Leave them out, as KeePass does.
    case strip
  }

  /// How a ``XMLWriter`` writes.
  public struct Options: Sendable, Equatable {
    /// Layout. Default ``Indentation/tabs``.
    public var indentation: Indentation
    /// Whether to start with `<?xml version="1.0" encoding="utf-8" standalone="yes"?>` (§2.8), as KeePass does.
    /// Default `true`.
    public var writesDeclaration: Bool
    /// What to do with characters XML 1.0 cannot carry. Default ``InvalidCharacterPolicy/throwError``.
    public var invalidCharacters: InvalidCharacterPolicy

    public init(
      indentation: Indentation = .tabs, writesDeclaration: Bool = true,
      invalidCharacters: InvalidCharacterPolicy = .throwError
    ) {
      self.indentation = indentation
      self.writesDeclaration = writesDeclaration
      self.invalidCharacters = invalidCharacters
    }
  }

  /// The options in use.
  public let options: Options
  /// The bytes written so far.
  public var output: [UInt8] { buffer.bytes() }
  var buffer = XMLOutputBuffer()
  /// The classification tables, loaded once (a global's lazy-initialization check per call costs time).
  let escapeClasses = XMLEscapeTable.table
  let nameClasses = ByteClass.nameTable

  private struct Frame {
    var children: [XMLNode]
    var name: String
    var next: Int
    var indentsChildren: Bool
  }

  /// Creates a writer with empty output.
  public init(options: Options = Options()) {
    self.options = options
  }

  /// Writes `root` as a whole document and returns its bytes.
  ///
  /// - Throws: ``XMLError`` (with line and column 0) when the tree cannot be written as well-formed XML 1.0.
  public static func write(_ root: XMLElement, options: Options = Options()) throws(XMLError) -> [UInt8] {
    var writer = XMLWriter(options: options)
    if options.writesDeclaration {
      writer.buffer.append(#"<?xml version="1.0" encoding="utf-8" standalone="yes"?>"#)
      if options.indentation == .tabs { writer.buffer.append(0x0A) }
    }
    try writer.write(root)
    return writer.output
  }

  /// Appends `element` and its subtree to ``output``.
  public mutating func write(_ element: XMLElement) throws(XMLError) {
    if !isKnownUniquelyReferenced(&buffer) { buffer = buffer.copy() }
    // The open elements above `current`; `current` itself is kept out of the array to avoid copies.
    var stack: [Frame] = []
    guard var current = try open(element, parentIndents: options.indentation == .tabs) else { return }
    while true {
      let index = current.next
      if index == current.children.count {
        if current.indentsChildren { newline(depth: stack.count) }
        buffer.append(0x3C)
        buffer.append(0x2F)
        buffer.append(current.name)  // Checked when the start tag was written.
        buffer.append(0x3E)
        guard let parent = stack.popLast() else { return }
        current = parent
        continue
      }
      current.next = index + 1
      if current.indentsChildren { newline(depth: stack.count + 1) }
      if let frame = try writeChild(current.children[index], parentIndents: current.indentsChildren) {
        stack.append(current)
        current = frame
      }
    }
  }

  /// Writes one child node; returns the frame of an element that has children of its own.
  @inline(__always)
  private mutating func writeChild(_ node: XMLNode, parentIndents: Bool) throws(XMLError) -> Frame? {
    switch node {
    case .element(let child):
      return try open(child, parentIndents: parentIndents)
    case .text(let text):
      try appendEscaped(text, .text)
    case .cdata(let text):
      try writeCDATA(text)
    case .comment(let text):
      try writeComment(text)
    case .processingInstruction(let target, let data):
      try writeProcessingInstruction(target: target, data: data)
    }
    return nil
  }

  /// Writes a start tag, or a whole empty element; returns the frame for an element with children.
  private mutating func open(_ element: XMLElement, parentIndents: Bool) throws(XMLError) -> Frame? {
    buffer.append(0x3C)
    try appendName(element.name)
    for attribute in element.attributes {
      buffer.append(0x20)
      try appendName(attribute.name)
      buffer.append(0x3D)
      buffer.append(0x22)
      try appendEscaped(attribute.value, .attribute)
      buffer.append(0x22)
    }
    if element.children.isEmpty {
      if options.indentation == .tabs { buffer.append(0x20) }
      buffer.append(0x2F)
      buffer.append(0x3E)
      return nil
    }
    buffer.append(0x3E)
    var indents = parentIndents
    if indents {
      indents = !element.children.contains { child in
        switch child {
        case .text, .cdata: return true
        default: return false
        }
      }
    }
    return Frame(children: element.children, name: element.name, next: 0, indentsChildren: indents)
  }

  private mutating func newline(depth: Int) {
    buffer.appendNewline(tabs: depth)
  }

  private mutating func writeCDATA(_ text: String) throws(XMLError) {
    let bytes = Array(text.utf8)
    if bytes.contains(0x0D) {
      try appendEscaped(text, .text)
      return
    }
    buffer.append("<![CDATA[")
    var start = 0
    // Split each "]]>" as "]]" + "]]><![CDATA[" + ">".
    for end in XMLWriter.occurrences(of: [0x5D, 0x5D, 0x3E], in: bytes) {
      try appendEscaped(String(decoding: bytes[start..<end + 2], as: UTF8.self), .raw)
      buffer.append("]]><![CDATA[")
      start = end + 2
    }
    try appendEscaped(String(decoding: bytes[start...], as: UTF8.self), .raw)
    buffer.append("]]>")
  }

  private mutating func writeComment(_ text: String) throws(XMLError) {
    let bytes = Array(text.utf8)
    if !XMLWriter.occurrences(of: [0x2D, 0x2D], in: bytes).isEmpty || bytes.last == 0x2D {
      throw XMLError(.unwritable("a comment containing '--' or ending with '-'"), line: 0, column: 0)
    }
    buffer.append("<!--")
    try appendEscaped(text, .raw)
    buffer.append("-->")
  }

  private mutating func writeProcessingInstruction(target: String, data: String) throws(XMLError) {
    let lowered = target.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    if lowered == [0x78, 0x6D, 0x6C] || !XMLWriter.occurrences(of: [0x3F, 0x3E], in: Array(data.utf8)).isEmpty {
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
