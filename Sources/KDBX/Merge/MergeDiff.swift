/// Lists the changes that turn `local` into `merged`, object by object, with their paths (the dry-run report).
/// Objects are compared with ``MergeEquivalence``; history lists through ``MergeSupport/VersionSet`` (linear).
enum MergeDiff {
  /// `keptLocal`: entries whose local version won over a different, older remote version.
  static func report(
    local: Database, merged: Database, tombstones: [KDBXUUID: DeletedObject], keptLocal: Set<KDBXUUID> = []
  ) -> MergeReport {
    var changes: [MergeChange] = []
    let pool = merged.binaries
    let before = MergePaths(tree: local.root.map { MergeTree(root: $0) })
    let after = MergePaths(tree: merged.root.map { MergeTree(root: $0) })
    let beforeGroups = before.tree?.groups ?? [:]
    let beforeEntries = before.tree?.entries ?? [:]
    let afterGroups = after.tree?.groups ?? [:]
    let afterEntries = after.tree?.entries ?? [:]
    // The actions first, each with whether it shows the old path; the paths (as long as the group is deep) only
    // for an object that changed, so that the report is linear in the tree and its changes.
    typealias Actions = [(action: MergeChange.Action, showsOldPath: Bool)]
    /// Adds the changes to the group or entry `uuid`: `actions`, and ``MergeChange/Action/deletionOverridden`` when
    /// it has a tombstone, with its path, and its old path (when it `existed` and the path changed) on the actions
    /// that show it.
    func record(_ object: MergeChange.Object, _ uuid: KDBXUUID, _ actions: Actions, existed: Bool) {
      var actions = actions
      if tombstones[uuid] != nil { actions.append((.deletionOverridden, false)) }
      guard !actions.isEmpty else { return }
      func objectPath(in paths: MergePaths) -> [String] {
        object == .group ? paths.path(ofGroup: uuid) : paths.path(ofEntry: uuid)
      }
      let path = objectPath(in: after)
      let oldPath = existed ? objectPath(in: before) : nil
      let moved = oldPath == path ? nil : oldPath
      for (action, showsOldPath) in actions {
        changes.append(
          MergeChange(object: object, uuid: uuid, action: action, path: path, oldPath: showsOldPath ? moved : nil))
      }
    }

    for uuid in after.tree?.groupOrder ?? [] {
      guard let node = afterGroups[uuid] else { continue }
      var actions: Actions = []
      let old = beforeGroups[uuid]
      if let old {
        if !MergeEquivalence.same(old.group, node.group) { actions.append((.updated, true)) }
        if old.parent != node.parent { actions.append((.moved(from: old.parent, to: node.parent), true)) }
      } else {
        actions.append((.added(parent: node.parent), false))
      }
      record(.group, uuid, actions, existed: old != nil)
    }
    for uuid in before.tree?.groupOrder ?? [] where afterGroups[uuid] == nil {
      changes.append(MergeChange(object: .group, uuid: uuid, action: .deleted, path: before.path(ofGroup: uuid)))
    }

    for groupUUID in after.tree?.groupOrder ?? [] {
      for child in afterGroups[groupUUID]?.children ?? [] {
        guard case .entry(let uuid) = child, let node = afterEntries[uuid], node.parent == groupUUID else { continue }
        var actions: Actions = []
        let old = beforeEntries[uuid]
        if let old {
          if !MergeEquivalence.same(old.entry, node.entry, pool: pool) {
            actions.append((.updated, true))
          } else if keptLocal.contains(uuid) {
            actions.append((.keptLocal, false))
          }
          let (added, removed) = historyDifference(old.entry.history ?? [], node.entry.history ?? [], pool: pool)
          if added > 0 { actions.append((.historyMerged(count: added), false)) }
          if removed > 0 { actions.append((.historyTrimmed(count: removed), false)) }
          if old.parent != node.parent { actions.append((.moved(from: old.parent, to: node.parent), true)) }
        } else {
          actions.append((.added(parent: node.parent), false))
        }
        record(.entry, uuid, actions, existed: old != nil)
      }
    }
    for groupUUID in before.tree?.groupOrder ?? [] {
      for child in beforeGroups[groupUUID]?.children ?? [] {
        guard case .entry(let uuid) = child, afterEntries[uuid] == nil else { continue }
        changes.append(MergeChange(object: .entry, uuid: uuid, action: .deleted, path: before.path(ofEntry: uuid)))
      }
    }

    let localTombstones = Set((local.deletedObjects ?? []).map { $0.uuid })
    for object in merged.deletedObjects ?? [] where !localTombstones.contains(object.uuid) {
      changes.append(MergeChange(object: .deletedObject, uuid: object.uuid, action: .recorded))
    }
    return MergeReport(changes: changes)
  }

  /// How many versions `new` has that `old` has not (added), and the reverse (removed), in linear time.
  static func historyDifference(_ old: [Entry], _ new: [Entry], pool: BinaryPool) -> (added: Int, removed: Int) {
    if old.count == new.count, zip(old, new).allSatisfy({ MergeEquivalence.same($0, $1, pool: pool) }) {
      return (0, 0)
    }
    let oldSet = MergeSupport.VersionSet(old, pool: pool)
    let newSet = MergeSupport.VersionSet(new, pool: pool)
    return (new.filter { !oldSet.contains($0) }.count, old.filter { !newSet.contains($0) }.count)
  }

  /// `conflicts` with their paths: where the object is after the merge, or was before it.
  static func locate(_ conflicts: [MergeConflict], local: Database, merged: Database) -> [MergeConflict] {
    guard !conflicts.isEmpty else { return conflicts }
    let before = MergePaths(tree: local.root.map { MergeTree(root: $0) })
    let after = MergePaths(tree: merged.root.map { MergeTree(root: $0) })
    return conflicts.map { conflict in
      var located = conflict
      guard let uuid = conflict.uuid else { return located }
      switch conflict.object {
      case .entry:
        located.path = after.tree?.entries[uuid] != nil ? after.path(ofEntry: uuid) : before.path(ofEntry: uuid)
      case .group:
        located.path = after.tree?.groups[uuid] != nil ? after.path(ofGroup: uuid) : before.path(ofGroup: uuid)
      default:
        break
      }
      return located
    }
  }
}

/// Paths of the objects of a flattened tree: group names below the root, then the entry's title.
struct MergePaths {
  let tree: MergeTree?

  func path(ofGroup uuid: KDBXUUID) -> [String] {
    guard let tree else { return [] }
    var names: [String] = []
    var current: KDBXUUID? = uuid
    var steps = 0
    while let id = current, id != tree.rootUUID, let node = tree.groups[id], steps <= tree.groups.count {
      names.append(node.group.name)
      current = node.parent
      steps += 1
    }
    return names.reversed()
  }

  func path(ofEntry uuid: KDBXUUID) -> [String] {
    guard let node = tree?.entries[uuid] else { return [] }
    return path(ofGroup: node.parent) + [node.entry[field: "Title"]?.reveal() ?? ""]
  }
}
