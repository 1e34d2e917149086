/// Memory protection settings (`Meta/MemoryProtection`): which standard fields KeePass writes protected.
package struct MemoryProtection: Sendable, Equatable {
  package var protectTitle: Bool?
  package var protectUserName: Bool?
  package var protectPassword: Bool?
  package var protectURL: Bool?
  package var protectNotes: Bool?
  package var layout: XMLLayout

  public init(
    protectTitle: Bool? = false, protectUserName: Bool? = false, protectPassword: Bool? = true,
    protectURL: Bool? = false, protectNotes: Bool? = false
  ) {
    self.protectTitle = protectTitle
    self.protectUserName = protectUserName
    self.protectPassword = protectPassword
    self.protectURL = protectURL
    self.protectNotes = protectNotes
    self.layout = XMLLayout()
  }

  static let canonicalOrder = [
    XMLNames.protectTitle, XMLNames.protectUserName, XMLNames.protectPassword, XMLNames.protectURL,
    XMLNames.protectNotes,
  ]
}

extension Meta {
  /// The standard field names whose values a save writes protected (`Protected="True"`, encrypted with the inner
  /// random stream), from `memoryProtection`; an absent setting counts as KeePass's default (`ProtectPassword`
  /// true, the others false). Custom fields keep their own flag.
  package var protectedFieldKeys: [String] {
    let settings = memoryProtection ?? MemoryProtection()
    var keys: [String] = []
    if settings.protectTitle ?? false { keys.append(Entry.titleField) }
    if settings.protectUserName ?? false { keys.append(Entry.userNameField) }
    if settings.protectPassword ?? true { keys.append(Entry.passwordField) }
    if settings.protectURL ?? false { keys.append(Entry.urlField) }
    if settings.protectNotes ?? false { keys.append(Entry.notesField) }
    return keys
  }
}

/// A custom icon (`Meta/CustomIcons/Icon`): PNG data, and in KDBX 4.1 a name and modification time.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// let icon = CustomIcon(uuid: KDBXUUID.random(using: &random), data: pngBytes, name: "Bank")
/// database.meta.customIcons = (database.meta.customIcons ?? []) + [icon]
/// database.editEntry(entry.uuid, clock: clock) { $0.icon = .custom(icon.uuid) }
/// ```
public struct CustomIcon: Sendable, Equatable {
  public var uuid: KDBXUUID
  public var data: [UInt8]
  public var name: String?
  public var lastModificationTime: Timestamp?
  package var layout: XMLLayout

  public init(uuid: KDBXUUID, data: [UInt8], name: String? = nil, lastModificationTime: Timestamp? = nil) {
    self.uuid = uuid
    self.data = data
    self.name = name
    self.lastModificationTime = lastModificationTime
    self.layout = XMLLayout()
  }
}

/// Database metadata (`KeePassFile/Meta`). Every KeePass 2.x field is modelled; a field absent from the file is
/// `nil` and not written back, and unknown elements are kept in `layout`.
///
/// ```swift
/// show("Vault", database.meta.databaseName ?? "Untitled")
/// database.meta.historyMaxItems = 20  // versions kept per entry (KeePass's default is 10)
/// ```
public struct Meta: Sendable, Equatable {
  package var generator: String?
  /// KDBX 3.1: base64 SHA-256 of the outer header, checked on open.
  package var headerHash: [UInt8]?
  package var settingsChanged: Timestamp?
  public var databaseName: String?
  package var databaseNameChanged: Timestamp?
  public var databaseDescription: String?
  package var databaseDescriptionChanged: Timestamp?
  public var defaultUserName: String?
  package var defaultUserNameChanged: Timestamp?
  package var maintenanceHistoryDays: Int64?
  package var color: String?
  package var masterKeyChanged: Timestamp?
  package var masterKeyChangeRec: Int64?
  package var masterKeyChangeForce: Int64?
  package var masterKeyChangeForceOnce: Bool?
  package var memoryProtection: MemoryProtection?
  public var customIcons: [CustomIcon]?
  package var customIconsLayout: XMLLayout
  public var recycleBinEnabled: Bool?
  package var recycleBinUUID: KDBXUUID?
  package var recycleBinChanged: Timestamp?
  package var entryTemplatesGroup: KDBXUUID?
  package var entryTemplatesGroupChanged: Timestamp?
  public var historyMaxItems: Int64?
  public var historyMaxSize: Int64?
  package var lastSelectedGroup: KDBXUUID?
  package var lastTopVisibleGroup: KDBXUUID?
  /// KDBX 3.x: whether `Meta/Binaries` was present (its content lives in ``Database/binaries``).
  package var hasBinariesElement: Bool
  package var customData: CustomData?
  package var layout: XMLLayout

  package init() {
    customIconsLayout = XMLLayout()
    hasBinariesElement = false
    layout = XMLLayout()
  }

  static let canonicalOrder = [
    XMLNames.generator, XMLNames.headerHash, XMLNames.settingsChanged, XMLNames.databaseName,
    XMLNames.databaseNameChanged, XMLNames.databaseDescription, XMLNames.databaseDescriptionChanged,
    XMLNames.defaultUserName, XMLNames.defaultUserNameChanged, XMLNames.maintenanceHistoryDays, XMLNames.color,
    XMLNames.masterKeyChanged, XMLNames.masterKeyChangeRec, XMLNames.masterKeyChangeForce,
    XMLNames.masterKeyChangeForceOnce, XMLNames.memoryProtection, XMLNames.customIcons, XMLNames.recycleBinEnabled,
    XMLNames.recycleBinUUID, XMLNames.recycleBinChanged, XMLNames.entryTemplatesGroup,
    XMLNames.entryTemplatesGroupChanged, XMLNames.historyMaxItems, XMLNames.historyMaxSize,
    XMLNames.lastSelectedGroup, XMLNames.lastTopVisibleGroup, XMLNames.binaries, XMLNames.customData,
  ]
}
