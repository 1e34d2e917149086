import KDBXXML

extension DatabaseXMLWriter {
  mutating func group(_ group: Group) -> XMLElement {
    let children = orderedMutating(group.layout, Group.canonicalOrder) { name, writer in
      switch name {
      case XMLNames.uuid: return [writer.leaf(name, group.uuid.base64)]
      case XMLNames.name: return group.name.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.notes: return group.notes.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.iconID: return group.iconID.map { [writer.leaf(name, writer.integer($0))] } ?? []
      case XMLNames.customIconUUID: return group.customIconUUID.map { [writer.leaf(name, $0.base64)] } ?? []
      case XMLNames.times: return group.times.map { [writer.times($0)] } ?? []
      case XMLNames.isExpanded: return group.isExpanded.map { [writer.leaf(name, writer.bool($0))] } ?? []
      case XMLNames.defaultAutoTypeSequence: return group.defaultAutoTypeSequence.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.enableAutoType:
        return group.enableAutoType.map { [writer.leaf(name, writer.nullableBool($0))] } ?? []
      case XMLNames.enableSearching:
        return group.enableSearching.map { [writer.leaf(name, writer.nullableBool($0))] } ?? []
      case XMLNames.lastTopVisibleEntry: return group.lastTopVisibleEntry.map { [writer.leaf(name, $0.base64)] } ?? []
      case XMLNames.previousParentGroup:
        guard writer.version >= .v4_1 else { return [] }
        return group.previousParentGroup.map { [writer.leaf(name, $0.base64)] } ?? []
      case XMLNames.tags:
        guard writer.version >= .v4_1 else { return [] }
        return group.tags.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.customData:
        guard writer.version.isKDBX4 else { return [] }
        return group.customData.map { [writer.customData($0)] } ?? []
      case XMLNames.entry, XMLNames.group:
        // Entries and subgroups are written together, in the interleaving they were read in.
        return writer.children(of: group, at: name)
      default: return []
      }
    }
    return XMLElement(name: XMLNames.group, attributes: group.layout.attributes, children: children)
  }

  /// Entries and subgroups in read order (entries first for new content), written at the first of the two
  /// positions; the call for the second name returns nothing.
  mutating func children(of group: Group, at name: String) -> [XMLElement] {
    let firstName = group.layout.items.first { item in
      if case .known(let known) = item { return known == XMLNames.entry || known == XMLNames.group }
      return false
    }
    let first: String
    if case .known(let known)? = firstName { first = known } else { first = XMLNames.entry }
    guard name == first else { return [] }
    var out: [XMLElement] = []
    var entryIndex = 0
    var groupIndex = 0
    for isEntry in group.childOrder {
      if isEntry, entryIndex < group.entries.count {
        out.append(entry(group.entries[entryIndex], isHistory: false))
        entryIndex += 1
      } else if !isEntry, groupIndex < group.groups.count {
        out.append(self.group(group.groups[groupIndex]))
        groupIndex += 1
      }
    }
    while entryIndex < group.entries.count {
      out.append(entry(group.entries[entryIndex], isHistory: false))
      entryIndex += 1
    }
    while groupIndex < group.groups.count {
      out.append(self.group(group.groups[groupIndex]))
      groupIndex += 1
    }
    return out
  }

  mutating func entry(_ entry: Entry, isHistory: Bool) -> XMLElement {
    let children = orderedMutating(entry.layout, Entry.canonicalOrder) { name, writer in
      switch name {
      case XMLNames.uuid: return [writer.leaf(name, entry.uuid.base64)]
      case XMLNames.iconID: return entry.iconID.map { [writer.leaf(name, writer.integer($0))] } ?? []
      case XMLNames.customIconUUID: return entry.customIconUUID.map { [writer.leaf(name, $0.base64)] } ?? []
      case XMLNames.foregroundColor: return entry.foregroundColor.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.backgroundColor: return entry.backgroundColor.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.overrideURL: return entry.overrideURL.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.qualityCheck:
        guard writer.version >= .v4_1 else { return [] }
        return entry.qualityCheck.map { [writer.leaf(name, writer.bool($0))] } ?? []
      case XMLNames.tags: return entry.tags.map { [writer.leaf(name, $0)] } ?? []
      case XMLNames.previousParentGroup:
        guard writer.version >= .v4_1 else { return [] }
        return entry.previousParentGroup.map { [writer.leaf(name, $0.base64)] } ?? []
      case XMLNames.times: return entry.times.map { [writer.times($0)] } ?? []
      case XMLNames.customData:
        guard writer.version.isKDBX4 else { return [] }
        return entry.customData.map { [writer.customData($0)] } ?? []
      case XMLNames.string: return entry.fields.map { writer.field($0) }
      case XMLNames.binary: return entry.attachments.map { writer.attachment($0) }
      case XMLNames.autoType: return entry.autoType.map { [writer.autoType($0)] } ?? []
      case XMLNames.history:
        guard !isHistory, let history = entry.history else { return [] }
        var items: [XMLElement] = []
        for old in history { items.append(writer.entry(old, isHistory: true)) }
        return [writer.list(XMLNames.history, items, layout: entry.historyLayout)]
      default: return []
      }
    }
    return XMLElement(name: XMLNames.entry, attributes: entry.layout.attributes, children: children)
  }

  mutating func field(_ field: EntryField) -> XMLElement {
    let children = orderedMutating(field.layout, [XMLNames.key, XMLNames.value]) { name, writer in
      guard name == XMLNames.value else { return [writer.leaf(name, field.key)] }
      var attributes = field.extraValueAttributes
      let text: String
      switch field.value {
      case .plain(let value): text = value
      case .protected(let value):
        attributes.insert(XMLAttribute(name: XMLNames.protected, value: XMLNames.trueValue), at: 0)
        text = writer.protect(value.revealBytes())
      }
      return [writer.leaf(name, text, attributes: attributes)]
    }
    return XMLElement(name: XMLNames.string, attributes: field.layout.attributes, children: children)
  }

  func attachment(_ attachment: Attachment) -> XMLElement {
    XMLElement(
      name: XMLNames.binary, attributes: attachment.layout.attributes,
      children: ordered(attachment.layout, [XMLNames.key, XMLNames.value]) { name in
        guard name == XMLNames.value else { return [leaf(name, attachment.name)] }
        let reference = XMLAttribute(name: XMLNames.ref, value: "\(attachment.binaryIndex)")
        return [XMLElement(name: name, attributes: [reference] + attachment.extraValueAttributes)]
      })
  }

  func autoType(_ autoType: AutoType) -> XMLElement {
    XMLElement(
      name: XMLNames.autoType, attributes: autoType.layout.attributes,
      children: ordered(
        autoType.layout,
        [XMLNames.enabled, XMLNames.dataTransferObfuscation, XMLNames.defaultSequence, XMLNames.association]
      ) { name in
        switch name {
        case XMLNames.enabled: return autoType.enabled.map { [leaf(name, bool($0))] } ?? []
        case XMLNames.dataTransferObfuscation:
          return autoType.dataTransferObfuscation.map { [leaf(name, integer($0))] } ?? []
        case XMLNames.defaultSequence: return autoType.defaultSequence.map { [leaf(name, $0)] } ?? []
        default:
          return autoType.associations.map { association in
            XMLElement(
              name: XMLNames.association, attributes: association.layout.attributes,
              children: ordered(association.layout, [XMLNames.window, XMLNames.keystrokeSequence]) { field in
                field == XMLNames.window
                  ? [leaf(field, association.window)] : association.keystrokeSequence.map { [leaf(field, $0)] } ?? []
              })
          }
        }
      })
  }
}
