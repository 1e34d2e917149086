/// A KeePass database: metadata, the root group tree, deleted-object records and the shared attachment pool.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// var database = Database.new(name: "Personal", clock: clock, random: &random)
/// var entry = Entry.new(clock: clock, random: &random)
/// entry.title = "Mail"
/// entry.password = ProtectedValue(password)
/// if let root = database.root?.uuid { database.addEntry(entry, to: root) }
/// ```
public struct Database: Sendable, Equatable {
  public var meta: Meta
  /// The root group. `nil` only for a document without `Root/Group`.
  public var root: Group?
  /// `nil` when the file had no `DeletedObjects` element.
  package var deletedObjects: [DeletedObject]?
  package var deletedObjectsLayout: XMLLayout
  /// Attachment contents, referenced by ``Attachment/binaryIndex``.
  package var binaries: BinaryPool
  /// Unknown children of `KeePassFile` and the read order.
  package var documentLayout: XMLLayout
  /// Unknown children of `Root` and the read order.
  package var rootLayout: XMLLayout
  /// What was left out when the database was opened (``LoadOptions/loadsAttachmentContents``,
  /// ``LoadOptions/loadsHistory``); a save is refused unless it is empty.
  public internal(set) var omittedOnLoad: LoadOmissions = []
  /// The size of the XML document the database was read from: the room a save reserves for the document it
  /// writes. Not part of the content (every hint is equal).
  package var documentSize = DocumentSizeHint()

  package init(meta: Meta = Meta(), root: Group?) {
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

/// Content a database was opened without (see ``LoadOptions``).
///
/// ```swift
/// if database.omittedOnLoad.contains(.attachmentContents) {
///   show("Attachments", "Not loaded in this extension")
/// }
/// let canSave = database.omittedOnLoad.isEmpty  // a save is refused otherwise
/// ```
public struct LoadOmissions: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Attachment contents (size and hash kept).
  public static let attachmentContents = LoadOmissions(rawValue: 1 << 0)
  /// Entry histories.
  public static let history = LoadOmissions(rawValue: 1 << 1)
}
