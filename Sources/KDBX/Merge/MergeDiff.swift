/// Lists the changes that turn `local` into `merged`, object by object (the dry-run report).
enum MergeDiff {
  static func report(local: Database, merged: Database, tombstones: [KDBXUUID: DeletedObject]) -> MergeReport {
    var changes: [MergeChange] = []
    let before = local.root.map { MergeTree(root: $0) }
    let after = merged.root.map { MergeTree(root: $0) }
    let beforeGroups = before?.groups ?? [:]
    let beforeEntries = before?.entries ?? [:]
    let afterGroups = after?.groups ?? [:]
    let afterEntries = after?.entries ?? [:]

    for uuid in after?.groupOrder ?? [] {
      guard let node = afterGroups[uuid] else { continue }
      guard let old = beforeGroups[uuid] else {
        changes.append(MergeChange(object: .group, uuid: uuid, action: .added(parent: node.parent)))
        if tombstones[uuid] != nil {
          changes.append(MergeChange(object: .group, uuid: uuid, action: .deletionOverridden))
        }
        continue
      }
      if MergeSupport.content(old.group) != MergeSupport.content(node.group) {
        changes.append(MergeChange(object: .group, uuid: uuid, action: .updated))
      }
      if old.parent != node.parent {
        changes.append(MergeChange(object: .group, uuid: uuid, action: .moved(from: old.parent, to: node.parent)))
      }
      if tombstones[uuid] != nil {
        changes.append(MergeChange(object: .group, uuid: uuid, action: .deletionOverridden))
      }
    }
    for uuid in before?.groupOrder ?? [] where afterGroups[uuid] == nil {
      changes.append(MergeChange(object: .group, uuid: uuid, action: .deleted))
    }

    for groupUUID in after?.groupOrder ?? [] {
      for child in afterGroups[groupUUID]?.children ?? [] {
        guard case .entry(let uuid) = child, let node = afterEntries[uuid] else { continue }
        guard let old = beforeEntries[uuid] else {
          changes.append(MergeChange(object: .entry, uuid: uuid, action: .added(parent: node.parent)))
          if tombstones[uuid] != nil {
            changes.append(MergeChange(object: .entry, uuid: uuid, action: .deletionOverridden))
          }
          continue
        }
        if MergeSupport.content(old.entry) != MergeSupport.content(node.entry) {
          changes.append(MergeChange(object: .entry, uuid: uuid, action: .updated))
        }
        let oldHistory = (old.entry.history ?? []).map(MergeSupport.content)
        let added = (node.entry.history ?? []).filter { !oldHistory.contains(MergeSupport.content($0)) }.count
        if added > 0 { changes.append(MergeChange(object: .entry, uuid: uuid, action: .historyMerged(count: added))) }
        if old.parent != node.parent {
          changes.append(MergeChange(object: .entry, uuid: uuid, action: .moved(from: old.parent, to: node.parent)))
        }
        if tombstones[uuid] != nil {
          changes.append(MergeChange(object: .entry, uuid: uuid, action: .deletionOverridden))
        }
      }
    }
    for groupUUID in before?.groupOrder ?? [] {
      for child in beforeGroups[groupUUID]?.children ?? [] {
        guard case .entry(let uuid) = child, afterEntries[uuid] == nil else { continue }
        changes.append(MergeChange(object: .entry, uuid: uuid, action: .deleted))
      }
    }

    let localTombstones = Set((local.deletedObjects ?? []).map { $0.uuid })
    for object in merged.deletedObjects ?? [] where !localTombstones.contains(object.uuid) {
      changes.append(MergeChange(object: .deletedObject, uuid: object.uuid, action: .recorded))
    }
    return MergeReport(changes: changes)
  }
}
