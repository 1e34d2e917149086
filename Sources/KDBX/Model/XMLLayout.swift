import KDBXXML

/// The order of an element's children as read, with the children this library does not understand kept verbatim,
/// so that writing puts unknown elements, comments and known fields back where they were (lossless round trip).
public struct XMLLayout: Sendable, Equatable {
  /// One child position.
  public enum Item: Sendable, Equatable {
    /// A known child element, by name; the model supplies its value when writing.
    case known(String)
    /// A child kept verbatim (an unknown element, a comment, a processing instruction or non-blank text).
    case unknown(XMLNode)
  }

  /// The children in document order.
  public var items: [Item]
  /// The element's own attributes, kept verbatim (KeePass defines none on the elements that have a layout).
  public var attributes: [KDBXXMLAttribute]

  public init(items: [Item] = [], attributes: [KDBXXMLAttribute] = []) {
    self.items = items
    self.attributes = attributes
  }

  /// Two layouts are equal when they keep the same unknown children and attributes; the read order of known
  /// elements is bookkeeping for writing and does not make two model values different.
  public static func == (lhs: XMLLayout, rhs: XMLLayout) -> Bool {
    lhs.attributes == rhs.attributes && lhs.unknownNodes == rhs.unknownNodes
  }

  /// The unknown children, in order.
  public var unknownNodes: [XMLNode] {
    var out: [XMLNode] = []
    for item in items { if case .unknown(let node) = item { out.append(node) } }
    return out
  }

  /// The write order: the read order with each known name once (its first position), then the names of
  /// `canonical` that were not read, in canonical order.
  public func writeOrder(canonical: [String]) -> [Item] {
    var out: [Item] = []
    var written: [String] = []
    for item in items {
      switch item {
      case .known(let name):
        if !written.contains(name) && canonical.contains(name) {
          written.append(name)
          out.append(item)
        }
      case .unknown:
        out.append(item)
      }
    }
    for name in canonical where !written.contains(name) { out.append(.known(name)) }
    return out
  }
}
