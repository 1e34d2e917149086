import KDBXXML

extension DatabaseXMLReader {
  mutating func readGroup(_ element: XMLElement, depth: Int) throws(KDBXError) -> Group {
    guard depth <= options.maxXMLDepth else {
      throw .limitExceeded(
        what: "group nesting depth", value: UInt64(depth), limit: UInt64(clamping: options.maxXMLDepth))
    }
    var group = Group(uuid: .zero, name: nil)
    group.layout = try forEachChild(of: element) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.uuid: group.uuid = try reader.uuid(child)
      case XMLNames.name: group.name = reader.text(child)
      case XMLNames.notes: group.notes = reader.text(child)
      case XMLNames.iconID: group.iconID = try reader.integer(child)
      case XMLNames.customIconUUID: group.customIconUUID = try reader.uuid(child)
      case XMLNames.times: group.times = try reader.readTimes(child)
      case XMLNames.isExpanded: group.isExpanded = try reader.bool(child)
      case XMLNames.defaultAutoTypeSequence: group.defaultAutoTypeSequence = reader.text(child)
      case XMLNames.enableAutoType: group.enableAutoType = .some(try reader.nullableBool(child))
      case XMLNames.enableSearching: group.enableSearching = .some(try reader.nullableBool(child))
      case XMLNames.lastTopVisibleEntry: group.lastTopVisibleEntry = try reader.uuid(child)
      case XMLNames.previousParentGroup: group.previousParentGroup = try reader.uuid(child)
      case XMLNames.tags: group.tags = reader.text(child)
      case XMLNames.customData: group.customData = try reader.readCustomData(child)
      case XMLNames.entry:
        group.entries.append(try reader.readEntry(child, isHistory: false))
        group.childOrder.append(true)
      case XMLNames.group:
        group.groups.append(try reader.readGroup(child, depth: depth + 1))
        group.childOrder.append(false)
      default: return false
      }
      return true
    }
    return group
  }

  mutating func readTimes(_ element: XMLElement) throws(KDBXError) -> Times {
    var times = Times()
    times.layout = try forEachChild(of: element, keepsKnownOrder: false) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.creationTime: times.creationTime = try reader.time(child)
      case XMLNames.lastModificationTime: times.lastModificationTime = try reader.time(child)
      case XMLNames.lastAccessTime: times.lastAccessTime = try reader.time(child)
      case XMLNames.expiryTime: times.expiryTime = try reader.time(child)
      case XMLNames.expires: times.expires = try reader.bool(child)
      case XMLNames.usageCount: times.usageCount = try reader.integer(child)
      case XMLNames.locationChanged: times.locationChanged = try reader.time(child)
      default: return false
      }
      return true
    }
    return times
  }

  mutating func readEntry(_ element: XMLElement, isHistory: Bool) throws(KDBXError) -> Entry {
    var entry = Entry(uuid: .zero)
    entry.layout = try forEachChild(of: element) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.uuid: entry.uuid = try reader.uuid(child)
      case XMLNames.iconID: entry.iconID = try reader.integer(child)
      case XMLNames.customIconUUID: entry.customIconUUID = try reader.uuid(child)
      case XMLNames.foregroundColor: entry.foregroundColor = reader.text(child)
      case XMLNames.backgroundColor: entry.backgroundColor = reader.text(child)
      case XMLNames.overrideURL: entry.overrideURL = reader.text(child)
      case XMLNames.qualityCheck: entry.qualityCheck = try reader.bool(child)
      case XMLNames.tags: entry.tags = reader.text(child)
      case XMLNames.previousParentGroup: entry.previousParentGroup = try reader.uuid(child)
      case XMLNames.times: entry.times = try reader.readTimes(child)
      case XMLNames.customData: entry.customData = try reader.readCustomData(child)
      case XMLNames.string: entry.fields.append(try reader.readField(child))
      case XMLNames.binary: entry.attachments.append(try reader.readAttachment(child))
      case XMLNames.autoType: entry.autoType = try reader.readAutoType(child)
      case XMLNames.history:
        guard !isHistory else { return false }
        var history: [Entry] = []
        entry.historyLayout = try reader.forEachChild(of: child) { (item, reader) throws(KDBXError) in
          guard item.name == XMLNames.entry else { return false }
          history.append(try reader.readEntry(item, isHistory: true))
          return true
        }
        entry.history = history
      default: return false
      }
      return true
    }
    return entry
  }

  mutating func readField(_ element: XMLElement) throws(KDBXError) -> EntryField {
    guard element.child(XMLNames.key) != nil else {
      throw .malformedDocument(path: "Entry/String", reason: "missing Key")
    }
    var field = EntryField(key: "", value: .plain(""))
    field.layout = try forEachChild(of: element, keepsKnownOrder: false) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.key: field.key = reader.text(child)
      case XMLNames.value:
        if reader.isProtected(child) {
          field.value = .protected(ProtectedValue(bytes: try reader.unprotect(child), using: &reader.random))
        } else if child.attribute(XMLNames.protectInMemory)?.lowercased() == "true" {
          field.value = .protected(ProtectedValue(reader.text(child), using: &reader.random))
        } else {
          field.value = .plain(reader.text(child))
        }
        field.extraValueAttributes = child.attributes.filter {
          $0.name != XMLNames.protected && $0.name != XMLNames.protectInMemory
        }
      default: return false
      }
      return true
    }
    return field
  }

  mutating func readAttachment(_ element: XMLElement) throws(KDBXError) -> Attachment {
    guard element.child(XMLNames.key) != nil, element.child(XMLNames.value) != nil else {
      throw .malformedDocument(path: "Entry/Binary", reason: "missing Key or Value")
    }
    var attachment = Attachment(name: "", binaryIndex: 0)
    attachment.layout = try forEachChild(of: element, keepsKnownOrder: false) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.key: attachment.name = reader.text(child)
      case XMLNames.value:
        attachment.binaryIndex = try reader.binaryIndex(child)
        attachment.extraValueAttributes = child.attributes.filter { $0.name != XMLNames.ref }
      default: return false
      }
      return true
    }
    return attachment
  }

  /// The pool index a `Binary/Value` refers to (`Ref` = KDBX 4 pool position or KDBX 3 `Meta/Binaries` ID); an
  /// inline value (very old KeePass 2.x) is added to the pool.
  mutating func binaryIndex(_ value: XMLElement) throws(KDBXError) -> Int {
    guard let ref = value.attribute(XMLNames.ref) else {
      let data = isProtected(value) ? try unprotect(value) : try base64(value)
      return binaries.add(data)
    }
    if let mapped = binaryIDs.first(where: { $0.id == ref }) { return mapped.index }
    if let number = Int(ref), number >= 0, number < binaries.count { return number }
    throw .malformedValue(element: "Entry/Binary/Value", reason: "Ref \(ref) names no binary")
  }

  mutating func readAutoType(_ element: XMLElement) throws(KDBXError) -> AutoType {
    var autoType = AutoType()
    autoType.layout = try forEachChild(of: element) { (child, reader) throws(KDBXError) in
      switch child.name {
      case XMLNames.enabled: autoType.enabled = try reader.bool(child)
      case XMLNames.dataTransferObfuscation: autoType.dataTransferObfuscation = try reader.integer(child)
      case XMLNames.defaultSequence: autoType.defaultSequence = reader.text(child)
      case XMLNames.association:
        var association = AutoType.Association(window: "", keystrokeSequence: nil)
        association.layout = try reader.forEachChild(of: child, keepsKnownOrder: false) {
          (field, reader) throws(KDBXError) in
          switch field.name {
          case XMLNames.window: association.window = reader.text(field)
          case XMLNames.keystrokeSequence: association.keystrokeSequence = reader.text(field)
          default: return false
          }
          return true
        }
        autoType.associations.append(association)
      default: return false
      }
      return true
    }
    return autoType
  }
}
