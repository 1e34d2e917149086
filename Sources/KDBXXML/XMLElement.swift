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

extension XMLElement {
  /// The first child element named `name`, or `nil`.
  public func firstChild(named name: String) -> XMLElement? {
    for child in children {
      if case .element(let element) = child, element.name == name { return element }
    }
    return nil
  }

  /// The child elements named `name`, in document order.
  public func children(named name: String) -> [XMLElement] {
    var found: [XMLElement] = []
    for child in children {
      if case .element(let element) = child, element.name == name { found.append(element) }
    }
    return found
  }

  /// All child elements, in document order.
  public var childElements: [XMLElement] {
    var found: [XMLElement] = []
    for child in children {
      if case .element(let element) = child { found.append(element) }
    }
    return found
  }

  /// The value of the attribute named `name`, or `nil`.
  public func attribute(named name: String) -> String? {
    for attribute in attributes where attribute.name == name { return attribute.value }
    return nil
  }

  /// The concatenated text and CDATA content of the direct children (nested elements are not included).
  public var text: String {
    var single: String? = nil
    var joined = ""
    var parts = 0
    for child in children {
      switch child {
      case .text(let value), .cdata(let value):
        parts += 1
        if parts == 1 {
          single = value
        } else {
          if parts == 2, let single { joined = single }
          joined += value
        }
      default: break
      }
    }
    return parts == 1 ? (single ?? "") : joined
  }
}
