import KDBXBase
import KDBXXML

/// Maps the KeePass database XML (`KeePassFile`) to the model, unprotecting protected values with the inner
/// random stream in document order (KDBX 4.1 specification, "XML" and "Inner Random Stream").
///
/// ``read(xml:binaries:stream:random:gzip:options:pipeline:)`` builds the model straight from the events of the
/// pull reader (``XMLReader``), without a tree: opening a file uses it (for a document of 256 KiB or more, with the
/// pull reader on a helper, a few batches of events ahead: ``XMLEventPipeline``).
/// ``read(document:binaries:stream:random:gzip:options:)`` reads a tree already in memory through the same code. Unknown elements, comments and attributes are kept in
/// each object's ``XMLLayout`` (in a compact form, a few bytes per node) so that ``DatabaseXMLWriter`` can put them
/// back. A missing element stays `nil`; an empty one is an empty value.
///
/// The work is bounded for hostile documents: at most `LoadOptions/maxXMLNodeCount` nodes are read, and what
/// the model and the layouts hold may not exceed three times the document's size plus 16 MiB
/// (``heldByteLimit(xmlByteCount:)``); either limit throws ``KDBXError/limitExceeded(what:value:limit:)``. What
/// they hold is charged as values are made, at the most they can take: each value in an array at twice its
/// stride (an array's capacity is up to twice its count), strings and byte arrays with their allocation, kept
/// XML at twice its bytes (its array doubles as it grows). Real vaults need about half of the bound (`large_5000`:
/// 1.6 times its XML).
package enum DatabaseXMLReader<Stream: InnerRandomStream, Random: RandomNumberGenerator, Gzip: GzipDecompressing> {
  /// Reads the database XML document `xml` (UTF-8 bytes) with the pull reader.
  ///
  /// - Parameters:
  ///   - binaries: the KDBX 4 inner-header binaries (empty for KDBX 3.x, whose binaries are in `Meta/Binaries`).
  ///   - stream: the inner random stream, positioned at its start.
  ///   - random: the source of the pads of ``ProtectedValue``s.
  ///   - options: the XML depth and node limits (`LoadOptions/maxXMLDepth`, `LoadOptions/maxXMLNodeCount`)
  ///     and the payload limit for KDBX 3.x compressed binaries.
  ///   - pipeline: whether the pull reader runs on a helper, reading ahead in batches while the model is built
  ///     here (``XMLEventPipeline``), for documents of at least its ``XMLEventPipelineSettings/minimumByteCount``.
  ///     The model and the errors are the same either way.
  /// - Throws: ``KDBXError/xml(_:)`` for XML that is not well-formed, ``KDBXError/limitExceeded(what:value:limit:)``
  ///   over a limit, and the model's errors (``KDBXError/malformedDocument(path:reason:)``,
  ///   ``KDBXError/malformedValue(element:reason:)``).
  package static func read(
    xml: [UInt8], binaries: [InnerHeader.Binary] = [], stream: inout Stream, random: inout Random, gzip: Gzip,
    options: LoadOptions = .default, pipeline: XMLEventPipelineSettings = .standard
  ) throws(KDBXError) -> Database {
    let limit = heldByteLimit(xmlByteCount: xml.count)
    var database = try withCallbacks(stream: &stream, random: &random, gzip: gzip) {
      (applyStream, protect, decompress) throws(KDBXError) in
      try readDatabaseModel(
        xml: xml, binaries: binaries, options: options, heldByteLimit: limit, keepsTree: true, pipeline: pipeline,
        applyStream: applyStream, protect: protect, decompress: decompress)
    }
    database.documentSize = DocumentSizeHint(byteCount: xml.count)
    return database
  }

  /// Reads `document` (the root `KeePassFile` element), a tree already in memory (for example an XML import).
  /// The same as ``read(xml:binaries:stream:random:gzip:options:pipeline:)`` on the document's bytes, except that what the
  /// model holds is not bounded by the document's size (the tree is already larger).
  package static func read(
    document: XMLElement, binaries: [InnerHeader.Binary] = [], stream: inout Stream, random: inout Random,
    gzip: Gzip, options: LoadOptions = .default
  ) throws(KDBXError) -> Database {
    let source = XMLTreeEventSource(document, maximumDepth: options.maxXMLDepth)
    return try withCallbacks(stream: &stream, random: &random, gzip: gzip) {
      (applyStream, protect, decompress) throws(KDBXError) in
      var reader = DatabaseModelReader<XMLTreeEventSource>(
        source: source, options: options, heldByteLimit: .max, applyStream: applyStream, protect: protect,
        decompress: decompress)
      return try reader.readDocument(binaries: binaries)
    }
  }

  /// The most that the model and layouts may hold for a document of `xmlByteCount` bytes: three times its size
  /// plus 16 MiB. With the document itself, which stays in memory while it is read, an open then peaks under four
  /// times the document's size plus 16 MiB, plus the file's own bytes and its attachments.
  package static func heldByteLimit(xmlByteCount: Int) -> Int {
    xmlByteCount > (Int.max - (16 << 20)) / 3 ? .max : 3 * xmlByteCount + (16 << 20)
  }

  /// Calls `body` with the inner random stream, the pads of protected values and gzip as closures, so that the
  /// model reader does not depend on their types.
  static func withCallbacks(
    stream: inout Stream, random: inout Random, gzip: Gzip,
    _ body: (
      _ applyStream: @escaping (inout [UInt8]) -> Void, _ protect: @escaping ([UInt8]) -> ProtectedValue,
      _ decompress: @escaping ([UInt8], Int) throws(KDBXError) -> [UInt8]
    ) throws(KDBXError) -> Database
  ) throws(KDBXError) -> Database {
    let decompress = { (bytes: [UInt8], limit: Int) throws(KDBXError) -> [UInt8] in
      try gzip.decompressGzip(bytes, maxOutputByteCount: limit)
    }
    // `withoutActuallyEscaping` has untyped throws: the outcome travels as a `Result`.
    let outcome = withoutActuallyEscaping({ (bytes: inout [UInt8]) in stream.apply(to: &bytes) }) { applyStream in
      withoutActuallyEscaping({ (bytes: [UInt8]) in ProtectedValue(bytes: bytes, using: &random) }) { protect in
        do throws(KDBXError) {
          return Result<Database, KDBXError>.success(try body(applyStream, protect, decompress))
        } catch {
          return .failure(error)
        }
      }
    }
    return try outcome.get()
  }
}

/// The model of the database XML document `xml`, read by ``DatabaseModelReader``: through an ``XMLEventPipeline``
/// (the pull reader on a helper, a few batches ahead) when `pipeline` uses one for a document of this size, else
/// with the pull reader on the calling thread. The open (``DatabaseXMLReader/read(xml:binaries:stream:random:gzip:options:pipeline:)``)
/// and the check of every save (`KDBXFile.checkOpens`, which drops each entry and group once read: `keepsTree`
/// false) read this way. Not generic: the reader is specialized for both event sources here.
func readDatabaseModel(
  xml: [UInt8], binaries: [InnerHeader.Binary], options: LoadOptions, heldByteLimit: Int, keepsTree: Bool,
  pipeline: XMLEventPipelineSettings, applyStream: @escaping (inout [UInt8]) -> Void,
  protect: @escaping ([UInt8]) -> ProtectedValue, decompress: @escaping ([UInt8], Int) throws(KDBXError) -> [UInt8]
) throws(KDBXError) -> Database {
  var readerOptions = XMLReader.Options()
  readerOptions.limits.maximumDepth = options.maxXMLDepth
  #if !$Embedded
    if pipeline.isUsed(byteCount: xml.count), #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      let events = XMLEventPipeline(
        document: xml, options: readerOptions, batchSize: pipeline.batchSize, ringLength: pipeline.ringLength)
      if pipeline.startsHelper { events.startHelper() }
      defer { events.finish() }
      var reader = DatabaseModelReader<PipelinedXMLEventSource>(
        source: PipelinedXMLEventSource(events), options: options, heldByteLimit: heldByteLimit,
        applyStream: applyStream, protect: protect, decompress: decompress)
      reader.keepsTree = keepsTree
      return try reader.readDocument(binaries: binaries)
    }
  #endif
  var xmlReader = XMLReader(bytes: xml, options: readerOptions)
  // SAFETY: the model reader's copy of `source` lives only inside the scope of the borrowed input.
  return try xmlReader.withBorrowedInput { (source) throws(KDBXError) in
    var reader = DatabaseModelReader<XMLReader>(
      source: source, options: options, heldByteLimit: heldByteLimit, applyStream: applyStream, protect: protect,
      decompress: decompress)
    reader.keepsTree = keepsTree
    return try reader.readDocument(binaries: binaries)
  }
}

/// A child element as ``DatabaseModelReader/forEachChild(attributes:_:keepsKnownOrder:_:)`` hands it over.
struct XMLChild {
  var name: String
  /// The KeePass element of that name, if it is one.
  var known: KnownElement?
  var attributes: [XMLAttribute]
}

/// The reader behind ``DatabaseXMLReader``: a descent over the XML events, one function per KeePass element,
/// building the model as the events pass; nested groups, the one element nested to a depth the input chooses, are
/// read with an explicit stack (``readGroup(_:depth:)``). Generic over the event source only (the inner random
/// stream, the pads and gzip are reached through closures), so that it is specialized for both sources.
struct DatabaseModelReader<Source: XMLEventSource> {
  var source: Source
  let options: LoadOptions
  /// XORs bytes with the next bytes of the inner random stream.
  let applyStream: (inout [UInt8]) -> Void
  /// Makes a protected value of plaintext bytes.
  let protect: ([UInt8]) -> ProtectedValue
  /// gzip-decompresses at most the given number of bytes.
  let decompress: ([UInt8], Int) throws(KDBXError) -> [UInt8]
  var binaries = BinaryPool()
  /// KDBX 3.x `Meta/Binaries` IDs and their pool indices, in file order (an array: Embedded Swift has no
  /// `Dictionary` with a non-trivial key here); `sortedBinaryIDs` is built for lookups that the position cannot
  /// answer.
  var binaryIDs: [(id: String, index: Int)] = []
  var sortedBinaryIDs: [(id: String, index: Int)]? = nil
  /// Nodes read (elements, text, CDATA, comments, processing instructions), against `LoadOptions/maxXMLNodeCount`.
  var nodes: XMLNodeBudget
  /// Elements started, to tell whether a known child had child elements of its own.
  var elementCount = 0
  /// What the model and layouts hold so far, estimated, against `heldByteLimit`.
  var heldBytes = 0
  let heldByteLimit: Int
  /// Attachment references that name no binary, found so far.
  var missingReferenceCount = 0
  /// Whether the entries and groups read are kept in their parents (the open), or dropped once read and charged
  /// (the check of a document about to be saved, `KDBXFile.checkOpens`: every limit and every error of the open,
  /// in the memory of one entry and the groups still open around it).
  var keepsTree = true
  /// The element-name lookup, loaded once (a global's lazy-initialization check per element costs time).
  let knownElements = KnownElementTable.shared

  init(
    source: Source, options: LoadOptions, heldByteLimit: Int, applyStream: @escaping (inout [UInt8]) -> Void,
    protect: @escaping ([UInt8]) -> ProtectedValue,
    decompress: @escaping ([UInt8], Int) throws(KDBXError) -> [UInt8]
  ) {
    self.source = source
    self.options = options
    self.heldByteLimit = heldByteLimit
    self.nodes = XMLNodeBudget(limit: options.maxXMLNodeCount)
    self.applyStream = applyStream
    self.protect = protect
    self.decompress = decompress
  }

  // MARK: - Events

  /// The next event inside the document, counted against the node limit.
  mutating func next() throws(KDBXError) -> XMLEvent {
    let event: XMLEvent?
    do throws(XMLError) {
      event = try source.nextEvent()
    } catch {
      throw .xml(error)
    }
    guard let event else { throw .malformedDocument(path: "KeePassFile", reason: "the document ended early") }
    if case .startElement = event { elementCount &+= 1 }
    try nodes.add(event)
    return event
  }

  /// Adds `bytes` to what the model holds.
  mutating func charge(_ bytes: Int) throws(KDBXError) {
    heldBytes = heldBytes.addingReportingOverflow(max(0, bytes)).partialValue
    if heldBytes > heldByteLimit || heldBytes < 0 {
      throw .limitExceeded(
        what: "memory the XML document's content needs, in bytes,", value: UInt64(clamping: heldBytes),
        limit: UInt64(clamping: heldByteLimit))
    }
  }

  /// The cost of one more `T` in an array: its stride twice (an array's capacity is up to twice its count) and a
  /// share of the array's allocation.
  static func elementCost<T>(_ type: T.Type) -> Int { 2 * MemoryLayout<T>.stride + 16 }

  /// The cost of a string the model keeps: nothing up to 15 UTF-8 bytes (stored inline), else its bytes and the
  /// allocation's header.
  static func stringCost(_ text: String) -> Int {
    let count = text.utf8.count
    return count <= 15 ? 0 : count + 48
  }

  // MARK: - Document

  mutating func readDocument(binaries inner: [InnerHeader.Binary]) throws(KDBXError) -> Database {
    for binary in inner { binaries.appendAsRead(.init(data: binary.data, isProtected: binary.isProtected)) }
    var rootName = ""
    var rootAttributes: [XMLAttribute] = []
    // Comments and processing instructions before the root element are not kept (as the tree parser).
    findRoot: while true {
      switch try next() {
      case .startElement(let name, let attributes):
        rootName = name
        rootAttributes = attributes
        break findRoot
      default: continue
      }
    }
    guard rootName == XMLNames.keePassFile else {
      throw .malformedDocument(path: rootName, reason: "root element is not KeePassFile")
    }
    var database = Database(root: nil)
    var meta: Meta?
    var sawRoot = false
    database.documentLayout = try forEachChild(attributes: rootAttributes, .document) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .meta?: meta = try reader.readMeta(child.attributes)
      case .root?:
        guard !sawRoot else { throw .malformedDocument(path: "KeePassFile", reason: "more than one Root") }
        sawRoot = true
        try reader.readRoot(child.attributes, into: &database)
      default: return false
      }
      return true
    }
    // The rest of the document (comments, processing instructions) is checked, not kept.
    while true {
      let event: XMLEvent?
      do throws(XMLError) {
        event = try source.nextEvent()
      } catch {
        throw .xml(error)
      }
      if event == nil { break }
    }
    guard database.root != nil else { throw .malformedDocument(path: "KeePassFile/Root", reason: "no root group") }
    database.meta = meta ?? Meta()
    database.binaries = binaries
    return database
  }

  mutating func readRoot(_ attributes: [XMLAttribute], into database: inout Database) throws(KDBXError) {
    database.rootLayout = try forEachChild(attributes: attributes, .root) { (child, reader) throws(KDBXError) in
      switch child.known {
      case .group?:
        guard database.root == nil else {
          throw .malformedDocument(path: "Root", reason: "more than one root group")
        }
        database.root = try reader.readGroup(child.attributes, depth: 1)
      case .deletedObjects?:
        var list: [DeletedObject] = []
        database.deletedObjectsLayout = try reader.forEachChild(attributes: child.attributes, .deletedObjects) {
          (child, reader) throws(KDBXError) in
          guard child.known == .deletedObject else { return false }
          try reader.charge(Self.elementCost(DeletedObject.self))
          list.append(try reader.readDeletedObject(child.attributes))
          return true
        }
        database.deletedObjects = list
      default: return false
      }
      return true
    }
  }

  mutating func readDeletedObject(_ attributes: [XMLAttribute]) throws(KDBXError) -> DeletedObject {
    var object = DeletedObject(uuid: .zero, deletionTime: nil)
    object.layout = try forEachChild(attributes: attributes, .deletedObject, keepsKnownOrder: false) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .uuid?: object.uuid = try reader.uuid(child.name)
      case .deletionTime?: object.deletionTime = try reader.time(child.name)
      default: return false
      }
      return true
    }
    return object
  }

  // MARK: - Traversal

  /// Reads the children of the element just started (whose `attributes` the layout keeps), up to its end tag.
  /// `handle` gets each child element's name and attributes: it reads the child whole and returns `true`, or
  /// returns `false` without reading anything for an element it does not know, which is then kept verbatim.
  /// Known elements are recorded by name; blank text is dropped; other text, CDATA, comments and processing
  /// instructions are kept.
  ///
  /// With `keepsKnownOrder` false (small records such as `Times` or `String`, whose field order carries no
  /// meaning), the known order is not kept unless an unknown child is.
  mutating func forEachChild(
    attributes: [XMLAttribute], _ order: XMLLayoutOrder, keepsKnownOrder: Bool = true,
    _ handle: (XMLChild, inout DatabaseModelReader) throws(KDBXError) -> Bool
  ) throws(KDBXError) -> XMLLayout {
    var children = try startChildren(attributes: attributes, order)
    while true {
      switch try nextChild(&children, keepsKnownOrder: keepsKnownOrder) {
      case .element(let child):
        let elementsBefore = elementCount
        let handled = try handle(child, &self)
        try finishChild(child, handled: handled, elementsBefore: elementsBefore, in: &children)
      case .end(let layout): return layout
      }
    }
  }

  /// The state of reading one element's children, step by step (``forEachChild(attributes:_:keepsKnownOrder:_:)``
  /// is these steps in a loop; ``readGroup(_:depth:)`` keeps one per open group on a stack of its own).
  struct ChildReading {
    var layout: XMLLayout.Builder
    /// The part of the layout's bytes already charged: they are charged as they grow, in steps, so that millions
    /// of small unknown children are refused before they are all held.
    var charged = 0
  }

  /// What ``nextChild(_:keepsKnownOrder:)`` found: a child element just started, or the end of the element.
  enum ChildStep {
    case element(XMLChild)
    case end(XMLLayout)
  }

  /// Starts reading the children of the element just started, whose `attributes` the layout keeps.
  mutating func startChildren(
    attributes: [XMLAttribute], _ order: XMLLayoutOrder
  ) throws(KDBXError) -> ChildReading {
    if !attributes.isEmpty { try charge(Self.attributesCost(attributes)) }
    return ChildReading(layout: XMLLayout.Builder(attributes: attributes, order: order))
  }

  /// Reads up to the next child element (handed over: the caller reads it or not, then calls
  /// ``finishChild(_:handled:elementsBefore:in:)``) or the element's end tag (its layout, finished). Blank text is
  /// dropped; other text, CDATA, comments and processing instructions are kept.
  mutating func nextChild(_ children: inout ChildReading, keepsKnownOrder: Bool) throws(KDBXError) -> ChildStep {
    while true {
      switch try next() {
      case .startElement(let name, let childAttributes):
        return .element(XMLChild(name: name, known: knownElements.element(name), attributes: childAttributes))
      case .endElement:
        let built = children.layout.finish(keepsKnownOrder: keepsKnownOrder)
        try charge(2 * (built.keptByteCount - children.charged))
        return .end(built)
      case .text(let text):
        guard !text.utf8.allSatisfy({ ASCII.isWhitespace($0) }) else { continue }
        children.layout.beginUnknown()
        KeptXML.appendText(text, to: &children.layout.bytes)
      case .cdata(let text):
        children.layout.beginUnknown()
        KeptXML.appendLeaf(.cdata(text), to: &children.layout.bytes)
      case .comment(let text):
        children.layout.beginUnknown()
        KeptXML.appendLeaf(.comment(text), to: &children.layout.bytes)
      case .processingInstruction(let target, let data):
        children.layout.beginUnknown()
        KeptXML.appendLeaf(.processingInstruction(target: target, data: data), to: &children.layout.bytes)
      }
      try chargeStepGrowth(of: &children)
    }
  }

  /// Records the child element `child` once read whole (`handled`), or keeps it verbatim, read here (not
  /// `handled`: an element the caller does not know). `elementsBefore` is ``elementCount`` just after the child
  /// started: a known child with attributes and no child elements of its own keeps its attributes here.
  mutating func finishChild(
    _ child: XMLChild, handled: Bool, elementsBefore: Int, in children: inout ChildReading
  ) throws(KDBXError) {
    if handled {
      children.layout.appendKnown(child.known, child.name)
      // A leaf: the known child had no child elements of its own.
      if !child.attributes.isEmpty && elementCount == elementsBefore {
        let before = children.layout.childAttributes.count
        children.layout.keepAttributes(child.name, child.attributes)
        if children.layout.childAttributes.count > before { try charge(128 + Self.attributesCost(child.attributes)) }
      }
    } else {
      children.layout.beginUnknown()
      try keepElement(child.name, child.attributes, into: &children.layout.bytes, charged: &children.charged)
    }
    try chargeStepGrowth(of: &children)
  }

  /// Charges the growth of the layout's bytes once it reaches a step (``chargeStep``).
  mutating func chargeStepGrowth(of children: inout ChildReading) throws(KDBXError) {
    if children.layout.bytes.count - children.charged >= Self.chargeStep {
      try chargeGrowth(of: children.layout.bytes, charged: &children.charged)
    }
  }

  /// The growth of a layout's bytes is charged in steps of this many bytes.
  static var chargeStep: Int { 1 << 16 }

  /// Charges the growth of kept bytes, twice (the array's capacity doubles as it grows).
  mutating func chargeGrowth(of bytes: [UInt8], charged: inout Int) throws(KDBXError) {
    try charge(2 * (bytes.count - charged))
    charged = bytes.count
  }

  /// Keeps the unknown element just started, with its whole subtree, in the compact form of `KeptXML`; `charged`
  /// is the part of `bytes` already charged.
  mutating func keepElement(
    _ name: String, _ attributes: [XMLAttribute], into bytes: inout [UInt8], charged: inout Int
  ) throws(KDBXError) {
    var open = [KeptXML.appendStart(name, attributes, to: &bytes)]
    while let top = open.last {
      switch try next() {
      case .startElement(let child, let childAttributes):
        open.append(KeptXML.appendStart(child, childAttributes, to: &bytes))
      case .endElement:
        bytes.append(KeptXML.end)
        open.removeLast()
      case .text(let text):
        KeptXML.markHoldsText(at: top, in: &bytes)
        KeptXML.appendText(text, to: &bytes)
      case .cdata(let text):
        KeptXML.markHoldsText(at: top, in: &bytes)
        KeptXML.appendLeaf(.cdata(text), to: &bytes)
      case .comment(let text): KeptXML.appendLeaf(.comment(text), to: &bytes)
      case .processingInstruction(let target, let data):
        KeptXML.appendLeaf(.processingInstruction(target: target, data: data), to: &bytes)
      }
      if bytes.count - charged >= Self.chargeStep { try chargeGrowth(of: bytes, charged: &charged) }
    }
  }

  static func attributesCost(_ attributes: [XMLAttribute]) -> Int {
    var cost = 48
    for attribute in attributes {
      cost += 2 * MemoryLayout<XMLAttribute>.stride + stringCost(attribute.name) + stringCost(attribute.value)
    }
    return cost
  }

  /// The text of the element just started: its text and CDATA children joined, up to its end tag. Child elements
  /// are skipped (their content is not part of the value).
  mutating func elementText() throws(KDBXError) -> String {
    var text = ""
    var parts = 0
    var depth = 0
    while true {
      switch try next() {
      case .text(let value), .cdata(let value):
        guard depth == 0 else { continue }
        if parts == 0 { text = value } else { text += value }
        parts += 1
      case .startElement: depth += 1
      case .endElement:
        if depth == 0 { return text }
        depth -= 1
      default: continue
      }
    }
  }

  /// Skips the rest of the element just started.
  mutating func skipElement() throws(KDBXError) {
    var depth = 0
    while true {
      switch try next() {
      case .startElement: depth += 1
      case .endElement:
        if depth == 0 { return }
        depth -= 1
      default: continue
      }
    }
  }

  // MARK: - Values

  /// Text the model keeps (charged).
  mutating func text() throws(KDBXError) -> String {
    let value = try elementText()
    try charge(Self.stringCost(value))
    return value
  }

  /// A boolean; empty text reads as absent (KeePass's lenient reading).
  mutating func bool(_ name: String) throws(KDBXError) -> Bool? {
    try Self.bool(try elementText(), name)
  }

  static func bool(_ raw: String, _ name: String) throws(KDBXError) -> Bool? {
    let text = raw.trimmingASCIIWhitespace()
    if text == XMLNames.trueValue { return true }
    if text == XMLNames.falseValue { return false }
    switch text.lowercased() {
    case "": return nil
    case "true", "1": return true
    case "false", "0": return false
    default: throw .malformedValue(element: name, reason: "not a boolean")
    }
  }

  mutating func nullableBool(_ name: String) throws(KDBXError) -> Bool? {
    let raw = try elementText()
    let value = raw.trimmingASCIIWhitespace()
    if value.isEmpty || value.lowercased() == XMLNames.nullValue { return nil }
    return try Self.bool(raw, name)
  }

  /// An integer; empty text reads as absent.
  mutating func integer(_ name: String) throws(KDBXError) -> Int64? {
    let text = try elementText().trimmingASCIIWhitespace()
    if text.isEmpty { return nil }
    guard let value = Int64(text) else {
      throw .malformedValue(element: name, reason: "not an integer")
    }
    return value
  }

  mutating func uuid(_ name: String) throws(KDBXError) -> KDBXUUID {
    let value = try elementText().trimmingASCIIWhitespace()
    if value.isEmpty { return .zero }
    guard let uuid = KDBXUUID(base64: value) else {
      throw .malformedValue(element: name, reason: "not a base64 16-byte UUID")
    }
    return uuid
  }

  /// A time in either KDBX form; empty text reads as absent.
  mutating func time(_ name: String) throws(KDBXError) -> Timestamp? {
    let text = try elementText().trimmingASCIIWhitespace()
    if text.isEmpty { return nil }
    guard let value = KDBXTime.decode(text) else {
      throw .malformedValue(element: name, reason: "not a KDBX time")
    }
    return value
  }

  /// Base64 bytes the model keeps (charged).
  mutating func base64(_ name: String) throws(KDBXError) -> [UInt8] {
    let bytes = try Self.base64(try elementText(), name)
    try charge(bytes.count + 48)
    return bytes
  }

  static func base64(_ text: String, _ name: String) throws(KDBXError) -> [UInt8] {
    guard let value = Base64.decode(text, options: .lenient) else {
      throw .malformedValue(element: name, reason: "not base64")
    }
    return value
  }

  /// Whether `attributes` have `Protected="True"` (a value XORed with the inner random stream).
  static func isProtected(_ attributes: [XMLAttribute]) -> Bool {
    guard let value = attribute(XMLNames.protected, in: attributes) else { return false }
    return value == XMLNames.trueValue || value.lowercased() == "true"
  }

  static func attribute(_ name: String, in attributes: [XMLAttribute]) -> String? {
    for attribute in attributes where attribute.name == name { return attribute.value }
    return nil
  }

  /// Decodes a protected value: base64, then XOR with the next stream bytes (charged).
  mutating func unprotect(_ name: String) throws(KDBXError) -> [UInt8] {
    var bytes = try base64(name)
    applyStream(&bytes)
    return bytes
  }
}
