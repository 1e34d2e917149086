import KDBXXML

extension DatabaseXMLWriter {
  mutating func meta(_ meta: Meta, binaries: BinaryPool) -> XMLElement {
    let children = orderedMutating(meta.layout, Meta.canonicalOrder) { name, writer in
      func text(_ value: String?) -> [XMLElement] { value.map { [writer.leaf(name, $0)] } ?? [] }
      func time(_ value: Timestamp?) -> [XMLElement] { value.map { [writer.leaf(name, writer.time($0))] } ?? [] }
      func uuid(_ value: KDBXUUID?) -> [XMLElement] { value.map { [writer.leaf(name, $0.base64)] } ?? [] }
      func integer(_ value: Int64?) -> [XMLElement] { value.map { [writer.leaf(name, writer.integer($0))] } ?? [] }
      func bool(_ value: Bool?) -> [XMLElement] { value.map { [writer.leaf(name, writer.bool($0))] } ?? [] }
      switch name {
      case XMLNames.generator: return text(meta.generator)
      case XMLNames.headerHash:
        guard !writer.version.isKDBX4 else { return [] }
        return text(meta.headerHash.map { Base64.encode($0) })
      case XMLNames.settingsChanged: return time(meta.settingsChanged)
      case XMLNames.databaseName: return text(meta.databaseName)
      case XMLNames.databaseNameChanged: return time(meta.databaseNameChanged)
      case XMLNames.databaseDescription: return text(meta.databaseDescription)
      case XMLNames.databaseDescriptionChanged: return time(meta.databaseDescriptionChanged)
      case XMLNames.defaultUserName: return text(meta.defaultUserName)
      case XMLNames.defaultUserNameChanged: return time(meta.defaultUserNameChanged)
      case XMLNames.maintenanceHistoryDays: return integer(meta.maintenanceHistoryDays)
      case XMLNames.color: return text(meta.color)
      case XMLNames.masterKeyChanged: return time(meta.masterKeyChanged)
      case XMLNames.masterKeyChangeRec: return integer(meta.masterKeyChangeRec)
      case XMLNames.masterKeyChangeForce: return integer(meta.masterKeyChangeForce)
      case XMLNames.masterKeyChangeForceOnce: return bool(meta.masterKeyChangeForceOnce)
      case XMLNames.memoryProtection:
        guard let protection = meta.memoryProtection else { return [] }
        return [writer.memoryProtection(protection)]
      case XMLNames.customIcons:
        guard let icons = meta.customIcons else { return [] }
        return [writer.list(XMLNames.customIcons, icons.map { writer.customIcon($0) }, layout: meta.customIconsLayout)]
      case XMLNames.recycleBinEnabled: return bool(meta.recycleBinEnabled)
      case XMLNames.recycleBinUUID: return uuid(meta.recycleBinUUID)
      case XMLNames.recycleBinChanged: return time(meta.recycleBinChanged)
      case XMLNames.entryTemplatesGroup: return uuid(meta.entryTemplatesGroup)
      case XMLNames.entryTemplatesGroupChanged: return time(meta.entryTemplatesGroupChanged)
      case XMLNames.historyMaxItems: return integer(meta.historyMaxItems)
      case XMLNames.historyMaxSize: return integer(meta.historyMaxSize)
      case XMLNames.lastSelectedGroup: return uuid(meta.lastSelectedGroup)
      case XMLNames.lastTopVisibleGroup: return uuid(meta.lastTopVisibleGroup)
      case XMLNames.binaries:
        guard !writer.version.isKDBX4, meta.hasBinariesElement || binaries.count > 0 else { return [] }
        return [writer.metaBinaries(binaries)]
      case XMLNames.customData: return meta.customData.map { [writer.customData($0)] } ?? []
      default: return []
      }
    }
    return XMLElement(name: XMLNames.meta, attributes: meta.layout.attributes, children: children)
  }

  func memoryProtection(_ protection: MemoryProtection) -> XMLElement {
    XMLElement(
      name: XMLNames.memoryProtection, attributes: protection.layout.attributes,
      children: ordered(protection.layout, MemoryProtection.canonicalOrder) { name in
        let value: Bool?
        switch name {
        case XMLNames.protectTitle: value = protection.protectTitle
        case XMLNames.protectUserName: value = protection.protectUserName
        case XMLNames.protectPassword: value = protection.protectPassword
        case XMLNames.protectURL: value = protection.protectURL
        default: value = protection.protectNotes
        }
        return value.map { [leaf(name, bool($0))] } ?? []
      })
  }

  func customIcon(_ icon: CustomIcon) -> XMLElement {
    XMLElement(
      name: XMLNames.icon, attributes: icon.layout.attributes,
      children: ordered(icon.layout, [XMLNames.uuid, XMLNames.data, XMLNames.name, XMLNames.lastModificationTime]) {
        name in
        switch name {
        case XMLNames.uuid: return [leaf(name, icon.uuid.base64)]
        case XMLNames.data: return [leaf(name, Base64.encode(icon.data))]
        case XMLNames.name:
          guard version >= .v4_1 else { return [] }
          return icon.name.map { [leaf(name, $0)] } ?? []
        default:
          guard version >= .v4_1 else { return [] }
          return icon.lastModificationTime.map { [leaf(name, time($0))] } ?? []
        }
      })
  }

  /// KDBX 3.x `Meta/Binaries`: pool index as ID, protected binaries through the inner random stream.
  mutating func metaBinaries(_ binaries: BinaryPool) -> XMLElement {
    var children: [XMLNode] = []
    for index in 0..<binaries.count {
      guard let binary = binaries[index] else { continue }
      var attributes = [XMLAttribute(name: XMLNames.id, value: "\(index)")]
      let text: String
      if binary.isProtected {
        attributes.append(XMLAttribute(name: XMLNames.protected, value: XMLNames.trueValue))
        text = protect(binary.data)
      } else {
        text = Base64.encode(binary.data)
      }
      children.append(.element(leaf(XMLNames.binary, text, attributes: attributes)))
    }
    return XMLElement(name: XMLNames.binaries, children: children)
  }
}
