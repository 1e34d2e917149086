import KDBXXML

extension DatabaseModelReader {
  mutating func readMeta(_ attributes: [XMLAttribute]) throws(KDBXError) -> Meta {
    var meta = Meta()
    meta.layout = try forEachChild(attributes: attributes, .meta) { (child, reader) throws(KDBXError) in
      switch child.known {
      case .generator?: meta.generator = try reader.text()
      case .headerHash?: meta.headerHash = try reader.base64(child.name)
      case .settingsChanged?: meta.settingsChanged = try reader.time(child.name)
      case .databaseName?: meta.databaseName = try reader.text()
      case .databaseNameChanged?: meta.databaseNameChanged = try reader.time(child.name)
      case .databaseDescription?: meta.databaseDescription = try reader.text()
      case .databaseDescriptionChanged?: meta.databaseDescriptionChanged = try reader.time(child.name)
      case .defaultUserName?: meta.defaultUserName = try reader.text()
      case .defaultUserNameChanged?: meta.defaultUserNameChanged = try reader.time(child.name)
      case .maintenanceHistoryDays?: meta.maintenanceHistoryDays = try reader.integer(child.name)
      case .color?: meta.color = try reader.text()
      case .masterKeyChanged?: meta.masterKeyChanged = try reader.time(child.name)
      case .masterKeyChangeRec?: meta.masterKeyChangeRec = try reader.integer(child.name)
      case .masterKeyChangeForce?: meta.masterKeyChangeForce = try reader.integer(child.name)
      case .masterKeyChangeForceOnce?: meta.masterKeyChangeForceOnce = try reader.bool(child.name)
      case .memoryProtection?: meta.memoryProtection = try reader.readMemoryProtection(child.attributes)
      case .customIcons?:
        var icons: [CustomIcon] = []
        meta.customIconsLayout = try reader.forEachChild(attributes: child.attributes, .customIcons) {
          (child, reader) throws(KDBXError) in
          guard child.known == .icon else { return false }
          try reader.charge(Self.elementCost(CustomIcon.self))
          icons.append(try reader.readCustomIcon(child.attributes))
          return true
        }
        meta.customIcons = icons
      case .recycleBinEnabled?: meta.recycleBinEnabled = try reader.bool(child.name)
      case .recycleBinUUID?: meta.recycleBinUUID = try reader.uuid(child.name)
      case .recycleBinChanged?: meta.recycleBinChanged = try reader.time(child.name)
      case .entryTemplatesGroup?: meta.entryTemplatesGroup = try reader.uuid(child.name)
      case .entryTemplatesGroupChanged?: meta.entryTemplatesGroupChanged = try reader.time(child.name)
      case .historyMaxItems?: meta.historyMaxItems = try reader.integer(child.name)
      case .historyMaxSize?: meta.historyMaxSize = try reader.integer(child.name)
      case .lastSelectedGroup?: meta.lastSelectedGroup = try reader.uuid(child.name)
      case .lastTopVisibleGroup?: meta.lastTopVisibleGroup = try reader.uuid(child.name)
      case .binaries?:
        meta.hasBinariesElement = true
        try reader.readMetaBinaries()
      case .customData?: meta.customData = try reader.readCustomData(child.attributes)
      default: return false
      }
      return true
    }
    return meta
  }

  mutating func readMemoryProtection(_ attributes: [XMLAttribute]) throws(KDBXError) -> MemoryProtection {
    var protection = MemoryProtection(
      protectTitle: nil, protectUserName: nil, protectPassword: nil, protectURL: nil, protectNotes: nil)
    protection.layout = try forEachChild(attributes: attributes, .memoryProtection, keepsKnownOrder: false) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .protectTitle?: protection.protectTitle = try reader.bool(child.name)
      case .protectUserName?: protection.protectUserName = try reader.bool(child.name)
      case .protectPassword?: protection.protectPassword = try reader.bool(child.name)
      case .protectURL?: protection.protectURL = try reader.bool(child.name)
      case .protectNotes?: protection.protectNotes = try reader.bool(child.name)
      default: return false
      }
      return true
    }
    return protection
  }

  mutating func readCustomIcon(_ attributes: [XMLAttribute]) throws(KDBXError) -> CustomIcon {
    var icon = CustomIcon(uuid: .zero, data: [])
    icon.layout = try forEachChild(attributes: attributes, .customIcon, keepsKnownOrder: false) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .uuid?: icon.uuid = try reader.uuid(child.name)
      case .data?: icon.data = try reader.base64(child.name)
      case .name?: icon.name = try reader.text()
      case .lastModificationTime?: icon.lastModificationTime = try reader.time(child.name)
      default: return false
      }
      return true
    }
    return icon
  }

  /// KDBX 3.x `Meta/Binaries`: `Binary` elements with an `ID`, optionally `Compressed="True"` (gzip) and
  /// `Protected="True"` (inner random stream). They join the pool in file order. Other children are skipped.
  mutating func readMetaBinaries() throws(KDBXError) {
    // The compressed binaries together may not expand beyond the payload limit (not each one on its own).
    var decompressedTotal = 0
    while true {
      switch try next() {
      case .startElement(let name, let attributes):
        guard name == XMLNames.binary else {
          try skipElement()
          continue
        }
        guard let id = Self.attribute(XMLNames.id, in: attributes) else {
          throw .malformedValue(element: "Meta/Binaries/Binary", reason: "missing ID")
        }
        let isProtected = Self.isProtected(attributes)
        var data = isProtected ? try unprotect(name) : try base64(name)
        // An empty binary stays empty even when flagged compressed, as KeePass reads it (seen in pykeepass files).
        if Self.attribute(XMLNames.compressed, in: attributes)?.lowercased() == "true" && !data.isEmpty {
          data = try decompress(data, options.maxPayloadByteCount - decompressedTotal)
          decompressedTotal += data.count
        }
        try charge(
          Self.elementCost(BinaryPool.Binary.self) + Self.elementCost((String, Int).self) + Self.stringCost(id))
        binaryIDs.append((id, binaries.count))
        binaries.appendAsRead(.init(data: data, isProtected: isProtected))
      case .endElement: return
      default: continue
      }
    }
  }

  mutating func readCustomData(_ attributes: [XMLAttribute]) throws(KDBXError) -> CustomData {
    var data = CustomData()
    data.layout = try forEachChild(attributes: attributes, .customData) { (child, reader) throws(KDBXError) in
      guard child.known == .item else { return false }
      try reader.charge(Self.elementCost(CustomData.Item.self))
      var item = CustomData.Item(key: "", value: "")
      item.layout = try reader.forEachChild(attributes: child.attributes, .customDataItem, keepsKnownOrder: false) {
        (child, reader) throws(KDBXError) in
        switch child.known {
        case .key?: item.key = try reader.text()
        case .value?: item.value = try reader.text()
        case .lastModificationTime?: item.lastModificationTime = try reader.time(child.name)
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
