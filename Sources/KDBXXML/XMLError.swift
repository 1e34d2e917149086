import KDBXBase

/// An error thrown by `KDBXXML`: what went wrong (``Kind``) and where.
///
/// Reader errors carry the 1-based `line` and `column` (counted in Unicode scalars, after the XML 1.0 §2.11
/// end-of-line rules: `\r\n` and a lone `\r` each end one line) and the 0-based `byteOffset` of the problem.
/// Writer errors carry line 0, column 0 and byte offset 0, because they describe a tree, not a text.
public struct XMLError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The limits an ``XMLReader`` enforces (see ``XMLReader/Limits``).
  public enum Limit: Equatable, Sendable {
    /// Elements nested deeper than ``XMLReader/Limits/maximumDepth``.
    case depth
    /// More attributes on one element than ``XMLReader/Limits/maximumAttributeCount``.
    case attributeCount
    /// A name longer than ``XMLReader/Limits/maximumNameLength`` bytes.
    case nameLength
    /// A text, attribute value, CDATA section, comment or processing instruction longer than
    /// ``XMLReader/Limits/maximumTokenLength`` bytes.
    case tokenLength
  }

  /// What went wrong.
  public enum Kind: Equatable, Sendable {
    /// A syntax error not covered by a more precise case; the text says what was expected.
    case malformed(String)
    /// The input ended inside a construct (a tag, comment, CDATA section, reference...).
    case unexpectedEndOfInput
    /// The bytes are not well-formed UTF-8 (RFC 3629 §3): a bad lead or continuation byte, an overlong form,
    /// a surrogate, a value above U+10FFFF or a truncated sequence.
    case invalidUTF8
    /// A character outside the XML 1.0 `Char` production (§2.2), for example U+0000-U+0008 or U+FFFE.
    case invalidCharacter(UInt32)
    /// A name that does not match the XML 1.0 `Name` production (§2.3).
    case invalidName
    /// An end tag that does not match the open element (§3, well-formedness constraint "Element Type Match").
    case mismatchedTag(expected: String, found: String)
    /// The input ended while this element was still open.
    case unclosedTag(String)
    /// The same attribute name twice on one element (§3.1, "Unique Att Spec").
    case duplicateAttribute(String)
    /// A reference to an entity other than the five predefined ones (§4.6); no DTD is ever read.
    case undefinedEntity(String)
    /// A character reference that is malformed or names a character outside `Char` (§4.1).
    case invalidCharacterReference
    /// `<` inside an attribute value (§3.1, "No < in Attribute Values").
    case lessThanInAttributeValue
    /// `]]>` in character data (§2.4).
    case cdataEndInText
    /// The document has no root element (§2.1).
    case missingRoot
    /// Non-whitespace text before or after the root element (§2.1, `Misc`).
    case textOutsideRoot
    /// A second element after the root element (§2.1).
    case multipleRootElements
    /// A document type declaration, refused unless ``XMLReader/Options/allowsDoctype`` is set.
    case doctypeNotAllowed
    /// An XML declaration that is malformed, not at the very start, or declares an unsupported version.
    case invalidXMLDeclaration
    /// An encoding other than UTF-8 in the XML declaration (§4.3.3); this library reads UTF-8 only.
    case unsupportedEncoding(String)
    /// A configured limit was exceeded.
    case limitExceeded(Limit)
    /// Writer: a character that XML 1.0 cannot carry, not even as a character reference (§2.2).
    case unrepresentableCharacter(UInt32)
    /// Writer: a name, comment or processing instruction that cannot be written as well-formed XML.
    case unwritable(String)
  }

  /// What went wrong.
  public var kind: Kind
  /// 1-based line of the problem (0 for writer errors).
  public var line: Int
  /// 1-based column of the problem, in Unicode scalars (0 for writer errors).
  public var column: Int
  /// 0-based byte offset of the problem in the input (0 for writer errors).
  public var byteOffset: Int

  public init(_ kind: Kind, line: Int, column: Int, byteOffset: Int = 0) {
    self.kind = kind
    self.line = line
    self.column = column
    self.byteOffset = byteOffset
  }

  public var description: String {
    if line == 0 { return "XML error: \(kind.summary)" }
    return "XML error at line \(line), column \(column): \(kind.summary)"
  }
}

extension XMLError.Kind {
  /// A short English description, built without reflection (Embedded-friendly).
  public var summary: String {
    switch self {
    case .malformed(let what): return "malformed XML: \(what)"
    case .unexpectedEndOfInput: return "unexpected end of input"
    case .invalidUTF8: return "invalid UTF-8"
    case .invalidCharacter(let value): return "character U+\(hex(value)) is not allowed in XML 1.0"
    case .invalidName: return "invalid name"
    case .mismatchedTag(let expected, let found): return "end tag </\(found)> does not match <\(expected)>"
    case .unclosedTag(let name): return "element <\(name)> is not closed"
    case .duplicateAttribute(let name): return "duplicate attribute \(name)"
    case .undefinedEntity(let name): return "undefined entity &\(name);"
    case .invalidCharacterReference: return "invalid character reference"
    case .lessThanInAttributeValue: return "'<' in attribute value"
    case .cdataEndInText: return "']]>' in text"
    case .missingRoot: return "no root element"
    case .textOutsideRoot: return "text outside the root element"
    case .multipleRootElements: return "more than one root element"
    case .doctypeNotAllowed: return "DOCTYPE is not allowed"
    case .invalidXMLDeclaration: return "invalid XML declaration"
    case .unsupportedEncoding(let name): return "unsupported encoding \(name)"
    case .limitExceeded(let limit):
      switch limit {
      case .depth: return "nesting depth limit exceeded"
      case .attributeCount: return "attribute count limit exceeded"
      case .nameLength: return "name length limit exceeded"
      case .tokenLength: return "token length limit exceeded"
      }
    case .unrepresentableCharacter(let value): return "character U+\(hex(value)) cannot be written in XML 1.0"
    case .unwritable(let what): return "cannot write \(what)"
    }
  }

  private func hex(_ value: UInt32) -> String {
    Hex.encode(UInt64(value), minimumDigits: value > 0xFFFF ? 6 : 4, uppercase: true)
  }
}

extension XMLError.Kind {
  /// The name of the case, as the vector files (`Vectors/xml/*.vec`) write it; the kdbx CLI's `selftest --vectors`
  /// and the tests compare refusals by it.
  package var caseName: String {
    switch self {
    case .malformed: return "malformed"
    case .unexpectedEndOfInput: return "unexpectedEndOfInput"
    case .invalidUTF8: return "invalidUTF8"
    case .invalidCharacter: return "invalidCharacter"
    case .invalidName: return "invalidName"
    case .mismatchedTag: return "mismatchedTag"
    case .unclosedTag: return "unclosedTag"
    case .duplicateAttribute: return "duplicateAttribute"
    case .undefinedEntity: return "undefinedEntity"
    case .invalidCharacterReference: return "invalidCharacterReference"
    case .lessThanInAttributeValue: return "lessThanInAttributeValue"
    case .cdataEndInText: return "cdataEndInText"
    case .missingRoot: return "missingRoot"
    case .textOutsideRoot: return "textOutsideRoot"
    case .multipleRootElements: return "multipleRootElements"
    case .doctypeNotAllowed: return "doctypeNotAllowed"
    case .invalidXMLDeclaration: return "invalidXMLDeclaration"
    case .unsupportedEncoding: return "unsupportedEncoding"
    case .limitExceeded(let limit):
      switch limit {
      case .depth: return "depth"
      case .attributeCount: return "attributeCount"
      case .nameLength: return "nameLength"
      case .tokenLength: return "tokenLength"
      }
    case .unrepresentableCharacter: return "unrepresentableCharacter"
    case .unwritable: return "unwritable"
    }
  }
}
