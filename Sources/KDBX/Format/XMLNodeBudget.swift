import KDBXXML

/// The node limit of a database XML document (`LoadOptions/maxXMLNodeCount`), counted one way wherever a
/// document is read: by the open (`DatabaseModelReader`) and by the check of a document that is about to be saved
/// or was read back (`KDBXFile.checkDocument(_:options:)`). Because both count with this one rule and the same
/// limit, a save never writes a document that the open refuses for its size.
///
/// A node is an element, a text run as ``XMLReader`` reports it (white space between markup is none), a CDATA
/// section, a comment or a processing instruction (W3C XML 1.0 §2-§3); an end tag is not a node.
struct XMLNodeBudget {
  /// The most nodes allowed.
  let limit: Int
  /// The nodes counted so far.
  private(set) var count = 0

  init(limit: Int) {
    self.limit = limit
  }

  /// Counts `event`.
  /// - Throws: ``KDBXError/limitExceeded(what:value:limit:)`` when the document has more nodes than ``limit``.
  @inline(__always)
  mutating func add(_ event: XMLEvent) throws(KDBXError) {
    if case .endElement = event { return }
    try add(nodes: 1)
  }

  /// Counts `nodes` nodes that were not reported as events (text an ``XMLReader`` discarded, counted by its
  /// `discardedTextCount`).
  mutating func add(nodes: Int) throws(KDBXError) {
    let (sum, overflow) = count.addingReportingOverflow(max(0, nodes))
    count = overflow ? .max : sum
    if count > limit {
      throw .limitExceeded(what: "XML node count", value: UInt64(count), limit: UInt64(clamping: limit))
    }
  }
}
