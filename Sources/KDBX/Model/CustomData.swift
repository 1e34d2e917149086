/// Custom data of the database, a group or an entry: string key-value items that plugins and other clients keep
/// (KDBX 4.1 specification, "XML": `CustomData`). Item order is kept.
package struct CustomData: Sendable, Equatable {
  /// One item.
  package struct Item: Sendable, Equatable {
    package var key: String
    package var value: String
    /// KDBX 4.1: when the item last changed.
    package var lastModificationTime: Timestamp?
    /// Unknown children and the read order.
    package var layout: XMLLayout

    package init(key: String, value: String, lastModificationTime: Timestamp? = nil) {
      self.key = key
      self.value = value
      self.lastModificationTime = lastModificationTime
      self.layout = XMLLayout()
    }
  }

  /// The items in order.
  package var items: [Item]
  /// Unknown children of the `CustomData` element, and the read order.
  package var layout: XMLLayout

  package init(items: [Item] = []) {
    self.items = items
    self.layout = XMLLayout()
  }

  /// The value for `key`.
  package subscript(key: String) -> String? {
    items.first { $0.key == key }?.value
  }

  package var isEmpty: Bool { items.isEmpty }
}
