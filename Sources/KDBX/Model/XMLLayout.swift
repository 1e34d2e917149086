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
  /// Attributes that KeePass does not define, found on known leaf child elements (for example
  /// `<UUID Extra="1">`), by child name; written back on the child of that name. Attributes that the model
  /// itself reads and writes (``modelAttributeNames``) are not kept here.
  public var childAttributes: [String: [KDBXXMLAttribute]]

  /// The attribute names that the model owns (`Protected` on values, `Ref` on binary references, `ID` and
  /// `Compressed` in the binary pool, and KeePass's XML-export `ProtectInMemory`).
  public static let modelAttributeNames: Set<String> = ["Protected", "ProtectInMemory", "Ref", "ID", "Compressed"]

  public init(
    items: [Item] = [], attributes: [KDBXXMLAttribute] = [], childAttributes: [String: [KDBXXMLAttribute]] = [:]
  ) {
    self.items = items
    self.attributes = attributes
    self.childAttributes = childAttributes
  }

  /// Two layouts are equal when they keep the same unknown children and attributes; the read order of known
  /// elements is bookkeeping for writing and does not make two model values different.
  public static func == (lhs: XMLLayout, rhs: XMLLayout) -> Bool {
    lhs.attributes == rhs.attributes && lhs.unknownNodes == rhs.unknownNodes
      && lhs.childAttributes == rhs.childAttributes
  }

  /// Keeps the attributes of the known leaf child `element` (one without child elements) that the model does
  /// not own. Known children with children of their own (`Entry`, `Group`, `Times`…) keep theirs in their
  /// own layout.
  mutating func keepAttributes(of element: XMLElement) {
    guard !element.attributes.isEmpty, element.childElements.isEmpty else { return }
    let kept = element.attributes.filter { !Self.modelAttributeNames.contains($0.name) }
    if !kept.isEmpty && childAttributes[element.name] == nil { childAttributes[element.name] = kept }
  }

  /// `element` with the attributes kept for its name added, unless the model already gave it attributes.
  func restoringAttributes(_ element: XMLElement) -> XMLElement {
    guard !childAttributes.isEmpty, element.attributes.isEmpty, let kept = childAttributes[element.name] else {
      return element
    }
    var element = element
    element.attributes = kept
    return element
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
    forEachInWriteOrder(canonical: canonical) { out.append($0) }
    return out
  }

  /// Calls `body` with each item of ``writeOrder(canonical:)``, without building the array (known names are given
  /// as spelled in `canonical`, which holds at most 64 names).
  @inline(__always)
  func forEachInWriteOrder(canonical: [String], _ body: (Item) -> Void) {
    precondition(canonical.count <= 64, "XMLLayout: a canonical order longer than 64 names")
    var written: UInt64 = 0
    for position in items.indices {
      switch items[position] {
      case .known(let name):
        guard let index = canonical.firstIndex(of: name), written & (1 << UInt64(index)) == 0 else { continue }
        written |= 1 << UInt64(index)
        body(.known(canonical[index]))
      case .unknown:
        body(items[position])
      }
    }
    for index in canonical.indices where written & (1 << UInt64(index)) == 0 { body(.known(canonical[index])) }
  }
}
