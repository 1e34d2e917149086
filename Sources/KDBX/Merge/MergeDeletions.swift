/// Applies `DeletedObjects` to a merged tree (KDBX 4.1 specification, "XML": `DeletedObjects`; KeePassXC
/// `Merger::mergeDeletions`).
enum MergeDeletions {
  /// Deletes every entry whose tombstone is not older than its last modification, then, repeatedly, every
  /// empty group whose tombstone is not older than its last modification. Returns the tombstones to keep: those
  /// of objects now absent. A tombstone of an object that survives (edited after the deletion, or a group that
  /// still holds survivors) is dropped, so that the next synchronisation does not delete it either.
  static func apply(
    _ tombstones: (order: [KDBXUUID], byUUID: [KDBXUUID: DeletedObject]), to tree: inout MergeTree
  ) -> [DeletedObject] {
    for uuid in tombstones.order {
      guard let tombstone = tombstones.byUUID[uuid], let node = tree.entries[uuid] else { continue }
      if MergeSupport.modified(node.entry.times) <= (tombstone.deletionTime ?? .maximum) {
        tree.entries[uuid] = nil
      }
    }
    var changed = true
    while changed {
      changed = false
      for uuid in tombstones.order where uuid != tree.rootUUID {
        guard let tombstone = tombstones.byUUID[uuid], let node = tree.groups[uuid] else { continue }
        guard MergeSupport.modified(node.group.times) <= (tombstone.deletionTime ?? .maximum) else { continue }
        let hasChildren =
          tree.entries.values.contains { $0.parent == uuid } || tree.groups.values.contains { $0.parent == uuid }
        if !hasChildren {
          tree.groups[uuid] = nil
          changed = true
        }
      }
    }
    return tombstones.order.compactMap { uuid in
      tree.entries[uuid] == nil && tree.groups[uuid] == nil ? tombstones.byUUID[uuid] : nil
    }
  }
}
