/// A KeePass database: metadata, the root group tree, deleted-object records and the shared attachment pool.
public struct Database: Sendable, Equatable {
  public var meta: Meta
  /// The root group. `nil` only for a document without `Root/Group`.
  public var root: Group?
  /// `nil` when the file had no `DeletedObjects` element.
  public var deletedObjects: [DeletedObject]?
  public var deletedObjectsLayout: XMLLayout
  /// Attachment contents, referenced by ``Attachment/binaryIndex``.
  public var binaries: BinaryPool
  /// Unknown children of `KeePassFile` and the read order.
  public var documentLayout: XMLLayout
  /// Unknown children of `Root` and the read order.
  public var rootLayout: XMLLayout

  public init(meta: Meta = Meta(), root: Group?) {
    self.meta = meta
    self.root = root
    self.deletedObjectsLayout = XMLLayout()
    self.binaries = BinaryPool()
    self.documentLayout = XMLLayout()
    self.rootLayout = XMLLayout()
  }

  static let documentOrder = [XMLNames.meta, XMLNames.root]
  static let rootOrder = [XMLNames.group, XMLNames.deletedObjects]
}
