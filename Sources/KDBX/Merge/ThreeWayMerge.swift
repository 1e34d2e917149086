extension DatabaseMerge {
  /// Three-way merge of `remote` into `local`, given `base`, the version both started from.
  ///
  /// Per object (matched by UUID): a change made on one side only (content, group, deletion, addition) is
  /// applied without looking at clocks; the same change on both sides is applied once; different changes on both
  /// sides are reported as ``MergeConflict``s and resolved loss-free as ``MergeConflict`` describes (local
  /// content with the remote version in the entry's history; a deleted-but-changed object is kept; a doubly moved
  /// object stays in its local group). History is united. New tombstones get the time `now` (the merge's own time,
  /// as ``VaultMergeMethod/threeWay(now:)`` takes it). `Meta` fields changed
  /// on both sides to different values are conflicts too (the local value stays); custom icons and custom data
  /// are united as in ``synchronize(local:remote:mode:)``.
  public static func threeWay(base: Database, local: Database, remote: Database, now: Timestamp) -> MergeResult {
    var merger = ThreeWayMerger(base: base, local: local, remote: remote, now: now)
    return merger.run()
  }

  /// The changes and conflicts ``threeWay(base:local:remote:now:)`` would produce, without the merged database.
  package static func threeWayDryRun(base: Database, local: Database, remote: Database, now: Timestamp)
    -> MergeReport
  {
    threeWay(base: base, local: local, remote: remote, now: now).report
  }
}

/// The three-way merge.
struct ThreeWayMerger {
  let local: Database
  let remote: Database
  let now: Timestamp
  var pool: BinaryPool
  var tree: MergeTree
  let baseTree: MergeTree
  let remoteTree: MergeTree
  let baseMeta: Meta
  /// The pool plus the base's binaries, for comparisons that involve the base.
  var comparePool: BinaryPool
  var extraOrder: [MergeTree.Child] = []
  var conflicts: [MergeConflict] = []
  var deletedByMerge: [KDBXUUID] = []
  var historyChanged: [KDBXUUID] = []

  init(base: Database, local: Database, remote: Database, now: Timestamp) {
    let sides = MergeSupport.Sides(local: local, remote: remote)
    (self.local, self.remote, pool, tree, remoteTree) = (
      sides.local, sides.remote, sides.pool, sides.tree, sides.remoteTree
    )
    self.now = now
    let base = base.flatteningNestedHistory()
    baseMeta = base.meta
    // The base is remapped into a scratch copy of the pool, so that its binaries are not added to the result; the
    // pool does not grow after this, so the scratch copy holds every binary the merge compares.
    var scratch = sides.pool
    baseTree = MergeSupport.remappedTree(
      base, into: &scratch, rootUUID: sides.tree.rootUUID, alias: sides.tree.rootUUID)
    comparePool = scratch
  }

  mutating func run() -> MergeResult {
    let tombstones = MergeSupport.tombstones([local.deletedObjects, remote.deletedObjects])
    mergeGroups()
    mergeEntries(remoteTombstones: tombstones.byUUID)
    deleteGroups()
    restoreMissingParents()
    var kept = tombstones.order.compactMap { uuid in
      tree.entries[uuid] == nil && tree.groups[uuid] == nil ? tombstones.byUUID[uuid] : nil
    }
    for uuid in deletedByMerge where tombstones.byUUID[uuid] == nil {
      kept.append(DeletedObject(uuid: uuid, deletionTime: now))
    }
    var merged = local
    let (meta, metaChanges, metaConflicts) = MetaMerge.threeWay(
      base: baseMeta, local: local.meta, remote: remote.meta, tombstones: tombstones.byUUID)
    merged.meta = meta
    MergeSupport.trimHistory(of: historyChanged, in: &tree, meta: meta, pool: pool)
    merged.root = tree.build(extraOrder: extraOrder)
    merged.binaries = pool
    merged.deletedObjects = kept.isEmpty && local.deletedObjects == nil ? nil : kept
    var report = MergeDiff.report(local: local, merged: merged, tombstones: tombstones.byUUID)
    report.changes += metaChanges
    report.conflicts = MergeDiff.locate(conflicts, local: local, merged: merged) + metaConflicts
    return MergeResult(database: merged, report: report)
  }

  // MARK: groups

  mutating func mergeGroups() {
    var order = tree.groupOrder
    for uuid in remoteTree.groupOrder where tree.groups[uuid] == nil { order.append(uuid) }
    for uuid in order where uuid != tree.rootUUID || tree.groups[uuid] != nil {
      let base = baseTree.groups[uuid]
      let remoteNode = remoteTree.groups[uuid]
      guard var node = tree.groups[uuid] else {
        // Remote only: added remotely, or deleted locally.
        guard var added = remoteNode else { continue }
        if let base {
          guard !MergeEquivalence.same(added.group, base.group) || added.parent != base.parent else { continue }
          conflicts.append(
            MergeConflict(object: .group, uuid: uuid, kind: .deletedLocallyEditedRemotely, remoteGroup: added.group))
        }
        added.children = []
        tree.groups[uuid] = added
        extraOrder.append(.group(uuid))
        continue
      }
      guard let remoteNode else {
        // Local only: added locally (kept), or deleted remotely (decided in deleteGroups once entries are placed).
        if let base, !MergeEquivalence.same(node.group, base.group) || node.parent != base.parent {
          conflicts.append(MergeConflict(object: .group, uuid: uuid, kind: .editedLocallyDeletedRemotely))
        } else if base != nil {
          deletedByMerge.append(uuid)
        }
        continue
      }
      if !MergeEquivalence.same(node.group, remoteNode.group) {
        if let base, MergeEquivalence.same(base.group, node.group) {
          let location = (node.group.times?.locationChanged, node.group.previousParentGroup)
          node.group = remoteNode.group
          node.group.times?.locationChanged = location.0
          node.group.previousParentGroup = location.1
        } else if let base, MergeEquivalence.same(base.group, remoteNode.group) {
          // Local change only.
        } else {
          conflicts.append(
            MergeConflict(
              object: .group, uuid: uuid, kind: base == nil ? .addedOnBothSides : .editedOnBothSides,
              remoteGroup: remoteNode.group))
        }
      }
      if uuid != tree.rootUUID, let remoteParent = remoteNode.parent, remoteParent != node.parent {
        if base?.parent == node.parent, tree.groups[remoteParent] != nil, !tree.isDescendant(remoteParent, of: uuid) {
          node.parent = remoteParent
          node.group.times?.locationChanged = remoteNode.group.times?.locationChanged
          node.group.previousParentGroup = remoteNode.group.previousParentGroup
          extraOrder.append(.group(uuid))
        } else if base?.parent != remoteParent {
          conflicts.append(
            MergeConflict(
              object: .group, uuid: uuid, kind: .movedToDifferentGroups(local: node.parent, remote: remoteParent),
              remoteGroup: remoteNode.group))
        }
      }
      tree.groups[uuid] = node
    }
  }

  /// Removes groups deleted remotely (and unchanged locally) once they hold nothing; a group that still holds
  /// survivors is kept and its deletion reported as a conflict.
  mutating func deleteGroups() {
    let pending = MergeDeletions.removeEmptyGroups(deletedByMerge, from: &tree)
    for uuid in pending {
      deletedByMerge.removeAll { $0 == uuid }
      conflicts.append(MergeConflict(object: .group, uuid: uuid, kind: .editedLocallyDeletedRemotely))
    }
  }

  /// Any object whose group is gone (deleted locally while the remote side added or changed something inside)
  /// brings its group back from the remote side, reported as a conflict; failing that it goes to the root.
  mutating func restoreMissingParents() {
    var guardCount = 0
    var missing = missingParents()
    while let parent = missing.first, guardCount < 10_000 {
      guardCount += 1
      if var node = remoteTree.groups[parent] {
        node.children = []
        if let grandparent = node.parent, tree.groups[grandparent] == nil, remoteTree.groups[grandparent] == nil {
          node.parent = tree.rootUUID
        }
        tree.groups[parent] = node
        extraOrder.append(.group(parent))
        conflicts.append(
          MergeConflict(object: .group, uuid: parent, kind: .deletedLocallyEditedRemotely, remoteGroup: node.group))
      } else {
        for (uuid, node) in tree.entries where node.parent == parent { tree.entries[uuid]?.parent = tree.rootUUID }
        for (uuid, node) in tree.groups where node.parent == parent { tree.groups[uuid]?.parent = tree.rootUUID }
      }
      missing = missingParents()
    }
  }

  func missingParents() -> [KDBXUUID] {
    var result: [KDBXUUID] = []
    for node in tree.entries.values where tree.groups[node.parent] == nil { result.append(node.parent) }
    for node in tree.groups.values {
      if let parent = node.parent, tree.groups[parent] == nil { result.append(parent) }
    }
    return result
  }
}
