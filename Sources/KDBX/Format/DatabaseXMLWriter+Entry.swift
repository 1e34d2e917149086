import KDBXXML

extension DatabaseXMLWriter {
  mutating func group<Sink: DatabaseXMLSink>(_ group: Group, parent: XMLLayout?, into sink: inout Sink) {
    let layout = group.layout
    container(XMLNames.group, layout, Group.canonicalOrder, parent: parent, into: &sink) { name, writer, sink in
      func text(_ value: String?) {
        if let value { writer.leaf(name, value, parent: layout, into: &sink) }
      }
      func uuid(_ value: KDBXUUID?) { text(value?.base64) }
      switch name {
      case XMLNames.uuid: uuid(group.uuid)
      case XMLNames.name: text(group.name)
      case XMLNames.notes: text(group.notes)
      case XMLNames.iconID: text(group.iconID.map { writer.integer($0) })
      case XMLNames.customIconUUID: uuid(group.customIconUUID)
      case XMLNames.times: if let times = group.times { writer.times(times, parent: layout, into: &sink) }
      case XMLNames.isExpanded: text(group.isExpanded.map { writer.bool($0) })
      case XMLNames.defaultAutoTypeSequence: text(group.defaultAutoTypeSequence)
      case XMLNames.enableAutoType: text(group.enableAutoType.map { writer.nullableBool($0) })
      case XMLNames.enableSearching: text(group.enableSearching.map { writer.nullableBool($0) })
      case XMLNames.lastTopVisibleEntry: uuid(group.lastTopVisibleEntry)
      case XMLNames.previousParentGroup: if writer.version >= .v4_1 { uuid(group.previousParentGroup) }
      case XMLNames.tags: if writer.version >= .v4_1 { text(group.tags) }
      case XMLNames.customData:
        guard writer.version.isKDBX4, let data = group.customData else { return }
        writer.customData(data, parent: layout, into: &sink)
      case XMLNames.entry, XMLNames.group:
        // Entries and subgroups are written together, in the interleaving they were read in.
        writer.children(of: group, at: name, into: &sink)
      default: return
      }
    }
  }

  /// Entries and subgroups in read order (entries first for new content), written at the first of the two
  /// positions; the call for the second name writes nothing.
  mutating func children<Sink: DatabaseXMLSink>(of group: Group, at name: String, into sink: inout Sink) {
    let firstName = group.layout.items.first { item in
      if case .known(let known) = item { return known == XMLNames.entry || known == XMLNames.group }
      return false
    }
    let first: String
    if case .known(let known)? = firstName { first = known } else { first = XMLNames.entry }
    guard name == first else { return }
    var entryIndex = 0
    var groupIndex = 0
    for isEntry in group.childOrder {
      if isEntry, entryIndex < group.entries.count {
        entry(group.entries[entryIndex], isHistory: false, parent: group.layout, into: &sink)
        entryIndex += 1
      } else if !isEntry, groupIndex < group.groups.count {
        self.group(group.groups[groupIndex], parent: group.layout, into: &sink)
        groupIndex += 1
      }
    }
    while entryIndex < group.entries.count {
      entry(group.entries[entryIndex], isHistory: false, parent: group.layout, into: &sink)
      entryIndex += 1
    }
    while groupIndex < group.groups.count {
      self.group(group.groups[groupIndex], parent: group.layout, into: &sink)
      groupIndex += 1
    }
  }

  /// An entry; `parent` is the layout of its group (or, for a history item, nothing: history items are list items).
  mutating func entry<Sink: DatabaseXMLSink>(
    _ entry: Entry, isHistory: Bool, parent: XMLLayout?, into sink: inout Sink
  ) {
    let layout = entry.layout
    container(XMLNames.entry, layout, Entry.canonicalOrder, parent: parent, into: &sink) { name, writer, sink in
      func text(_ value: String?) {
        if let value { writer.leaf(name, value, parent: layout, into: &sink) }
      }
      func uuid(_ value: KDBXUUID?) { text(value?.base64) }
      switch name {
      case XMLNames.uuid: uuid(entry.uuid)
      case XMLNames.iconID: text(entry.iconID.map { writer.integer($0) })
      case XMLNames.customIconUUID: uuid(entry.customIconUUID)
      case XMLNames.foregroundColor: text(entry.foregroundColor)
      case XMLNames.backgroundColor: text(entry.backgroundColor)
      case XMLNames.overrideURL: text(entry.overrideURL)
      case XMLNames.qualityCheck: if writer.version >= .v4_1 { text(entry.qualityCheck.map { writer.bool($0) }) }
      case XMLNames.tags: text(entry.tags)
      case XMLNames.previousParentGroup: if writer.version >= .v4_1 { uuid(entry.previousParentGroup) }
      case XMLNames.times: if let times = entry.times { writer.times(times, parent: layout, into: &sink) }
      case XMLNames.customData:
        guard writer.version.isKDBX4, let data = entry.customData else { return }
        writer.customData(data, parent: layout, into: &sink)
      case XMLNames.string: for field in entry.fields { writer.field(field, parent: layout, into: &sink) }
      case XMLNames.binary:
        for attachment in entry.attachments { writer.attachment(attachment, parent: layout, into: &sink) }
      case XMLNames.autoType:
        if let autoType = entry.autoType { writer.autoType(autoType, parent: layout, into: &sink) }
      case XMLNames.history:
        guard !isHistory, let history = entry.history else { return }
        writer.list(XMLNames.history, entry.historyLayout, parent: layout, into: &sink) { writer, sink in
          for old in history { writer.entry(old, isHistory: true, parent: nil, into: &sink) }
        }
      default: return
      }
    }
  }

  mutating func field<Sink: DatabaseXMLSink>(_ field: EntryField, parent: XMLLayout, into sink: inout Sink) {
    let layout = field.layout
    container(XMLNames.string, layout, [XMLNames.key, XMLNames.value], parent: parent, into: &sink) {
      name, writer, sink in
      guard name == XMLNames.value else { return writer.leaf(name, field.key, parent: layout, into: &sink) }
      switch field.value {
      case .plain(let value):
        writer.leaf(name, value, attributes: field.extraValueAttributes, parent: layout, into: &sink)
      case .protected(let value):
        let attributes =
          [XMLAttribute(name: XMLNames.protected, value: XMLNames.trueValue)] + field.extraValueAttributes
        writer.leaf(name, writer.protect(value.revealBytes()), attributes: attributes, parent: layout, into: &sink)
      }
    }
  }

  mutating func attachment<Sink: DatabaseXMLSink>(_ attachment: Attachment, parent: XMLLayout, into sink: inout Sink) {
    let layout = attachment.layout
    container(XMLNames.binary, layout, [XMLNames.key, XMLNames.value], parent: parent, into: &sink) {
      name, writer, sink in
      guard name == XMLNames.value else { return writer.leaf(name, attachment.name, parent: layout, into: &sink) }
      let reference = XMLAttribute(name: XMLNames.ref, value: "\(attachment.binaryIndex)")
      writer.leaf(name, "", attributes: [reference] + attachment.extraValueAttributes, parent: layout, into: &sink)
    }
  }

  mutating func autoType<Sink: DatabaseXMLSink>(_ autoType: AutoType, parent: XMLLayout, into sink: inout Sink) {
    let layout = autoType.layout
    let order = [XMLNames.enabled, XMLNames.dataTransferObfuscation, XMLNames.defaultSequence, XMLNames.association]
    container(XMLNames.autoType, layout, order, parent: parent, into: &sink) { name, writer, sink in
      switch name {
      case XMLNames.enabled:
        if let enabled = autoType.enabled { writer.leaf(name, writer.bool(enabled), parent: layout, into: &sink) }
      case XMLNames.dataTransferObfuscation:
        guard let value = autoType.dataTransferObfuscation else { return }
        writer.leaf(name, writer.integer(value), parent: layout, into: &sink)
      case XMLNames.defaultSequence:
        if let sequence = autoType.defaultSequence { writer.leaf(name, sequence, parent: layout, into: &sink) }
      default:
        for association in autoType.associations {
          let inner = association.layout
          let fields = [XMLNames.window, XMLNames.keystrokeSequence]
          writer.container(XMLNames.association, inner, fields, parent: layout, into: &sink) { field, writer, sink in
            if field == XMLNames.window {
              writer.leaf(field, association.window, parent: inner, into: &sink)
            } else if let sequence = association.keystrokeSequence {
              writer.leaf(field, sequence, parent: inner, into: &sink)
            }
          }
        }
      }
    }
  }
}
