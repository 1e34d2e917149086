import KDBXXML

extension DatabaseModelReader {
  /// Reads the group just started (at nesting `depth`, the root group being 1) with all its subgroups and
  /// entries. Nested groups are read with an explicit stack of the groups still open, not by recursion, so that
  /// the stack a document needs does not grow with its nesting (``LoadOptions/maxGroupDepth`` levels would
  /// otherwise take a few MiB of a thread's stack in a debug build, and overflow a 512 KiB one in release).
  mutating func readGroup(_ attributes: [XMLAttribute], depth: Int) throws(KDBXError) -> Group {
    guard depth <= options.maxGroupDepth else { throw Self.groupDepthExceeded(depth, options) }
    let top = XMLChild(name: XMLNames.group, known: .group, attributes: attributes)
    var open = [
      OpenGroup(
        group: Group(uuid: .zero, name: nil), children: try startChildren(attributes: attributes, .group),
        element: top, elementsBefore: elementCount)
    ]
    while open.count > 0 {
      let last = open.count - 1
      switch try nextChild(&open[last].children, keepsKnownOrder: true) {
      case .element(let child):
        let elementsBefore = elementCount
        if child.known == KnownElement.group {
          try charge(Self.elementCost(Group.self) + 2)
          let childDepth = depth + open.count
          guard childDepth <= options.maxGroupDepth else { throw Self.groupDepthExceeded(childDepth, options) }
          let children = try startChildren(attributes: child.attributes, .group)
          open.append(
            OpenGroup(
              group: Group(uuid: .zero, name: nil), children: children, element: child,
              elementsBefore: elementsBefore))
          continue
        }
        let handled = try readGroupChild(child, into: &open[last].group)
        try finishChild(child, handled: handled, elementsBefore: elementsBefore, in: &open[last].children)
      case .end(let layout):
        var done = open.removeLast()
        done.group.layout = layout
        guard open.count > 0 else { return done.group }
        let parent = open.count - 1
        // The check of a save keeps no finished group either: only the groups still open are held.
        if keepsTree {
          open[parent].group.groups.append(done.group)
          open[parent].group.childOrder.append(false)
        }
        try finishChild(
          done.element, handled: true, elementsBefore: done.elementsBefore, in: &open[parent].children)
      }
    }
    // Not reached: the loop returns when the outermost group ends.
    throw .malformedDocument(path: "Group", reason: "the document ended early")
  }

  /// A group that ``readGroup(_:depth:)`` is reading: the group and its layout so far, and the element that
  /// started it in its parent with ``elementCount`` just after it started.
  struct OpenGroup {
    var group: Group
    var children: ChildReading
    var element: XMLChild
    var elementsBefore: Int
  }

  static func groupDepthExceeded(_ depth: Int, _ options: LoadOptions) -> KDBXError {
    .limitExceeded(what: "group nesting depth", value: UInt64(depth), limit: UInt64(clamping: options.maxGroupDepth))
  }

  /// Reads a child of a group other than a subgroup (which ``readGroup(_:depth:)`` reads itself) into `group`:
  /// `false` for an element that a group does not have, kept verbatim.
  mutating func readGroupChild(_ child: XMLChild, into group: inout Group) throws(KDBXError) -> Bool {
    switch child.known {
    case .uuid?: group.uuid = try uuid(child.name)
    case .name?: group.nameText = try text()
    case .notes?: group.notesText = try text()
    case .iconID?: group.iconID = try integer(child.name)
    case .customIconUUID?: group.customIconUUID = try uuid(child.name)
    case .times?: group.times = try readTimes(child.attributes)
    case .isExpanded?: group.isExpanded = try bool(child.name)
    case .defaultAutoTypeSequence?: group.defaultAutoTypeSequence = try text()
    case .enableAutoType?: group.enableAutoType = .some(try nullableBool(child.name))
    case .enableSearching?: group.enableSearching = .some(try nullableBool(child.name))
    case .lastTopVisibleEntry?: group.lastTopVisibleEntry = try uuid(child.name)
    case .previousParentGroup?: group.previousParentGroup = try uuid(child.name)
    case .tags?: group.tagsText = try text()
    case .customData?: group.customData = try readCustomData(child.attributes)
    case .entry?:
      try charge(Self.elementCost(Entry.self) + 2)
      let entry = try readEntry(child.attributes, isHistory: false)
      if keepsTree {
        group.entries.append(entry)
        group.childOrder.append(true)
      }
    default: return false
    }
    return true
  }

  mutating func readTimes(_ attributes: [XMLAttribute]) throws(KDBXError) -> Times {
    var times = Times()
    times.layout = try forEachChild(attributes: attributes, .times, keepsKnownOrder: false) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .creationTime?: times.creationTime = try reader.time(child.name)
      case .lastModificationTime?: times.lastModificationTime = try reader.time(child.name)
      case .lastAccessTime?: times.lastAccessTime = try reader.time(child.name)
      case .expiryTime?: times.expiryTime = try reader.time(child.name)
      case .expires?: times.expires = try reader.bool(child.name)
      case .usageCount?: times.usageCount = try reader.integer(child.name)
      case .locationChanged?: times.locationChanged = try reader.time(child.name)
      default: return false
      }
      return true
    }
    return times
  }

  mutating func readEntry(_ attributes: [XMLAttribute], isHistory: Bool) throws(KDBXError) -> Entry {
    var entry = Entry(uuid: .zero)
    entry.layout = try forEachChild(attributes: attributes, .entry) { (child, reader) throws(KDBXError) in
      switch child.known {
      case .uuid?: entry.uuid = try reader.uuid(child.name)
      case .iconID?: entry.iconID = try reader.integer(child.name)
      case .customIconUUID?: entry.customIconUUID = try reader.uuid(child.name)
      case .foregroundColor?: entry.foregroundColor = try reader.text()
      case .backgroundColor?: entry.backgroundColor = try reader.text()
      case .overrideURL?: entry.overrideURL = try reader.text()
      case .qualityCheck?: entry.qualityCheck = try reader.bool(child.name)
      case .tags?: entry.tagsText = try reader.text()
      case .previousParentGroup?: entry.previousParentGroup = try reader.uuid(child.name)
      case .times?: entry.times = try reader.readTimes(child.attributes)
      case .customData?: entry.customData = try reader.readCustomData(child.attributes)
      case .string?:
        try reader.charge(Self.elementCost(EntryField.self))
        entry.fields.append(try reader.readField(child.attributes))
      case .binary?:
        try reader.charge(Self.elementCost(Attachment.self))
        entry.attachments.append(try reader.readAttachment(child.attributes))
      case .autoType?: entry.autoType = try reader.readAutoType(child.attributes)
      case .history?:
        guard !isHistory else { return false }
        var history: [Entry] = []
        entry.historyLayout = try reader.forEachChild(attributes: child.attributes, .history) {
          (child, reader) throws(KDBXError) in
          guard child.known == .entry else { return false }
          try reader.charge(Self.elementCost(Entry.self))
          let old = try reader.readEntry(child.attributes, isHistory: true)
          // Without history (LoadOptions.loadsHistory off), each entry is still read, so that the inner random
          // stream passes over its protected values, but not kept.
          if reader.options.loadsHistory { history.append(old) }
          return true
        }
        if reader.options.loadsHistory { entry.history = history }
      default: return false
      }
      return true
    }
    return entry
  }

  mutating func readField(_ attributes: [XMLAttribute]) throws(KDBXError) -> EntryField {
    var field = EntryField(key: "", value: .plain(""))
    var sawKey = false
    field.layout = try forEachChild(attributes: attributes, .field, keepsKnownOrder: false) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .key?:
        field.key = try reader.text()
        sawKey = true
      case .value?:
        if Self.isProtected(child.attributes) {
          let bytes = try reader.unprotect(child.name)
          try reader.charge(bytes.count + 48)
          field.value = .protected(reader.protect(bytes))
        } else if Self.marksProtectInMemory(child.attributes) {
          let text = try reader.elementText()
          try reader.charge(2 * (text.utf8.count + 48))
          field.value = .protected(reader.protect(Array(text.utf8)))
        } else {
          field.value = .plain(try reader.text())
        }
        field.extraValueAttributes = try reader.extraAttributes(child.attributes, ownedBy: Self.ownsFieldValueAttribute)
      default: return false
      }
      return true
    }
    guard sawKey else { throw .malformedDocument(path: "Entry/String", reason: "missing Key") }
    return field
  }

  /// The attributes of a field's or attachment's `Value` element other than those the model reads and writes
  /// itself (`owned`), charged: kept to be written back on that `Value`.
  mutating func extraAttributes(
    _ attributes: [XMLAttribute], ownedBy owned: (String) -> Bool
  ) throws(KDBXError) -> [XMLAttribute] {
    guard !attributes.isEmpty else { return [] }
    let extra = attributes.filter { !owned($0.name) }
    if !extra.isEmpty { try charge(Self.attributesCost(extra)) }
    return extra
  }

  /// Whether the model owns the attribute `name` of a field's `Value`: its protection, and the protect-in-memory
  /// marks of XML exports (``marksProtectInMemory(_:)``).
  static func ownsFieldValueAttribute(_ name: String) -> Bool {
    name == XMLNames.protected || name == XMLNames.protectInMemory || name == XMLNames.protectedInMemory
  }

  /// Whether the model owns the attribute `name` of an attachment's `Value`: the pool reference, and the
  /// protection of an inline value (``binaryReference(_:)``), which moves to the pool.
  static func ownsAttachmentValueAttribute(_ name: String) -> Bool {
    name == XMLNames.ref || name == XMLNames.protected
  }

  /// Whether a plain-text value is marked to be protected in memory: KeePass's XML export writes
  /// `ProtectInMemory="True"` (and this library's exports before 2026 wrote `ProtectedInMemory="True"`).
  static func marksProtectInMemory(_ attributes: [XMLAttribute]) -> Bool {
    for attribute in attributes
    where attribute.name == XMLNames.protectInMemory || attribute.name == XMLNames.protectedInMemory {
      if attribute.value.lowercased() == "true" { return true }
    }
    return false
  }

  mutating func readAttachment(_ attributes: [XMLAttribute]) throws(KDBXError) -> Attachment {
    var attachment = Attachment(name: "", binaryIndex: 0)
    var sawKey = false
    var sawValue = false
    attachment.layout = try forEachChild(attributes: attributes, .attachment, keepsKnownOrder: false) {
      (child, reader) throws(KDBXError) in
      switch child.known {
      case .key?:
        attachment.name = try reader.text()
        sawKey = true
      case .value?:
        sawValue = true
        let reference = try reader.binaryReference(child.attributes)
        attachment.binaryIndex = reference.index
        attachment.missingReference = reference.missing
        attachment.extraValueAttributes = try reader.extraAttributes(
          child.attributes, ownedBy: Self.ownsAttachmentValueAttribute)
      default: return false
      }
      return true
    }
    guard sawKey, sawValue else { throw .malformedDocument(path: "Entry/Binary", reason: "missing Key or Value") }
    return attachment
  }

  /// The pool index a `Binary/Value` refers to (`Ref` = KDBX 4 pool position or KDBX 3 `Meta/Binaries` ID); an
  /// inline value (very old KeePass 2.x) is added to the pool. A `Ref` that names no binary is kept as it was
  /// read (`missing`), with an index past the pool, so that the entry opens and the reference is not lost.
  mutating func binaryReference(_ attributes: [XMLAttribute]) throws(KDBXError) -> (index: Int, missing: String?) {
    guard let ref = Self.attribute(XMLNames.ref, in: attributes) else {
      let data = Self.isProtected(attributes) ? try unprotect(XMLNames.value) : try base64(XMLNames.value)
      return (binaries.add(data), nil)
    }
    try skipElement()
    if let index = binaryIndex(forID: ref) { return (index, nil) }
    if let number = Int(ref), number >= 0, number < binaries.count { return (number, nil) }
    missingReferenceCount += 1
    try charge(Self.stringCost(ref))
    return (Attachment.missingBinaryIndex, ref)
  }

  /// The pool index of the KDBX 3.x `Meta/Binaries` ID `id`. IDs are usually "0", "1"... in file order, which the
  /// position answers at once; other IDs are found in a sorted copy (so a file with many binaries and
  /// references costs N log N, not N²).
  mutating func binaryIndex(forID id: String) -> Int? {
    guard !binaryIDs.isEmpty else { return nil }
    if let number = Int(id), number >= 0, number < binaryIDs.count, binaryIDs[number].id == id {
      return binaryIDs[number].index
    }
    if sortedBinaryIDs == nil {
      // Stable order for equal IDs, so that the first binary with an ID wins, as a linear search would give.
      sortedBinaryIDs = binaryIDs.enumerated().sorted { a, b in
        a.element.id.utf8.lexicographicallyPrecedes(b.element.id.utf8)
          || (a.element.id.utf8.elementsEqual(b.element.id.utf8) && a.offset < b.offset)
      }.map { $0.element }
    }
    guard let sorted = sortedBinaryIDs else { return nil }
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = low + (high - low) / 2
      if sorted[middle].id.utf8.lexicographicallyPrecedes(id.utf8) { low = middle + 1 } else { high = middle }
    }
    guard low < sorted.count, sorted[low].id.utf8.elementsEqual(id.utf8) else { return nil }
    return sorted[low].index
  }

  mutating func readAutoType(_ attributes: [XMLAttribute]) throws(KDBXError) -> AutoType {
    var autoType = AutoType()
    autoType.layout = try forEachChild(attributes: attributes, .autoType) { (child, reader) throws(KDBXError) in
      switch child.known {
      case .enabled?: autoType.enabled = try reader.bool(child.name)
      case .dataTransferObfuscation?: autoType.dataTransferObfuscation = try reader.integer(child.name)
      case .defaultSequence?: autoType.defaultSequence = try reader.text()
      case .association?:
        try reader.charge(Self.elementCost(AutoType.Association.self))
        var association = AutoType.Association(window: "", keystrokeSequence: nil)
        association.layout = try reader.forEachChild(attributes: child.attributes, .association, keepsKnownOrder: false)
        {
          (child, reader) throws(KDBXError) in
          switch child.known {
          case .window?: association.window = try reader.text()
          case .keystrokeSequence?: association.keystrokeSequence = try reader.text()
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
