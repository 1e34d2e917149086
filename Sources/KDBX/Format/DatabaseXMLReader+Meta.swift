import KDBXXML

extension DatabaseXMLReader {
  mutating func readMeta(_ element: XMLElement) throws(KDBXError) -> Meta {
    var meta = Meta()
    meta.layout = try forEachChild(of: element) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.generator: meta.generator = reader.text(child)
      case XMLNames.headerHash: meta.headerHash = try reader.base64(child)
      case XMLNames.settingsChanged: meta.settingsChanged = try reader.time(child)
      case XMLNames.databaseName: meta.databaseName = reader.text(child)
      case XMLNames.databaseNameChanged: meta.databaseNameChanged = try reader.time(child)
      case XMLNames.databaseDescription: meta.databaseDescription = reader.text(child)
      case XMLNames.databaseDescriptionChanged: meta.databaseDescriptionChanged = try reader.time(child)
      case XMLNames.defaultUserName: meta.defaultUserName = reader.text(child)
      case XMLNames.defaultUserNameChanged: meta.defaultUserNameChanged = try reader.time(child)
      case XMLNames.maintenanceHistoryDays: meta.maintenanceHistoryDays = try reader.integer(child)
      case XMLNames.color: meta.color = reader.text(child)
      case XMLNames.masterKeyChanged: meta.masterKeyChanged = try reader.time(child)
      case XMLNames.masterKeyChangeRec: meta.masterKeyChangeRec = try reader.integer(child)
      case XMLNames.masterKeyChangeForce: meta.masterKeyChangeForce = try reader.integer(child)
      case XMLNames.masterKeyChangeForceOnce: meta.masterKeyChangeForceOnce = try reader.bool(child)
      case XMLNames.memoryProtection: meta.memoryProtection = try reader.readMemoryProtection(child)
      case XMLNames.customIcons:
        var icons: [CustomIcon] = []
        meta.customIconsLayout = try reader.forEachChild(of: child) { (icon, reader) throws(KDBXError) in
          guard icon.name == XMLNames.icon else { return false }
          icons.append(try reader.readCustomIcon(icon))
          return true
        }
        meta.customIcons = icons
      case XMLNames.recycleBinEnabled: meta.recycleBinEnabled = try reader.bool(child)
      case XMLNames.recycleBinUUID: meta.recycleBinUUID = try reader.uuid(child)
      case XMLNames.recycleBinChanged: meta.recycleBinChanged = try reader.time(child)
      case XMLNames.entryTemplatesGroup: meta.entryTemplatesGroup = try reader.uuid(child)
      case XMLNames.entryTemplatesGroupChanged: meta.entryTemplatesGroupChanged = try reader.time(child)
      case XMLNames.historyMaxItems: meta.historyMaxItems = try reader.integer(child)
      case XMLNames.historyMaxSize: meta.historyMaxSize = try reader.integer(child)
      case XMLNames.lastSelectedGroup: meta.lastSelectedGroup = try reader.uuid(child)
      case XMLNames.lastTopVisibleGroup: meta.lastTopVisibleGroup = try reader.uuid(child)
      case XMLNames.binaries:
        meta.hasBinariesElement = true
        try reader.readMetaBinaries(child)
      case XMLNames.customData: meta.customData = try reader.readCustomData(child)
      default: return false
      }
      return true
    }
    return meta
  }

  mutating func readMemoryProtection(_ element: XMLElement) throws(KDBXError) -> MemoryProtection {
    var protection = MemoryProtection(
      protectTitle: nil, protectUserName: nil, protectPassword: nil, protectURL: nil, protectNotes: nil)
    protection.layout = try forEachChild(of: element, keepsKnownOrder: false) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.protectTitle: protection.protectTitle = try reader.bool(child)
      case XMLNames.protectUserName: protection.protectUserName = try reader.bool(child)
      case XMLNames.protectPassword: protection.protectPassword = try reader.bool(child)
      case XMLNames.protectURL: protection.protectURL = try reader.bool(child)
      case XMLNames.protectNotes: protection.protectNotes = try reader.bool(child)
      default: return false
      }
      return true
    }
    return protection
  }

  mutating func readCustomIcon(_ element: XMLElement) throws(KDBXError) -> CustomIcon {
    var icon = CustomIcon(uuid: .zero, data: [])
    icon.layout = try forEachChild(of: element, keepsKnownOrder: false) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.uuid: icon.uuid = try reader.uuid(child)
      case XMLNames.data: icon.data = try reader.base64(child)
      case XMLNames.name: icon.name = reader.text(child)
      case XMLNames.lastModificationTime: icon.lastModificationTime = try reader.time(child)
      default: return false
      }
      return true
    }
    return icon
  }

  /// KDBX 3.x `Meta/Binaries`: `Binary` elements with an `ID`, optionally `Compressed="True"` (gzip) and
  /// `Protected="True"` (inner random stream). They join the pool in file order.
  mutating func readMetaBinaries(_ element: XMLElement) throws(KDBXError) {
    // The compressed binaries together may not expand beyond the payload limit (not each one on its own).
    var decompressedTotal = 0
    for child in element.childElements where child.name == XMLNames.binary {
      guard let id = child.attribute(XMLNames.id) else {
        throw .malformedValue(element: "Meta/Binaries/Binary", reason: "missing ID")
      }
      let isProtected = isProtected(child)
      var data = isProtected ? try unprotect(child) : try base64(child)
      // An empty binary stays empty even when flagged compressed, as KeePass reads it (seen in pykeepass files).
      if child.attribute(XMLNames.compressed)?.lowercased() == "true" && !data.isEmpty {
        data = try gzip.decompressGzip(data, maxOutputByteCount: options.maxPayloadByteCount - decompressedTotal)
        decompressedTotal += data.count
      }
      binaryIDs.append((id, binaries.count))
      binaries.appendAsRead(.init(data: data, isProtected: isProtected))
    }
  }

  mutating func readCustomData(_ element: XMLElement) throws(KDBXError) -> CustomData {
    var data = CustomData()
    data.layout = try forEachChild(of: element) { (child, reader) throws(KDBXError) in
      guard child.name == XMLNames.item else { return false }
      var item = CustomData.Item(key: "", value: "")
      item.layout = try reader.forEachChild(of: child, keepsKnownOrder: false) { (field, reader) throws(KDBXError) in
        switch field.name {
        case XMLNames.key: item.key = reader.text(field)
        case XMLNames.value: item.value = reader.text(field)
        case XMLNames.lastModificationTime: item.lastModificationTime = try reader.time(field)
        default: return false
        }
        return true
      }
      data.items.append(item)
      return true
    }
    return data
  }
}
