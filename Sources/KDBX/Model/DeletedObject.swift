/// A record that an object was deleted, so that synchronisation does not bring it back (`DeletedObjects/
/// DeletedObject`).
package struct DeletedObject: Sendable, Equatable {
  package var uuid: KDBXUUID
  package var deletionTime: Timestamp?
  /// Unknown children and the read order.
  package var layout: XMLLayout

  package init(uuid: KDBXUUID, deletionTime: Timestamp?) {
    self.uuid = uuid
    self.deletionTime = deletionTime
    self.layout = XMLLayout()
  }
}
