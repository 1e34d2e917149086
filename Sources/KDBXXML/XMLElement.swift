/// An attribute of an ``XMLElement``, kept in document order.
public struct XMLAttribute: Sendable, Equatable {
  /// The attribute's qualified name, as written (for example `Protected`).
  public var name: String
  /// The attribute's value with entities and character references decoded.
  public var value: String

  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// One child of an ``XMLElement``: an element, text, CDATA, a comment or a processing instruction.
public enum XMLNode: Sendable, Equatable {
  case element(XMLElement)
  /// Character data with entities decoded.
  case text(String)
  /// A CDATA section's content.
  case cdata(String)
  case comment(String)
  case processingInstruction(target: String, data: String)
}

/// An XML element tree that keeps element order, every attribute in order, and mixed content, so that a
/// document read and written again keeps elements this library does not know about.
public struct XMLElement: Sendable, Equatable {
  /// The element's qualified name, as written (for example `Entry`).
  public var name: String
  /// Attributes in document order.
  public var attributes: [XMLAttribute]
  /// Child nodes in document order.
  public var children: [XMLNode]

  public init(name: String, attributes: [XMLAttribute] = [], children: [XMLNode] = []) {
    self.name = name
    self.attributes = attributes
    self.children = children
  }
}
