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
/// walks the tree with an explicit stack, so deep trees do not use the call stack, and feeds an
/// ``XMLStreamWriter``, which holds the formatting (so a document streamed without a tree gets the same bytes).
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
  public var options: Options { stream.options }
  /// The bytes written so far.
  public var output: [UInt8] { stream.output }
  var stream: XMLStreamWriter

  /// Creates a writer with empty output.
  public init(options: Options = Options()) {
    stream = XMLStreamWriter(options: options)
  }

  /// Writes `root` as a whole document and returns its bytes.
  ///
  /// - Throws: ``XMLError`` (with line and column 0) when the tree cannot be written as well-formed XML 1.0.
  public static func write(_ root: XMLElement, options: Options = Options()) throws(XMLError) -> [UInt8] {
    var writer = XMLStreamWriter(options: options)
    writer.writeDeclaration()
    try writer.write(root)
    return writer.output
  }

  /// Appends `element` and its subtree to ``output``.
  public mutating func write(_ element: XMLElement) throws(XMLError) {
    try stream.write(element)
  }
}
