import KDBXXML

/// The order of an element's children as read, with the children this library does not understand kept verbatim,
/// so that writing puts unknown elements, comments and known fields back where they were (lossless round trip).
///
/// The layout holds them in a compact byte form (a few bytes per node, never more than their XML text plus one
/// byte per known child; see `KeptXML`), so that a document of millions of unknown elements costs about its own
/// size: ``items`` and ``unknownNodes`` build `XMLNode` values on demand, and the writer replays the bytes. A
/// layout whose known children came in KeePass's order and that keeps nothing else is empty.
package struct XMLLayout: Sendable, Equatable {
  /// One child position.
  package enum Item: Sendable, Equatable {
    /// A known child element, by name; the model supplies its value when writing.
    case known(String)
    /// A child kept verbatim (an unknown element, a comment, a processing instruction or non-blank text).
    case unknown(XMLNode)
  }

  /// What a layout keeps, when it keeps anything: most layouts (known children in KeePass's order, no attributes)
  /// keep nothing and hold no storage, so that a layout costs one word in every entry, field, group and `Times`.
  /// Immutable: a layout is made whole, as its element is read; setting ``items`` makes new storage.
  final class Storage: Sendable {
    let kept: [UInt8]
    let attributes: [KDBXXMLAttribute]
    let childAttributes: [String: [KDBXXMLAttribute]]

    init(kept: [UInt8], attributes: [KDBXXMLAttribute], childAttributes: [String: [KDBXXMLAttribute]]) {
      self.kept = kept
      self.attributes = attributes
      self.childAttributes = childAttributes
    }
  }

  /// `nil` when the layout keeps nothing.
  private var storage: Storage?

  /// Whether the layout holds storage (it keeps something).
  var holdsStorage: Bool { storage != nil }

  /// The kept nodes and the known children's order, in the form of `KeptXML`.
  var kept: [UInt8] { storage?.kept ?? [] }
  /// The element's own attributes, kept verbatim (KeePass defines none on the elements that have a layout).
  package var attributes: [KDBXXMLAttribute] { storage?.attributes ?? [] }
  /// Attributes that KeePass does not define, found on known leaf child elements (for example
  /// `<UUID Extra="1">`), by child name; written back on the child of that name. Attributes that the model
  /// itself reads and writes (``modelAttributeNames``) are not kept here.
  package var childAttributes: [String: [KDBXXMLAttribute]] { storage?.childAttributes ?? [:] }
  /// The attributes kept for the known child `name` (``childAttributes``), without making an empty dictionary for
  /// a layout that keeps none: the writer asks this of every leaf it writes.
  func attributes(ofChild name: String) -> [KDBXXMLAttribute]? { storage?.childAttributes[name] }

  /// The attribute names that the model owns (`Protected` on values, `Ref` on binary references, `ID` and
  /// `Compressed` in the binary pool, and KeePass's XML-export `ProtectInMemory`, which this library's exports
  /// before 2026 spelled `ProtectedInMemory`).
  package static let modelAttributeNames: Set<String> = [
    "Protected", "ProtectInMemory", "ProtectedInMemory", "Ref", "ID", "Compressed",
  ]

  package init(
    items: [Item] = [], attributes: [KDBXXMLAttribute] = [], childAttributes: [String: [KDBXXMLAttribute]] = [:]
  ) {
    self.init(kept: Self.encode(items), attributes: attributes, childAttributes: childAttributes)
  }

  init(kept: [UInt8], attributes: [KDBXXMLAttribute], childAttributes: [String: [KDBXXMLAttribute]]) {
    if kept.isEmpty && attributes.isEmpty && childAttributes.isEmpty {
      storage = nil
    } else {
      storage = Storage(kept: kept, attributes: attributes, childAttributes: childAttributes)
    }
  }

  /// The children in document order: each known child once (at its first position) and every kept node. Empty
  /// when the known children came in KeePass's order and nothing else was kept. Reading it builds the kept
  /// nodes; setting it replaces them.
  package var items: [Item] {
    get {
      var out: [Item] = []
      KeptXML.forEachItem(in: kept) { item in
        switch item {
        case .known(let name): out.append(.known(name))
        case .node(let range):
          if let node = KeptXML.node(in: kept, range: range) { out.append(.unknown(node)) }
        }
      }
      return out
    }
    set { self = XMLLayout(kept: Self.encode(newValue), attributes: attributes, childAttributes: childAttributes) }
  }

  static func encode(_ items: [Item]) -> [UInt8] {
    var bytes: [UInt8] = []
    for item in items {
      switch item {
      case .known(let name):
        if let id = XMLNames.layoutID(name) {
          bytes.append(KeptXML.knownIDTag + id)
        } else {
          bytes.append(KeptXML.knownNameTag)
          KeptXML.appendString(name, to: &bytes)
        }
      case .unknown(let node): KeptXML.append(node, to: &bytes)
      }
    }
    return bytes
  }

  /// Two layouts are equal when they keep the same unknown children and attributes; the read order of known
  /// elements is bookkeeping for writing and does not make two model values different.
  package static func == (lhs: XMLLayout, rhs: XMLLayout) -> Bool {
    // No storage on either side (the usual case): equal without making empty values to compare.
    if lhs.storage == nil && rhs.storage == nil { return true }
    return lhs.attributes == rhs.attributes && lhs.childAttributes == rhs.childAttributes
      && KeptXML.nodesEqual(lhs.kept, rhs.kept)
  }

  /// The unknown children, in order.
  package var unknownNodes: [XMLNode] {
    var out: [XMLNode] = []
    KeptXML.forEachItem(in: kept) { item in
      if case .node(let range) = item, let node = KeptXML.node(in: kept, range: range) { out.append(node) }
    }
    return out
  }

  /// Whether the layout keeps any unknown child.
  package var hasUnknownNodes: Bool {
    var found = false
    KeptXML.forEachItem(in: kept) { item in
      if case .node = item { found = true }
    }
    return found
  }

  /// The bytes the layout's compact form takes.
  var keptByteCount: Int { kept.count }

  /// The write order: the read order with each known name once (its first position), then the names of
  /// `canonical` that were not read, in canonical order.
  package func writeOrder(canonical: [String]) -> [Item] {
    var out: [Item] = []
    forEachInWriteOrder(XMLLayoutOrder(canonical)) { slot in
      switch slot {
      case .known(let name): out.append(.known(name))
      case .kept(let range): if let node = KeptXML.node(in: kept, range: range) { out.append(.unknown(node)) }
      }
    }
    return out
  }

  /// One position of the write order: a known name (spelled as in the canonical order) or the byte range of a
  /// kept node in ``kept``.
  enum Slot {
    case known(String)
    case kept(Range<Int>)
  }

  /// Calls `body` with each position of ``writeOrder(canonical:)``, without building nodes.
  func forEachInWriteOrder(_ order: XMLLayoutOrder, _ body: (Slot) -> Void) {
    var written: UInt64 = 0
    if !kept.isEmpty {
      KeptXML.forEachItem(in: kept) { item in
        switch item {
        case .known(let name):
          guard let index = order.index(of: name), written & (1 << UInt64(index)) == 0 else { return }
          written |= 1 << UInt64(index)
          body(.known(order.names[index]))
        case .node(let range):
          body(.kept(range))
        }
      }
    }
    for index in order.names.indices where written & (1 << UInt64(index)) == 0 { body(.known(order.names[index])) }
  }

  /// Whether the kept children include text or CDATA, which makes the element mixed content (written on one line).
  var holdsText: Bool { !kept.isEmpty && KeptXML.holdsText(kept) }
}

/// KeePass's order of the known children of one element (at most 64 names), with their ``XMLNames/layoutNames``
/// indices.
struct XMLLayoutOrder: Sendable {
  let names: [String]
  /// The layout index of each name (`0xFF` for a name that has none).
  let ids: [UInt8]

  init(_ names: [String]) {
    precondition(names.count <= 64, "XMLLayoutOrder: more than 64 names")
    self.names = names
    self.ids = names.map { XMLNames.layoutID($0) ?? 0xFF }
  }

  /// The position of the element with layout index `id`, searched from `start` (where the next one usually is)
  /// and then from the beginning.
  func index(of id: UInt8, near start: Int) -> Int? {
    Self.index(of: id, in: ids, near: start)
  }

  /// The position of `name`, searched from `start` (where the next name usually is) and then from the beginning.
  func index(of name: String, near start: Int = 0) -> Int? {
    Self.index(of: name, in: names, near: start)
  }

  /// The position of `value` in `values`, searched from `start` and then from the beginning.
  @inline(__always)
  private static func index<T: Equatable>(of value: T, in values: [T], near start: Int) -> Int? {
    var index = start
    while index < values.count {
      if values[index] == value { return index }
      index += 1
    }
    index = 0
    while index < min(start, values.count) {
      if values[index] == value { return index }
      index += 1
    }
    return nil
  }
}

extension XMLLayout {
  /// Builds a layout while an element's children are read. Known children in KeePass's order and nothing else
  /// give an empty layout without allocating; the known order is written into the bytes only once an unknown
  /// child comes or the order differs.
  struct Builder {
    var bytes: [UInt8] = []
    var attributes: [XMLAttribute]
    var childAttributes: [String: [XMLAttribute]] = [:]
    let order: XMLLayoutOrder
    /// The known positions read so far (bit = position in `order`).
    private var seen: UInt64 = 0
    /// The furthest known position read so far.
    private var cursor = 0
    /// Whether the known children so far came in `order`.
    private(set) var inOrder = true
    /// Whether `bytes` holds the known order (else `seen`, in `order`'s order, is it).
    private var materialized = false
    private(set) var hasUnknown = false

    init(attributes: [XMLAttribute], order: XMLLayoutOrder) {
      self.attributes = attributes
      self.order = order
    }

    /// Records the known child `name` (only its first occurrence matters for writing); `element` is its
    /// ``KnownElement``, when it has one.
    mutating func appendKnown(_ element: KnownElement?, _ name: String) {
      guard let element, let index = order.index(of: element.rawValue, near: cursor) else {
        materialize()
        inOrder = false
        if let element {
          bytes.append(KeptXML.knownIDTag + element.rawValue)
        } else {
          bytes.append(KeptXML.knownNameTag)
          KeptXML.appendString(name, to: &bytes)
        }
        return
      }
      let bit = UInt64(1) << UInt64(index)
      guard seen & bit == 0 else { return }
      if index < cursor && inOrder {
        materialize()
        inOrder = false
      }
      seen |= bit
      if index > cursor { cursor = index }
      if materialized { appendCode(index) }
    }

    /// Prepares `bytes` for an unknown child, which the caller then appends with `KeptXML`.
    mutating func beginUnknown() {
      materialize()
      hasUnknown = true
    }

    private mutating func appendCode(_ index: Int) {
      let id = order.ids[index]
      if id < 0x80 {
        bytes.append(KeptXML.knownIDTag + id)
      } else {
        bytes.append(KeptXML.knownNameTag)
        KeptXML.appendString(order.names[index], to: &bytes)
      }
    }

    private mutating func materialize() {
      guard !materialized else { return }
      materialized = true
      var rest = seen
      while rest != 0 {
        appendCode(rest.trailingZeroBitCount)
        rest &= rest - 1
      }
    }

    /// Keeps the attributes of the known leaf child `name` (one without child elements) that the model does not
    /// own. Known children with children of their own (`Entry`, `Group`, `Times`…) keep theirs in their own layout.
    mutating func keepAttributes(_ name: String, _ attributes: [XMLAttribute]) {
      let kept = attributes.filter { !XMLLayout.modelAttributeNames.contains($0.name) }
      if !kept.isEmpty && childAttributes[name] == nil { childAttributes[name] = kept }
    }

    /// The layout. With `keepsKnownOrder` false (small records such as `Times` or `String`, whose field order
    /// carries no meaning), the known order is dropped when nothing unknown was kept.
    func finish(keepsKnownOrder: Bool) -> XMLLayout {
      if !hasUnknown && (inOrder || !keepsKnownOrder) {
        return XMLLayout(kept: [], attributes: attributes, childAttributes: childAttributes)
      }
      return XMLLayout(kept: bytes, attributes: attributes, childAttributes: childAttributes)
    }
  }
}

extension XMLLayoutOrder {
  static let document = XMLLayoutOrder(Database.documentOrder)
  static let root = XMLLayoutOrder(Database.rootOrder)
  static let meta = XMLLayoutOrder(Meta.canonicalOrder)
  static let memoryProtection = XMLLayoutOrder(MemoryProtection.canonicalOrder)
  static let customIcon = XMLLayoutOrder([XMLNames.uuid, XMLNames.data, XMLNames.name, XMLNames.lastModificationTime])
  static let customDataItem = XMLLayoutOrder([XMLNames.key, XMLNames.value, XMLNames.lastModificationTime])
  static let group = XMLLayoutOrder(Group.canonicalOrder)
  static let entry = XMLLayoutOrder(Entry.canonicalOrder)
  static let times = XMLLayoutOrder(Times.canonicalOrder)
  static let field = XMLLayoutOrder([XMLNames.key, XMLNames.value])
  static let attachment = XMLLayoutOrder([XMLNames.key, XMLNames.value])
  static let autoType = XMLLayoutOrder([
    XMLNames.enabled, XMLNames.dataTransferObfuscation, XMLNames.defaultSequence, XMLNames.association,
  ])
  static let association = XMLLayoutOrder([XMLNames.window, XMLNames.keystrokeSequence])
  static let deletedObject = XMLLayoutOrder([XMLNames.uuid, XMLNames.deletionTime])
  // Lists: one item name each.
  static let customIcons = XMLLayoutOrder([XMLNames.icon])
  static let customData = XMLLayoutOrder([XMLNames.item])
  static let deletedObjects = XMLLayoutOrder([XMLNames.deletedObject])
  static let history = XMLLayoutOrder([XMLNames.entry])
}
