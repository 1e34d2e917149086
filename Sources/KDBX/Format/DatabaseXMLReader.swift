import KDBXXML

/// Maps the KeePass database XML tree (`KeePassFile`) to the model, unprotecting protected values with the inner
/// random stream in document order (KDBX 4.1 specification, "XML" and "Inner Random Stream").
///
/// Unknown elements, comments and attributes are kept in each object's ``XMLLayout`` so that
/// ``DatabaseXMLWriter`` can put them back. A missing element stays `nil`; an empty one is an empty value.
public struct DatabaseXMLReader<Stream: InnerRandomStream, Random: RandomNumberGenerator, Gzip: GzipDecompressing> {
  var stream: Stream
  var random: Random
  let gzip: Gzip
  let options: LoadOptions
  var binaries: BinaryPool
  /// KDBX 3.x `Meta/Binaries` IDs and their pool indices (an array: Embedded Swift has no `Dictionary` here).
  var binaryIDs: [(id: String, index: Int)] = []

  /// Reads `document` (the root `KeePassFile` element).
  ///
  /// - Parameters:
  ///   - binaries: the KDBX 4 inner-header binaries (empty for KDBX 3.x, whose binaries are in `Meta/Binaries`).
  ///   - stream: the inner random stream, positioned at its start.
  ///   - random: the source of the pads of ``ProtectedValue``s.
  public static func read(
    document: XMLElement, binaries: [InnerHeader.Binary] = [], stream: inout Stream, random: inout Random,
    gzip: Gzip, options: LoadOptions = .default
  ) throws(KDBXError) -> Database {
    var pool = BinaryPool()
    for binary in binaries { pool.appendAsRead(.init(data: binary.data, isProtected: binary.isProtected)) }
    var reader = DatabaseXMLReader(stream: stream, random: random, gzip: gzip, options: options, binaries: pool)
    let database = try reader.readDocument(document)
    stream = reader.stream
    random = reader.random
    return database
  }

  mutating func readDocument(_ document: XMLElement) throws(KDBXError) -> Database {
    guard document.name == XMLNames.keePassFile else {
      throw .malformedDocument(path: document.name, reason: "root element is not KeePassFile")
    }
    var database = Database(root: nil)
    var meta: Meta?
    var sawRoot = false
    database.documentLayout = try forEachChild(of: document) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.meta: meta = try reader.readMeta(child)
      case XMLNames.root:
        guard !sawRoot else { throw .malformedDocument(path: "KeePassFile", reason: "more than one Root") }
        sawRoot = true
        try reader.readRoot(child, into: &database)
      default: return false
      }
      return true
    }
    guard database.root != nil else { throw .malformedDocument(path: "KeePassFile/Root", reason: "no root group") }
    database.meta = meta ?? Meta()
    database.binaries = binaries
    return database
  }

  mutating func readRoot(_ element: XMLElement, into database: inout Database) throws(KDBXError) {
    database.rootLayout = try forEachChild(of: element) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.group:
        guard database.root == nil else {
          throw .malformedDocument(path: "Root", reason: "more than one root group")
        }
        database.root = try reader.readGroup(child, depth: 1)
      case XMLNames.deletedObjects:
        var list: [DeletedObject] = []
        database.deletedObjectsLayout = try reader.forEachChild(of: child) {
          (item, reader) throws(KDBXError) in
          guard item.name == XMLNames.deletedObject else { return false }
          list.append(try reader.readDeletedObject(item))
          return true
        }
        database.deletedObjects = list
      default: return false
      }
      return true
    }
  }

  mutating func readDeletedObject(_ element: XMLElement) throws(KDBXError) -> DeletedObject {
    var object = DeletedObject(uuid: .zero, deletionTime: nil)
    object.layout = try forEachChild(of: element, keepsKnownOrder: false) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.uuid: object.uuid = try reader.uuid(child)
      case XMLNames.deletionTime: object.deletionTime = try reader.time(child)
      default: return false
      }
      return true
    }
    return object
  }

  // MARK: - Traversal

  /// Visits the children of `element` in document order. `handle` returns `false` for an element it does not know,
  /// which is then kept verbatim; known elements are recorded by name. Blank text is dropped.
  ///
  /// With `keepsKnownOrder` false (small records such as `Times` or `String`, whose field order carries no
  /// meaning), a child list without unknown nodes or attributes gives an empty layout, so nothing is allocated and
  /// the writer uses the canonical order.
  @discardableResult
  mutating func forEachChild(
    of element: XMLElement, keepsKnownOrder: Bool = true,
    _ handle: (XMLElement, inout DatabaseXMLReader) throws(KDBXError) -> Bool
  ) throws(KDBXError) -> XMLLayout {
    var layout = XMLLayout(attributes: element.attributes)
    var sawUnknown = false
    for node in element.children {
      switch node {
      case .element(let child):
        if try handle(child, &self) {
          layout.items.append(.known(child.name))
          layout.keepAttributes(of: child)
        } else {
          layout.items.append(.unknown(node))
          sawUnknown = true
        }
      case .text(let text):
        if !text.utf8.allSatisfy({ ASCII.isWhitespace($0) }) {
          layout.items.append(.unknown(node))
          sawUnknown = true
        }
      default:
        layout.items.append(.unknown(node))
        sawUnknown = true
      }
    }
    if !keepsKnownOrder && !sawUnknown && layout.attributes.isEmpty && layout.childAttributes.isEmpty {
      return XMLLayout()
    }
    return layout
  }

  // MARK: - Values

  func text(_ element: XMLElement) -> String { element.textContent }

  /// A boolean; empty text reads as absent (KeePass's lenient reading).
  func bool(_ element: XMLElement) throws(KDBXError) -> Bool? {
    let text = element.textContent.trimmingASCIIWhitespace()
    if text == XMLNames.trueValue { return true }
    if text == XMLNames.falseValue { return false }
    switch text.lowercased() {
    case "": return nil
    case "true", "1": return true
    case "false", "0": return false
    default: throw .malformedValue(element: element.name, reason: "not a boolean")
    }
  }

  func nullableBool(_ element: XMLElement) throws(KDBXError) -> Bool? {
    let value = element.textContent.trimmingASCIIWhitespace()
    if value.isEmpty || value.lowercased() == XMLNames.nullValue { return nil }
    return try bool(element)
  }

  /// An integer; empty text reads as absent.
  func integer(_ element: XMLElement) throws(KDBXError) -> Int64? {
    let text = element.textContent.trimmingASCIIWhitespace()
    if text.isEmpty { return nil }
    guard let value = Int64(text) else {
      throw .malformedValue(element: element.name, reason: "not an integer")
    }
    return value
  }

  func uuid(_ element: XMLElement) throws(KDBXError) -> KDBXUUID {
    let value = element.textContent.trimmingASCIIWhitespace()
    if value.isEmpty { return .zero }
    guard let uuid = KDBXUUID(base64: value) else {
      throw .malformedValue(element: element.name, reason: "not a base64 16-byte UUID")
    }
    return uuid
  }

  /// A time in either KDBX form; empty text reads as absent.
  func time(_ element: XMLElement) throws(KDBXError) -> Timestamp? {
    let text = element.textContent.trimmingASCIIWhitespace()
    if text.isEmpty { return nil }
    guard let value = KDBXTime.decode(text) else {
      throw .malformedValue(element: element.name, reason: "not a KDBX time")
    }
    return value
  }

  func base64(_ element: XMLElement) throws(KDBXError) -> [UInt8] {
    guard let value = Base64.decode(element.textContent, options: .lenient) else {
      throw .malformedValue(element: element.name, reason: "not base64")
    }
    return value
  }

  /// Whether `element` has `Protected="True"` (a value XORed with the inner random stream).
  func isProtected(_ element: XMLElement) -> Bool {
    guard let value = element.attribute(XMLNames.protected) else { return false }
    return value == XMLNames.trueValue || value.lowercased() == "true"
  }

  /// Decodes a protected value: base64, then XOR with the next stream bytes.
  mutating func unprotect(_ element: XMLElement) throws(KDBXError) -> [UInt8] {
    var bytes = try base64(element)
    stream.apply(to: &bytes)
    return bytes
  }
}
