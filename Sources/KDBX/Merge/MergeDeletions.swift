/// Applies `DeletedObjects` to a merged tree (KDBX 4.1 specification, "XML": `DeletedObjects`; KeePass 2
/// `PwDatabase.ApplyDeletions`, KeePassXC `Merger::mergeDeletions`).
enum MergeDeletions {
  /// Deletes every entry last modified before its tombstone's time, then, repeatedly, every empty group last
  /// modified before its tombstone's time. An object modified at the very second of its deletion stays, as in
  /// KeePass 2 (`TimeUtil.Compare(LastModificationTime, DeletionTime) < 0`), which loses nothing. Returns the tombstones to keep: those
  /// of objects now absent. A tombstone of an object that survives (edited after the deletion, or a group that
  /// still holds survivors) is dropped, so that the next synchronisation does not delete it either.
  static func apply(
    _ tombstones: (order: [KDBXUUID], byUUID: [KDBXUUID: DeletedObject]), to tree: inout MergeTree
  ) -> [DeletedObject] {
    for uuid in tombstones.order {
      guard let tombstone = tombstones.byUUID[uuid], let node = tree.entries[uuid] else { continue }
      if MergeSupport.modified(node.entry.times) < (tombstone.deletionTime ?? .maximum) {
        tree.entries[uuid] = nil
      }
    }
    removeEmptyGroups(
      tombstones.order.filter { uuid in
        guard uuid != tree.rootUUID, let tombstone = tombstones.byUUID[uuid], let node = tree.groups[uuid] else {
          return false
        }
        return MergeSupport.modified(node.group.times) < (tombstone.deletionTime ?? .maximum)
      }, from: &tree)
    return tombstones.order.compactMap { uuid in
      tree.entries[uuid] == nil && tree.groups[uuid] == nil ? tombstones.byUUID[uuid] : nil
    }
  }

  /// Removes those of `candidates` that hold no entry and no group, repeatedly (a group emptied by removing a
  /// deleted subgroup goes too). Returns the candidates that stay because they still hold something.
  @discardableResult
  static func removeEmptyGroups(_ candidates: [KDBXUUID], from tree: inout MergeTree) -> [KDBXUUID] {
    var childCount: [KDBXUUID: Int] = [:]
    for node in tree.entries.values { childCount[node.parent, default: 0] += 1 }
    for node in tree.groups.values {
      if let parent = node.parent { childCount[parent, default: 0] += 1 }
    }
    var pending = candidates.filter { tree.groups[$0] != nil }
    var changed = true
    while changed {
      changed = false
      for uuid in pending where childCount[uuid, default: 0] == 0 {
        if let parent = tree.groups[uuid]?.parent ?? nil { childCount[parent, default: 0] -= 1 }
        tree.groups[uuid] = nil
        changed = true
      }
      pending.removeAll { tree.groups[$0] == nil }
    }
    return pending
  }
}
