/// A group (`Root/Group` and its subgroups). Optional properties are `nil` when the element was absent.
///
/// ``name`` and ``notes`` are plain strings, empty when the file has none; the model keeps an absent element apart
/// from an empty one, so that a save writes back what was read.
///
/// ```swift
/// for group in database.root?.groups ?? [] where !database.isInRecycleBin(group: group.uuid) {
///   show(group.name, "\(group.entries.count) entries")
/// }
/// database.renameGroup(groupUUID, to: "Banking", clock: clock)
/// ```
public struct Group: Sendable, Equatable {
  public var uuid: KDBXUUID
  /// The `Name` element as stored: `nil` when absent. Apps use ``name``.
  package var nameText: String?
  /// The `Notes` element as stored: `nil` when absent. Apps use ``notes``.
  package var notesText: String?
  package var iconID: Int64?
  package var customIconUUID: KDBXUUID?
  public var times: Times?
  public var isExpanded: Bool?
  public var defaultAutoTypeSequence: String?
  /// `nil` inside means inherit (written `null`); the outer optional means absent.
  package var enableAutoType: Bool??
  /// `nil` inside means inherit (written `null`); the outer optional means absent.
  package var enableSearching: Bool??
  package var lastTopVisibleEntry: KDBXUUID?
  /// KDBX 4.1: the group this group was in before it was moved.
  public var previousParentGroup: KDBXUUID?
  /// KDBX 4.1: group tags.
  package var tagsText: String?
  package var customData: CustomData?
  /// The entries, in file order.
  public var entries: [Entry]
  /// The subgroups, in file order.
  public var groups: [Group]
  /// The interleaving of `Entry` and `Group` children as read (`true` = entry), so that writing keeps it.
  package var childOrder: [Bool]
  /// Unknown children and the read order.
  package var layout: XMLLayout

  package init(uuid: KDBXUUID, name: String?) {
    self.uuid = uuid
    self.nameText = name
    self.entries = []
    self.groups = []
    self.childOrder = []
    self.layout = XMLLayout()
  }

  /// KeePass's element order (entries before subgroups).
  static let canonicalOrder = [
    XMLNames.uuid, XMLNames.name, XMLNames.notes, XMLNames.iconID, XMLNames.customIconUUID, XMLNames.times,
    XMLNames.isExpanded, XMLNames.defaultAutoTypeSequence, XMLNames.enableAutoType, XMLNames.enableSearching,
    XMLNames.lastTopVisibleEntry, XMLNames.previousParentGroup, XMLNames.tags, XMLNames.customData, XMLNames.entry,
    XMLNames.group,
  ]
}
