/// One event of an ``XMLReader``: a piece of an XML 1.0 document (W3C XML 1.0, 5th edition, §2-§3).
///
/// An empty-element tag (`<Name />`) gives a ``startElement(name:attributes:)`` followed by an
/// ``endElement(name:)``. Text has its references decoded and its line endings normalized (§2.11).
public enum XMLEvent: Sendable, Equatable {
  /// A start tag or empty-element tag (§3.1), with its attributes in document order, values normalized (§3.3.3).
  case startElement(name: String, attributes: [XMLAttribute])
  /// An end tag, or the end of an empty-element tag (§3.1).
  case endElement(name: String)
  /// Character data (§2.4) with entity and character references decoded.
  case text(String)
  /// The content of a CDATA section (§2.7).
  case cdata(String)
  /// The content of a comment (§2.5), without `<!--` and `-->`.
  case comment(String)
  /// A processing instruction (§2.6). `data` has the white space after the target removed.
  case processingInstruction(target: String, data: String)
}
