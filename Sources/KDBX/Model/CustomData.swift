/// Custom data of the database, a group or an entry: string key-value items that plugins and other clients keep
/// (KDBX 4.1 specification, "XML": `CustomData`). Item order is kept.
public struct CustomData: Sendable, Equatable {
  /// One item.
  public struct Item: Sendable, Equatable {
    public var key: String
    public var value: String
    /// KDBX 4.1: when the item last changed.
    public var lastModificationTime: Timestamp?
    /// Unknown children and the read order.
    package var layout: XMLLayout

    public init(key: String, value: String, lastModificationTime: Timestamp? = nil) {
      self.key = key
      self.value = value
      self.lastModificationTime = lastModificationTime
      self.layout = XMLLayout()
    }
  }

  /// The items in order.
  public var items: [Item]
  /// Unknown children of the `CustomData` element, and the read order.
  package var layout: XMLLayout

  public init(items: [Item] = []) {
    self.items = items
    self.layout = XMLLayout()
  }

  /// The value for `key`.
  public subscript(key: String) -> String? {
    items.first { $0.key == key }?.value
  }

  public var isEmpty: Bool { items.isEmpty }
}
