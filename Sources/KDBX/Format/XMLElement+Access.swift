import KDBXXML

extension XMLElement {
  /// The first child element named `name`.
  func child(_ name: String) -> XMLElement? {
    for node in children {
      if case .element(let element) = node, element.name == name { return element }
    }
    return nil
  }

  /// The child elements, in order.
  var childElements: [XMLElement] {
    var out: [XMLElement] = []
    for node in children {
      if case .element(let element) = node { out.append(element) }
    }
    return out
  }

  /// The concatenated text and CDATA of the direct children.
  var textContent: String {
    var text = ""
    for node in children {
      switch node {
      case .text(let value), .cdata(let value): text += value
      default: break
      }
    }
    return text
  }

  /// The value of attribute `name`.
  func attribute(_ name: String) -> String? {
    attributes.first { $0.name == name }?.value
  }
}
