/// A byte count a database carries as a hint for its next save, not as content: every two hints are equal, so that
/// ``Database``'s equality stays that of its content.
package struct DocumentSizeHint: Sendable, Equatable {
  /// The byte count, 0 when unknown.
  package var byteCount = 0

  package init(byteCount: Int = 0) { self.byteCount = max(byteCount, 0) }

  package static func == (_: DocumentSizeHint, _: DocumentSizeHint) -> Bool { true }
}
