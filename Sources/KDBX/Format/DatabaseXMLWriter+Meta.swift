import KDBXBase
import KDBXXML

extension DatabaseXMLWalk {
  func meta<Sink: DatabaseXMLSink>(_ meta: Meta, binaries: BinaryPool, into sink: inout Sink) {
    let layout = meta.layout
    container(XMLNames.meta, layout, .meta, parent: Self.noParent, into: &sink) { name, sink in
      func text(_ value: String?) {
        if let value { self.leaf(name, value, parent: layout, into: &sink) }
      }
      func time(_ value: Timestamp?) { text(value.map { self.time($0) }) }
      func uuid(_ value: KDBXUUID?) { text(value?.base64) }
      func integer(_ value: Int64?) { text(value.map { self.integer($0) }) }
      func bool(_ value: Bool?) { text(value.map { self.bool($0) }) }
      switch name {
      case XMLNames.generator: text(meta.generator)
      case XMLNames.headerHash: if !self.version.isKDBX4 { text(meta.headerHash.map { Base64.encode($0) }) }
      case XMLNames.settingsChanged: time(meta.settingsChanged)
      case XMLNames.databaseName: text(meta.databaseName)
      case XMLNames.databaseNameChanged: time(meta.databaseNameChanged)
      case XMLNames.databaseDescription: text(meta.databaseDescription)
      case XMLNames.databaseDescriptionChanged: time(meta.databaseDescriptionChanged)
      case XMLNames.defaultUserName: text(meta.defaultUserName)
      case XMLNames.defaultUserNameChanged: time(meta.defaultUserNameChanged)
      case XMLNames.maintenanceHistoryDays: integer(meta.maintenanceHistoryDays)
      case XMLNames.color: text(meta.color)
      case XMLNames.masterKeyChanged: time(meta.masterKeyChanged)
      case XMLNames.masterKeyChangeRec: integer(meta.masterKeyChangeRec)
      case XMLNames.masterKeyChangeForce: integer(meta.masterKeyChangeForce)
      case XMLNames.masterKeyChangeForceOnce: bool(meta.masterKeyChangeForceOnce)
      case XMLNames.memoryProtection:
        if let protection = meta.memoryProtection { self.memoryProtection(protection, parent: layout, into: &sink) }
      case XMLNames.customIcons:
        guard let icons = meta.customIcons else { return }
        self.list(XMLNames.customIcons, meta.customIconsLayout, parent: layout, into: &sink) { sink in
          for icon in icons { self.customIcon(icon, into: &sink) }
        }
      case XMLNames.recycleBinEnabled: bool(meta.recycleBinEnabled)
      case XMLNames.recycleBinUUID: uuid(meta.recycleBinUUID)
      case XMLNames.recycleBinChanged: time(meta.recycleBinChanged)
      case XMLNames.entryTemplatesGroup: uuid(meta.entryTemplatesGroup)
      case XMLNames.entryTemplatesGroupChanged: time(meta.entryTemplatesGroupChanged)
      case XMLNames.historyMaxItems: integer(meta.historyMaxItems)
      case XMLNames.historyMaxSize: integer(meta.historyMaxSize)
      case XMLNames.lastSelectedGroup: uuid(meta.lastSelectedGroup)
      case XMLNames.lastTopVisibleGroup: uuid(meta.lastTopVisibleGroup)
      case XMLNames.binaries:
        // KDBX 3.x: always, empty too, as KeePass writes it (`KdbxFile.WriteBinPool`); pykeepass cannot add an
        // attachment to a 3.1 file without it.
        guard !self.version.isKDBX4 else { return }
        self.metaBinaries(binaries, parent: layout, into: &sink)
      case XMLNames.customData:
        if let data = meta.customData { self.customData(data, parent: layout, into: &sink) }
      default: return
      }
    }
  }

  func memoryProtection<Sink: DatabaseXMLSink>(
    _ protection: MemoryProtection, parent: XMLLayout, into sink: inout Sink
  ) {
    let layout = protection.layout
    container(XMLNames.memoryProtection, layout, .memoryProtection, parent: parent, into: &sink) {
      name, sink in
      let value: Bool?
      switch name {
      case XMLNames.protectTitle: value = protection.protectTitle
      case XMLNames.protectUserName: value = protection.protectUserName
      case XMLNames.protectPassword: value = protection.protectPassword
      case XMLNames.protectURL: value = protection.protectURL
      default: value = protection.protectNotes
      }
      if let value { self.leaf(name, self.bool(value), parent: layout, into: &sink) }
    }
  }

  func customIcon<Sink: DatabaseXMLSink>(_ icon: CustomIcon, into sink: inout Sink) {
    let layout = icon.layout
    container(XMLNames.icon, layout, .customIcon, parent: Self.noParent, into: &sink) { name, sink in
      switch name {
      case XMLNames.uuid: self.leaf(name, icon.uuid.base64, parent: layout, into: &sink)
      case XMLNames.data: self.leaf(name, Base64.encode(icon.data), parent: layout, into: &sink)
      case XMLNames.name:
        guard self.version >= .v4_1, let iconName = icon.name else { return }
        self.leaf(name, iconName, parent: layout, into: &sink)
      default:
        guard self.version >= .v4_1, let time = icon.lastModificationTime else { return }
        self.leaf(name, self.time(time), parent: layout, into: &sink)
      }
    }
  }

  /// KDBX 3.x `Meta/Binaries`: pool index as ID, protected binaries through the inner random stream.
  func metaBinaries<Sink: DatabaseXMLSink>(_ binaries: BinaryPool, parent: XMLLayout, into sink: inout Sink) {
    sink.startElement(XMLNames.binaries, attributes: restored([], XMLNames.binaries, parent), containsText: false)
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
      leaf(XMLNames.binary, text, attributes: attributes, parent: Self.noParent, into: &sink)
    }
    sink.endElement()
  }
}
