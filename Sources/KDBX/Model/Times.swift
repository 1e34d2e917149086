/// The `Times` element of a group or entry (KDBX 4.1 specification, "XML"). A field missing from the file stays
/// `nil` and is not written back.
///
/// ```swift
/// if let modified = entry.times?.lastModificationTime {
///   let date = modified.civil
///   show("Modified", "\(date.year)-\(date.month)-\(date.day)")
/// }
/// ```
public struct Times: Sendable, Equatable {
  public var creationTime: Timestamp?
  public var lastModificationTime: Timestamp?
  public var lastAccessTime: Timestamp?
  public var expiryTime: Timestamp?
  /// Whether ``expiryTime`` applies.
  public var expires: Bool?
  public var usageCount: Int64?
  /// When the object last moved to another group.
  public var locationChanged: Timestamp?
  /// Unknown children and the read order.
  package var layout: XMLLayout

  public init(
    creationTime: Timestamp? = nil, lastModificationTime: Timestamp? = nil, lastAccessTime: Timestamp? = nil,
    expiryTime: Timestamp? = nil, expires: Bool? = nil, usageCount: Int64? = nil, locationChanged: Timestamp? = nil
  ) {
    self.creationTime = creationTime
    self.lastModificationTime = lastModificationTime
    self.lastAccessTime = lastAccessTime
    self.expiryTime = expiryTime
    self.expires = expires
    self.usageCount = usageCount
    self.locationChanged = locationChanged
    self.layout = XMLLayout()
  }

  /// All times set to `time`, not expiring, used 0 times: what KeePass gives a new object.
  package static func created(at time: Timestamp) -> Times {
    Times(
      creationTime: time, lastModificationTime: time, lastAccessTime: time, expiryTime: time, expires: false,
      usageCount: 0, locationChanged: time)
  }

  /// KeePass's element order.
  static let canonicalOrder = [
    XMLNames.creationTime, XMLNames.lastModificationTime, XMLNames.lastAccessTime, XMLNames.expiryTime,
    XMLNames.expires, XMLNames.usageCount, XMLNames.locationChanged,
  ]
}
