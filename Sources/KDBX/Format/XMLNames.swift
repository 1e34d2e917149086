/// Every element and attribute name of the KeePass database XML, defined once (KeePass 2.x `KdbxFile` names, as
/// listed in the KDBX 4.1 specification, "XML").
package enum XMLNames {
  // Document structure.
  package static let keePassFile = "KeePassFile"
  package static let meta = "Meta"
  package static let root = "Root"
  package static let group = "Group"
  package static let entry = "Entry"
  package static let deletedObjects = "DeletedObjects"
  package static let deletedObject = "DeletedObject"
  package static let history = "History"

  // Meta.
  package static let generator = "Generator"
  package static let headerHash = "HeaderHash"
  package static let settingsChanged = "SettingsChanged"
  package static let databaseName = "DatabaseName"
  package static let databaseNameChanged = "DatabaseNameChanged"
  package static let databaseDescription = "DatabaseDescription"
  package static let databaseDescriptionChanged = "DatabaseDescriptionChanged"
  package static let defaultUserName = "DefaultUserName"
  package static let defaultUserNameChanged = "DefaultUserNameChanged"
  package static let maintenanceHistoryDays = "MaintenanceHistoryDays"
  package static let color = "Color"
  package static let masterKeyChanged = "MasterKeyChanged"
  package static let masterKeyChangeRec = "MasterKeyChangeRec"
  package static let masterKeyChangeForce = "MasterKeyChangeForce"
  package static let masterKeyChangeForceOnce = "MasterKeyChangeForceOnce"
  package static let memoryProtection = "MemoryProtection"
  package static let protectTitle = "ProtectTitle"
  package static let protectUserName = "ProtectUserName"
  package static let protectPassword = "ProtectPassword"
  package static let protectURL = "ProtectURL"
  package static let protectNotes = "ProtectNotes"
  package static let customIcons = "CustomIcons"
  package static let icon = "Icon"
  package static let data = "Data"
  package static let name = "Name"
  package static let recycleBinEnabled = "RecycleBinEnabled"
  package static let recycleBinUUID = "RecycleBinUUID"
  package static let recycleBinChanged = "RecycleBinChanged"
  package static let entryTemplatesGroup = "EntryTemplatesGroup"
  package static let entryTemplatesGroupChanged = "EntryTemplatesGroupChanged"
  package static let historyMaxItems = "HistoryMaxItems"
  package static let historyMaxSize = "HistoryMaxSize"
  package static let lastSelectedGroup = "LastSelectedGroup"
  package static let lastTopVisibleGroup = "LastTopVisibleGroup"
  package static let binaries = "Binaries"
  package static let binary = "Binary"
  package static let customData = "CustomData"
  package static let item = "Item"
  package static let key = "Key"
  package static let value = "Value"

  // Groups and entries.
  package static let uuid = "UUID"
  package static let notes = "Notes"
  package static let iconID = "IconID"
  package static let customIconUUID = "CustomIconUUID"
  package static let times = "Times"
  package static let isExpanded = "IsExpanded"
  package static let defaultAutoTypeSequence = "DefaultAutoTypeSequence"
  package static let enableAutoType = "EnableAutoType"
  package static let enableSearching = "EnableSearching"
  package static let lastTopVisibleEntry = "LastTopVisibleEntry"
  package static let previousParentGroup = "PreviousParentGroup"
  package static let tags = "Tags"
  package static let foregroundColor = "ForegroundColor"
  package static let backgroundColor = "BackgroundColor"
  package static let overrideURL = "OverrideURL"
  package static let qualityCheck = "QualityCheck"
  package static let string = "String"
  package static let autoType = "AutoType"
  package static let enabled = "Enabled"
  package static let dataTransferObfuscation = "DataTransferObfuscation"
  package static let defaultSequence = "DefaultSequence"
  package static let association = "Association"
  package static let window = "Window"
  package static let keystrokeSequence = "KeystrokeSequence"

  // Times.
  package static let creationTime = "CreationTime"
  package static let lastModificationTime = "LastModificationTime"
  package static let lastAccessTime = "LastAccessTime"
  package static let expiryTime = "ExpiryTime"
  package static let expires = "Expires"
  package static let usageCount = "UsageCount"
  package static let locationChanged = "LocationChanged"
  package static let deletionTime = "DeletionTime"

  // Attributes.
  package static let protected = "Protected"
  package static let protectInMemory = "ProtectInMemory"
  /// The spelling of ``protectInMemory`` in this library's XML exports before 2026, still read.
  package static let protectedInMemory = "ProtectedInMemory"
  package static let ref = "Ref"
  package static let id = "ID"
  package static let compressed = "Compressed"

  // Values.
  package static let trueValue = "True"
  package static let falseValue = "False"
  package static let nullValue = "null"

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
