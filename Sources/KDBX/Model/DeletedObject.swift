/// A record that an object was deleted, so that synchronisation does not bring it back (`DeletedObjects/
/// DeletedObject`).
public struct DeletedObject: Sendable, Equatable {
  public var uuid: KDBXUUID
  public var deletionTime: Timestamp?
  /// Unknown children and the read order.
  package var layout: XMLLayout

  public init(uuid: KDBXUUID, deletionTime: Timestamp?) {
    self.uuid = uuid
    self.deletionTime = deletionTime
    self.layout = XMLLayout()
  }
}
