import KDBXXML

extension DatabaseXMLWalk {
  /// `group` with its subtree. The group tree is walked with an explicit stack, not by recursion: a tree built
  /// through the API may be deeper than any file the open accepts (the save refuses it before it comes here, see
  /// ``LoadOptions/maxGroupDepth``), and the depth of the call stack stays the same at any group depth.
  func group<Sink: DatabaseXMLSink>(_ group: Group, parent: XMLLayout, into sink: inout Sink) {
    startGroup(group, parent: parent, into: &sink)
    var open = [GroupSteps(group)]
    while !open.isEmpty {
      let top = open.count - 1
      guard let step = open[top].next() else {
        sink.endElement()
        open.removeLast()
        continue
      }
      let current = open[top].group
      switch step {
      case .kept(let range): sink.kept(current.layout.kept, range)
      case .field(let name): groupField(name, of: current, into: &sink)
      case .entry(let index): entry(current.entries[index], isHistory: false, parent: current.layout, into: &sink)
      case .group(let index):
        let child = current.groups[index]
        startGroup(child, parent: current.layout, into: &sink)
        open.append(GroupSteps(child))
      }
    }
  }

  /// The start tag of `group`, as ``container(_:_:_:parent:into:_:)`` writes it.
  private func startGroup<Sink: DatabaseXMLSink>(_ group: Group, parent: XMLLayout, into sink: inout Sink) {
    let layout = group.layout
    sink.startElement(
      XMLNames.group, attributes: restored(layout.attributes, XMLNames.group, parent),
      containsText: layout.holdsText)
  }

  /// A known child of `group` other than its entries and subgroups.
  private func groupField<Sink: DatabaseXMLSink>(_ name: String, of group: Group, into sink: inout Sink) {
    let layout = group.layout
    func text(_ value: String?) {
      if let value { self.leaf(name, value, parent: layout, into: &sink) }
    }
    func uuid(_ value: KDBXUUID?) { text(value?.base64) }
    switch name {
    case XMLNames.uuid: uuid(group.uuid)
    case XMLNames.name: text(group.nameText)
    case XMLNames.notes: text(group.notesText)
    case XMLNames.iconID: text(group.iconID.map { self.integer($0) })
    case XMLNames.customIconUUID: uuid(group.customIconUUID)
    case XMLNames.times: if let times = group.times { self.times(times, parent: layout, into: &sink) }
    case XMLNames.isExpanded: text(group.isExpanded.map { self.bool($0) })
    case XMLNames.defaultAutoTypeSequence: text(group.defaultAutoTypeSequence)
    case XMLNames.enableAutoType: text(group.enableAutoType.map { self.nullableBool($0) })
    case XMLNames.enableSearching: text(group.enableSearching.map { self.nullableBool($0) })
    case XMLNames.lastTopVisibleEntry: uuid(group.lastTopVisibleEntry)
    case XMLNames.previousParentGroup: if self.version >= .v4_1 { uuid(group.previousParentGroup) }
    case XMLNames.tags: if self.version >= .v4_1 { text(group.tagsText) }
    case XMLNames.customData:
      guard self.version.isKDBX4, let data = group.customData else { return }
      self.customData(data, parent: layout, into: &sink)
    default: return
    }
  }

  /// An entry; `parent` is the layout of its group (or, for a history item, nothing: history items are list items).
  func entry<Sink: DatabaseXMLSink>(
    _ entry: Entry, isHistory: Bool, parent: XMLLayout, into sink: inout Sink
  ) {
    let layout = entry.layout
    container(XMLNames.entry, layout, .entry, parent: parent, into: &sink) { name, sink in
      func text(_ value: String?) {
        if let value { self.leaf(name, value, parent: layout, into: &sink) }
      }
      func uuid(_ value: KDBXUUID?) { text(value?.base64) }
      switch name {
      case XMLNames.uuid: uuid(entry.uuid)
      case XMLNames.iconID: text(entry.iconID.map { self.integer($0) })
      case XMLNames.customIconUUID: uuid(entry.customIconUUID)
      case XMLNames.foregroundColor: text(entry.foregroundColor)
      case XMLNames.backgroundColor: text(entry.backgroundColor)
      case XMLNames.overrideURL: text(entry.overrideURL)
      case XMLNames.qualityCheck: if self.version >= .v4_1 { text(entry.qualityCheck.map { self.bool($0) }) }
      case XMLNames.tags: text(entry.tagsText)
      case XMLNames.previousParentGroup: if self.version >= .v4_1 { uuid(entry.previousParentGroup) }
      case XMLNames.times: if let times = entry.times { self.times(times, parent: layout, into: &sink) }
      case XMLNames.customData:
        guard self.version.isKDBX4, let data = entry.customData else { return }
        self.customData(data, parent: layout, into: &sink)
      case XMLNames.string:
        for index in entry.fields.indices { self.field(entry.fields[index], parent: layout, into: &sink) }
      case XMLNames.binary:
        for index in entry.attachments.indices {
          self.attachment(entry.attachments[index], parent: layout, into: &sink)
        }
      case XMLNames.autoType:
        if let autoType = entry.autoType { self.autoType(autoType, parent: layout, into: &sink) }
      case XMLNames.history:
        guard !isHistory, let history = entry.history else { return }
        self.list(XMLNames.history, entry.historyLayout, parent: layout, into: &sink) { sink in
          for index in history.indices {
            self.entry(history[index], isHistory: true, parent: Self.noParent, into: &sink)
          }
        }
      default: return
      }
    }
  }

  func field<Sink: DatabaseXMLSink>(_ field: EntryField, parent: XMLLayout, into sink: inout Sink) {
    let layout = field.layout
    container(XMLNames.string, layout, .field, parent: parent, into: &sink) {
      name, sink in
      guard name == XMLNames.value else { return self.leaf(name, field.key, parent: layout, into: &sink) }
      let protected = [XMLAttribute(name: XMLNames.protected, value: XMLNames.trueValue)]
      switch field.value {
      case .plain(let value) where self.protectedFieldKeys.contains(field.key):
        // Meta/MemoryProtection protects this field: written protected whatever the model holds, as KeePass does.
        let attributes = protected + field.extraValueAttributes
        self.leaf(name, self.protect(Array(value.utf8)), attributes: attributes, parent: layout, into: &sink)
      case .plain(let value):
        self.leaf(name, value, attributes: field.extraValueAttributes, parent: layout, into: &sink)
      case .protected(let value):
        let attributes = protected + field.extraValueAttributes
        self.leaf(name, self.protect(value.revealBytes()), attributes: attributes, parent: layout, into: &sink)
      }
    }
  }

  func attachment<Sink: DatabaseXMLSink>(_ attachment: Attachment, parent: XMLLayout, into sink: inout Sink) {
    let layout = attachment.layout
    container(XMLNames.binary, layout, .attachment, parent: parent, into: &sink) {
      name, sink in
      guard name == XMLNames.value else { return self.leaf(name, attachment.name, parent: layout, into: &sink) }
      let reference = XMLAttribute(name: XMLNames.ref, value: self.reference(of: attachment))
      self.leaf(name, "", attributes: [reference] + attachment.extraValueAttributes, parent: layout, into: &sink)
    }
  }

  /// The `Ref` of `attachment`: its pool index, or for a reference that named no binary, the reference as read
  /// while it still names none (else the first index past the pool), so that it stays missing and is not lost.
  func reference(of attachment: Attachment) -> String {
    guard let missing = attachment.missingReference, attachment.binaryIndex >= binaryCount else {
      return String(attachment.binaryIndex)
    }
    if let number = Int(missing), number >= 0, number < binaryCount { return String(binaryCount) }
    return missing
  }

  func autoType<Sink: DatabaseXMLSink>(_ autoType: AutoType, parent: XMLLayout, into sink: inout Sink) {
    let layout = autoType.layout
    container(XMLNames.autoType, layout, .autoType, parent: parent, into: &sink) { name, sink in
      switch name {
      case XMLNames.enabled:
        if let enabled = autoType.enabled { self.leaf(name, self.bool(enabled), parent: layout, into: &sink) }
      case XMLNames.dataTransferObfuscation:
        guard let value = autoType.dataTransferObfuscation else { return }
        self.leaf(name, self.integer(value), parent: layout, into: &sink)
      case XMLNames.defaultSequence:
        if let sequence = autoType.defaultSequence { self.leaf(name, sequence, parent: layout, into: &sink) }
      default:
        for association in autoType.associations {
          let inner = association.layout
          self.container(XMLNames.association, inner, .association, parent: layout, into: &sink) { field, sink in
            if field == XMLNames.window {
              self.leaf(field, association.window, parent: inner, into: &sink)
            } else if let sequence = association.keystrokeSequence {
              self.leaf(field, sequence, parent: inner, into: &sink)
            }
          }
        }
      }
    }
  }
}
