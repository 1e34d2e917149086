/// Every element and attribute name of the KeePass database XML, defined once (KeePass 2.x `KdbxFile` names, as
/// listed in the KDBX 4.1 specification, "XML").
public enum XMLNames {
  // Document structure.
  public static let keePassFile = "KeePassFile"
  public static let meta = "Meta"
  public static let root = "Root"
  public static let group = "Group"
  public static let entry = "Entry"
  public static let deletedObjects = "DeletedObjects"
  public static let deletedObject = "DeletedObject"
  public static let history = "History"

  // Meta.
  public static let generator = "Generator"
  public static let headerHash = "HeaderHash"
  public static let settingsChanged = "SettingsChanged"
  public static let databaseName = "DatabaseName"
  public static let databaseNameChanged = "DatabaseNameChanged"
  public static let databaseDescription = "DatabaseDescription"
  public static let databaseDescriptionChanged = "DatabaseDescriptionChanged"
  public static let defaultUserName = "DefaultUserName"
  public static let defaultUserNameChanged = "DefaultUserNameChanged"
  public static let maintenanceHistoryDays = "MaintenanceHistoryDays"
  public static let color = "Color"
  public static let masterKeyChanged = "MasterKeyChanged"
  public static let masterKeyChangeRec = "MasterKeyChangeRec"
  public static let masterKeyChangeForce = "MasterKeyChangeForce"
  public static let masterKeyChangeForceOnce = "MasterKeyChangeForceOnce"
  public static let memoryProtection = "MemoryProtection"
  public static let protectTitle = "ProtectTitle"
  public static let protectUserName = "ProtectUserName"
  public static let protectPassword = "ProtectPassword"
  public static let protectURL = "ProtectURL"
  public static let protectNotes = "ProtectNotes"
  public static let customIcons = "CustomIcons"
  public static let icon = "Icon"
  public static let data = "Data"
  public static let name = "Name"
  public static let recycleBinEnabled = "RecycleBinEnabled"
  public static let recycleBinUUID = "RecycleBinUUID"
  public static let recycleBinChanged = "RecycleBinChanged"
  public static let entryTemplatesGroup = "EntryTemplatesGroup"
  public static let entryTemplatesGroupChanged = "EntryTemplatesGroupChanged"
  public static let historyMaxItems = "HistoryMaxItems"
  public static let historyMaxSize = "HistoryMaxSize"
  public static let lastSelectedGroup = "LastSelectedGroup"
  public static let lastTopVisibleGroup = "LastTopVisibleGroup"
  public static let binaries = "Binaries"
  public static let binary = "Binary"
  public static let customData = "CustomData"
  public static let item = "Item"
  public static let key = "Key"
  public static let value = "Value"

  // Groups and entries.
  public static let uuid = "UUID"
  public static let notes = "Notes"
  public static let iconID = "IconID"
  public static let customIconUUID = "CustomIconUUID"
  public static let times = "Times"
  public static let isExpanded = "IsExpanded"
  public static let defaultAutoTypeSequence = "DefaultAutoTypeSequence"
  public static let enableAutoType = "EnableAutoType"
  public static let enableSearching = "EnableSearching"
  public static let lastTopVisibleEntry = "LastTopVisibleEntry"
  public static let previousParentGroup = "PreviousParentGroup"
  public static let tags = "Tags"
  public static let foregroundColor = "ForegroundColor"
  public static let backgroundColor = "BackgroundColor"
  public static let overrideURL = "OverrideURL"
  public static let qualityCheck = "QualityCheck"
  public static let string = "String"
  public static let autoType = "AutoType"
  public static let enabled = "Enabled"
  public static let dataTransferObfuscation = "DataTransferObfuscation"
  public static let defaultSequence = "DefaultSequence"
  public static let association = "Association"
  public static let window = "Window"
  public static let keystrokeSequence = "KeystrokeSequence"

  // Times.
  public static let creationTime = "CreationTime"
  public static let lastModificationTime = "LastModificationTime"
  public static let lastAccessTime = "LastAccessTime"
  public static let expiryTime = "ExpiryTime"
  public static let expires = "Expires"
  public static let usageCount = "UsageCount"
  public static let locationChanged = "LocationChanged"
  public static let deletionTime = "DeletionTime"

  // Attributes.
  public static let protected = "Protected"
  public static let protectInMemory = "ProtectInMemory"
  /// The spelling of ``protectInMemory`` in this library's XML exports before 2026, still read.
  public static let protectedInMemory = "ProtectedInMemory"
  public static let ref = "Ref"
  public static let id = "ID"
  public static let compressed = "Compressed"

  // Values.
  public static let trueValue = "True"
  public static let falseValue = "False"
  public static let nullValue = "null"

  /// Every element name above, in a fixed order: an ``XMLLayout`` records a known child by its index here (one
  /// byte). Append only: the indices are part of the in-memory layout form, not of any file.
  static let layoutNames: [String] = [
    keePassFile, meta, root, group, entry, deletedObjects, deletedObject, history, generator, headerHash,
    settingsChanged, databaseName, databaseNameChanged, databaseDescription, databaseDescriptionChanged,
    defaultUserName, defaultUserNameChanged, maintenanceHistoryDays, color, masterKeyChanged, masterKeyChangeRec,
    masterKeyChangeForce, masterKeyChangeForceOnce, memoryProtection, protectTitle, protectUserName,
    protectPassword, protectURL, protectNotes, customIcons, icon, data, name, recycleBinEnabled, recycleBinUUID,
    recycleBinChanged, entryTemplatesGroup, entryTemplatesGroupChanged, historyMaxItems, historyMaxSize,
    lastSelectedGroup, lastTopVisibleGroup, binaries, binary, customData, item, key, value, uuid, notes, iconID,
    customIconUUID, times, isExpanded, defaultAutoTypeSequence, enableAutoType, enableSearching,
    lastTopVisibleEntry, previousParentGroup, tags, foregroundColor, backgroundColor, overrideURL, qualityCheck,
    string, autoType, enabled, dataTransferObfuscation, defaultSequence, association, window, keystrokeSequence,
    creationTime, lastModificationTime, lastAccessTime, expiryTime, expires, usageCount, locationChanged,
    deletionTime,
  ]

  /// The index of `name` in ``layoutNames``.
  static func layoutID(_ name: String) -> UInt8? {
    KnownElementTable.shared.element(name)?.rawValue
  }
}

/// The element names of the KeePass database XML as small integers: their index in ``XMLNames/layoutNames``
/// (same order), so that the reader dispatches on an integer instead of comparing strings.
enum KnownElement: UInt8, CaseIterable {
  case keePassFile, meta, root, group, entry, deletedObjects, deletedObject, history, generator, headerHash
  case settingsChanged, databaseName, databaseNameChanged, databaseDescription, databaseDescriptionChanged
  case defaultUserName, defaultUserNameChanged, maintenanceHistoryDays, color, masterKeyChanged, masterKeyChangeRec
  case masterKeyChangeForce, masterKeyChangeForceOnce, memoryProtection, protectTitle, protectUserName
  case protectPassword, protectURL, protectNotes, customIcons, icon, data, name, recycleBinEnabled, recycleBinUUID
  case recycleBinChanged, entryTemplatesGroup, entryTemplatesGroupChanged, historyMaxItems, historyMaxSize
  case lastSelectedGroup, lastTopVisibleGroup, binaries, binary, customData, item, key, value, uuid, notes, iconID
  case customIconUUID, times, isExpanded, defaultAutoTypeSequence, enableAutoType, enableSearching
  case lastTopVisibleEntry, previousParentGroup, tags, foregroundColor, backgroundColor, overrideURL, qualityCheck
  case string, autoType, enabled, dataTransferObfuscation, defaultSequence, association, window, keystrokeSequence
  case creationTime, lastModificationTime, lastAccessTime, expiryTime, expires, usageCount, locationChanged
  case deletionTime
}

/// Finds the ``KnownElement`` of a name: an open-addressing table keyed by the name's length and first two bytes, checked with one string comparison (equal short names compare as two words).
struct KnownElementTable: Sendable {
  static let shared = KnownElementTable()

  private static let slotCount = 256
  /// Element raw value per slot; `0xFF` for an empty slot.
  private let slots: [UInt8]
  /// The signature (length, first byte, last byte) of each element.
  private let signatures: [UInt32]
  let names: [String]

  private init() {
    names = XMLNames.layoutNames
    var slots = [UInt8](repeating: 0xFF, count: Self.slotCount)
    var signatures: [UInt32] = []
    for (index, name) in names.enumerated() {
      let signature = Self.signature(name) ?? 0
      signatures.append(signature)
      var slot = Self.slot(signature)
      while slots[slot] != 0xFF { slot = (slot + 1) & (Self.slotCount - 1) }
      slots[slot] = UInt8(truncatingIfNeeded: index)
    }
    self.slots = slots
    self.signatures = signatures
  }

  /// The name's length and first two bytes (cheap to read from a short string, unlike the last byte).
  private static func signature(_ name: String) -> UInt32? {
    let utf8 = name.utf8
    let count = utf8.count
    guard count >= 2, count < 256 else { return nil }
    var bytes = utf8.makeIterator()
    guard let first = bytes.next(), let second = bytes.next() else { return nil }
    return UInt32(count) << 16 | UInt32(first) << 8 | UInt32(second)
  }

  private static func slot(_ signature: UInt32) -> Int {
    Int(truncatingIfNeeded: (signature &* 2_654_435_761) >> 24) & (slotCount - 1)
  }

  /// The known element named `name`, or `nil`.
  func element(_ name: String) -> KnownElement? {
    guard let signature = Self.signature(name) else { return nil }
    var slot = Self.slot(signature)
    while true {
      let index = slots[slot]
      if index == 0xFF { return nil }
      if signatures[Int(index)] == signature && names[Int(index)] == name { return KnownElement(rawValue: index) }
      slot = (slot + 1) & (Self.slotCount - 1)
    }
  }
}
