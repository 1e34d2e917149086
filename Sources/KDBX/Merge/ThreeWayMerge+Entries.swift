extension ThreeWayMerger {
  /// Entries in local order, then remote-only ones in remote order.
  mutating func mergeEntries(remoteTombstones: [KDBXUUID: DeletedObject]) {
    var order: [KDBXUUID] = []
    var seen = Set<KDBXUUID>()
    for source in [tree, remoteTree] {
      for groupUUID in source.groupOrder {
        for case .entry(let uuid) in source.groups[groupUUID]?.children ?? [] where seen.insert(uuid).inserted {
          order.append(uuid)
        }
      }
    }
    for uuid in order { mergeEntry(uuid, tombstones: remoteTombstones) }
  }

  mutating func mergeEntry(_ uuid: KDBXUUID, tombstones: [KDBXUUID: DeletedObject]) {
    let base = baseTree.entries[uuid]
    let remoteNode = remoteTree.entries[uuid]
    guard let node = tree.entries[uuid] else {
      guard let remoteNode else { return }
      if let base {
        // Deleted locally: stays deleted unless the remote side changed it.
        guard
          !MergeEquivalence.same(remoteNode.entry, base.entry, pool: comparePool) || remoteNode.parent != base.parent
        else { return }
        conflicts.append(
          MergeConflict(
            object: .entry, uuid: uuid, kind: .deletedLocallyEditedRemotely, remoteEntry: remoteNode.entry))
      } else if let tombstone = tombstones[uuid],
        MergeSupport.modified(remoteNode.entry.times) < (tombstone.deletionTime ?? .maximum)
      {
        // Not in the base but deleted locally after the remote version: the two-way rule applies.
        return
      }
      tree.entries[uuid] = remoteNode
      extraOrder.append(.entry(uuid))
      return
    }
    guard let remoteNode else {
      guard let base else {
        if let tombstone = tombstones[uuid],
          MergeSupport.modified(node.entry.times) < (tombstone.deletionTime ?? .maximum)
        {
          tree.entries[uuid] = nil
        }
        return
      }
      // Deleted remotely: applied unless the local side changed it.
      if !MergeEquivalence.same(node.entry, base.entry, pool: comparePool) || node.parent != base.parent {
        conflicts.append(MergeConflict(object: .entry, uuid: uuid, kind: .editedLocallyDeletedRemotely))
      } else {
        tree.entries[uuid] = nil
        deletedByMerge.append(uuid)
      }
      return
    }
    var merged = node
    let l = node.entry
    let r = remoteNode.entry
    let pool = comparePool
    var added = 0
    if MergeEquivalence.same(l, r, pool: pool) {
      (merged.entry.history, added) = MergeSupport.unionHistory(l.history, adding: r.history ?? [], pool: pool)
    } else if let base, MergeEquivalence.same(base.entry, l, pool: pool) {
      // Remote change only.
      merged.entry = r
      (merged.entry.history, added) = MergeSupport.unionHistory(r.history, adding: (l.history ?? []) + [l], pool: pool)
      added = max(added, 1)
      merged.entry.times?.locationChanged = l.times?.locationChanged
      merged.entry.previousParentGroup = l.previousParentGroup
    } else if let base, MergeEquivalence.same(base.entry, r, pool: pool) {
      // Local change only.
      (merged.entry.history, added) = MergeSupport.unionHistory(l.history, adding: r.history ?? [], pool: pool)
    } else {
      conflicts.append(
        MergeConflict(
          object: .entry, uuid: uuid, kind: base == nil ? .addedOnBothSides : .editedOnBothSides, remoteEntry: r))
      (merged.entry.history, added) = MergeSupport.unionHistory(l.history, adding: (r.history ?? []) + [r], pool: pool)
    }
    if merged.entry.history?.isEmpty == true && l.history == nil && r.history == nil { merged.entry.history = nil }
    if added > 0 { historyChanged.append(uuid) }
    if remoteNode.parent != node.parent {
      if base?.parent == node.parent, tree.groups[remoteNode.parent] != nil {
        merged.parent = remoteNode.parent
        merged.entry.times?.locationChanged = r.times?.locationChanged
        merged.entry.previousParentGroup = r.previousParentGroup
        extraOrder.append(.entry(uuid))
      } else if base?.parent != remoteNode.parent {
        conflicts.append(
          MergeConflict(
            object: .entry, uuid: uuid,
            kind: .movedToDifferentGroups(local: node.parent, remote: remoteNode.parent), remoteEntry: r))
      }
    }
    tree.entries[uuid] = merged
  }
}
