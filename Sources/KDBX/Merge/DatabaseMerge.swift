/// Merging two versions of a database by UUID and timestamps.
///
/// - ``synchronize(local:remote:mode:)``: the two-way synchronisation KeePass and KeePassXC perform ("Synchronize"
///   mode): groups and entries are matched by UUID and compared by meaning (`MergeEquivalence`: field order,
///   default values written out or left out, and the app that wrote the file do not count, so merging a vault
///   with another app's re-save of it changes nothing); for an object whose two versions differ, the one with
///   the newer `LastModificationTime` supplies the content and the other goes to the entry's history (history is
///   a union of versions, ordered by modification time); two different versions with the same time are a
///   ``MergeConflict`` (``MergeConflict/Kind/sameModificationTime``): the local one stays and the remote one goes to
///   the history, where KeePass 2 would take the remote one and drop the local one; the parent comes from the side
///   with the newer `LocationChanged` (moves);
///   `DeletedObjects` of both sides are united, and an object is deleted only when its deletion is not older than
///   its last modification, so an edit made after a deletion survives; a deleted group that still holds surviving
///   objects is kept. `Meta` fields follow their `*Changed` timestamps and custom icons are united by UUID (newer
///   `LastModificationTime` wins).
/// - ``threeWay(base:local:remote:now:)``: given the common ancestor, changes made on one side only are taken
///   without looking at clocks, and changes made on both sides are reported as ``MergeConflict``s instead of
///   being decided by timestamps.
///
/// Both return a ``MergeResult``; the report lists every change made to `local` and every conflict, with paths (for
/// a dry run, keep the ``MergeResult/report`` and drop the database).
/// Each entry whose history the merge changed is then trimmed to the merged `Meta/HistoryMaxItems` and
/// `HistoryMaxSize` (oldest versions first; a negative limit means none; absent limits are KeePass's defaults of
/// 10 items and 6 MiB), as KeePass 2 does at the end of `PwDatabase.MergeIn` (`MaintainBackups`); unlike KeePass,
/// entries the merge did not touch keep their history as it is, so that merging a vault with a copy of itself
/// changes nothing. Histories are united and compared through hashed sets of versions, so the work grows linearly
/// with the number of history items (sorting aside).
///
/// ```swift
/// let result = DatabaseMerge.synchronize(local: database, remote: remote)
/// database = result.database
/// let threeWay = DatabaseMerge.threeWay(base: base, local: database, remote: remote, now: clock.now())
/// ```
public enum DatabaseMerge {
  /// How the two-way merge treats `DeletedObjects`.
  ///
  /// ```swift
  /// let result = DatabaseMerge.synchronize(local: database, remote: remote, mode: .keepNewer)
  /// database = result.database  // objects deleted on one side only came back
  /// ```
  public enum Mode: Sendable, Equatable {
    /// KeePass's and KeePassXC's "Synchronize": tombstones of both sides are united and applied (an object is
    /// deleted unless it was modified after its deletion).
    case synchronize
    /// KeePassXC's default merge mode "KeepNewer" (what `keepassxc-cli merge` and the GUI's "Merge from
    /// database" do, since KeePassXC does not store a group merge mode in the file): the same matching, but no
    /// deletion is applied and the local `DeletedObjects` stay as they are, so objects deleted on one side come
    /// back from the other.
    case keepNewer
  }

  /// Two-way synchronisation of `remote` into `local` (KeePassXC `Merger`, mode Synchronize; KeePass
  /// `PwDatabase.MergeIn` with `PwMergeMethod.Synchronize`).
  public static func synchronize(local: Database, remote: Database, mode: Mode = .synchronize) -> MergeResult {
    var merger = Synchronizer(local: local, remote: remote, mode: mode)
    return merger.run()
  }

  /// The changes ``synchronize(local:remote:mode:)`` would make, without the merged database.
  package static func synchronizeDryRun(local: Database, remote: Database, mode: Mode = .synchronize) -> MergeReport {
    synchronize(local: local, remote: remote, mode: mode).report
  }
}

/// The two-way merge.
struct Synchronizer {
  let local: Database
  let remote: Database
  let mode: DatabaseMerge.Mode
  var pool: BinaryPool
  var tree: MergeTree
  var remoteTree: MergeTree
  var extraOrder: [MergeTree.Child] = []
  var keptLocal: Set<KDBXUUID> = []
  var historyChanged: [KDBXUUID] = []
  var conflicts: [MergeConflict] = []

  init(local: Database, remote: Database, mode: DatabaseMerge.Mode) {
    let sides = MergeSupport.Sides(local: local, remote: remote)
    (self.local, self.remote, pool, tree, remoteTree) = (
      sides.local, sides.remote, sides.pool, sides.tree, sides.remoteTree
    )
    self.mode = mode
  }

  mutating func run() -> MergeResult {
    mergeGroups()
    mergeEntries()
    var merged = local
    let tombstones: (order: [KDBXUUID], byUUID: [KDBXUUID: DeletedObject])
    if mode == .synchronize {
      tombstones = MergeSupport.tombstones([local.deletedObjects, remote.deletedObjects])
      let kept = MergeDeletions.apply(tombstones, to: &tree)
      merged.deletedObjects = kept.isEmpty && local.deletedObjects == nil ? nil : kept
    } else {
      tombstones = ([], [:])
    }
    let (meta, metaChanges) = MetaMerge.twoWay(local: local.meta, remote: remote.meta, tombstones: tombstones.byUUID)
    merged.meta = meta
    MergeSupport.trimHistory(of: historyChanged, in: &tree, meta: meta, pool: pool)
    merged.root = tree.build(extraOrder: extraOrder)
    merged.binaries = pool
    var report = MergeDiff.report(local: local, merged: merged, tombstones: tombstones.byUUID, keptLocal: keptLocal)
    report.changes += metaChanges
    report.conflicts = MergeDiff.locate(conflicts, local: local, merged: merged)
    return MergeResult(database: merged, report: report)
  }

  /// Groups in remote pre-order, so that a parent exists before its children are placed.
  mutating func mergeGroups() {
    for uuid in remoteTree.groupOrder {
      guard let remoteNode = remoteTree.groups[uuid] else { continue }
      guard var node = tree.groups[uuid] else {
        var added = remoteNode
        added.children = []
        tree.groups[uuid] = added
        extraOrder.append(.group(uuid))
        continue
      }
      let localTimes = node.group.times
      if !MergeEquivalence.same(remoteNode.group, node.group) {
        let remoteTime = MergeSupport.modified(remoteNode.group.times)
        let localTime = MergeSupport.modified(localTimes)
        if remoteTime > localTime {
          node.group = remoteNode.group
          // The location fields stay with the side whose move is newer (below).
          node.group.times?.locationChanged = localTimes?.locationChanged
          node.group.previousParentGroup = tree.groups[uuid]?.group.previousParentGroup
        } else if remoteTime == localTime {
          conflicts.append(
            MergeConflict(object: .group, uuid: uuid, kind: .sameModificationTime, remoteGroup: remoteNode.group))
        }
      }
      if uuid != tree.rootUUID, let newParent = remoteNode.parent, newParent != node.parent,
        MergeSupport.located(remoteNode.group.times) > MergeSupport.located(localTimes),
        tree.groups[newParent] != nil, !tree.isDescendant(newParent, of: uuid)
      {
        node.parent = newParent
        node.group.times?.locationChanged = remoteNode.group.times?.locationChanged
        node.group.previousParentGroup = remoteNode.group.previousParentGroup
        extraOrder.append(.group(uuid))
      }
      tree.groups[uuid] = node
    }
  }

  /// Entries in remote order.
  mutating func mergeEntries() {
    for groupUUID in remoteTree.groupOrder {
      for child in remoteTree.groups[groupUUID]?.children ?? [] {
        guard case .entry(let uuid) = child, let remoteNode = remoteTree.entries[uuid] else { continue }
        guard let node = tree.entries[uuid] else {
          tree.entries[uuid] = remoteNode
          extraOrder.append(.entry(uuid))
          continue
        }
        let merged = Synchronizer.mergeEntry(local: node, remote: remoteNode, tree: tree, pool: pool)
        tree.entries[uuid] = merged.node
        // A losing remote version that the local history already holds changes nothing and is not reported.
        switch merged.outcome {
        case .same, .remoteWon: break
        case .localWon: if merged.historyAdded > 0 { keptLocal.insert(uuid) }
        case .sameTime:
          if merged.historyAdded > 0 {
            conflicts.append(
              MergeConflict(object: .entry, uuid: uuid, kind: .sameModificationTime, remoteEntry: remoteNode.entry))
          }
        }
        if merged.historyAdded > 0 { historyChanged.append(uuid) }
        if merged.node.parent != node.parent { extraOrder.append(.entry(uuid)) }
      }
    }
  }

  /// Which version of an entry won.
  enum Outcome {
    case same
    case remoteWon
    case localWon
    case sameTime
  }

  /// KeePassXC's "merge histories" resolution: newer content wins, the other version and both histories form the
  /// history (KeePass 2 `PwDatabase.MergeIn`: `CreateBackup` of the older version unless the history already has
  /// it, then `MergeEntryHistory`); the newer `LocationChanged` decides the group.
  static func mergeEntry(local: MergeTree.EntryNode, remote: MergeTree.EntryNode, tree: MergeTree, pool: BinaryPool)
    -> (node: MergeTree.EntryNode, outcome: Outcome, historyAdded: Int)
  {
    let l = local.entry
    let r = remote.entry
    var current: Entry
    let outcome: Outcome
    let added: Int
    if MergeEquivalence.same(l, r, pool: pool) {
      current = l
      (current.history, added) = MergeSupport.unionHistory(l.history, adding: r.history ?? [], pool: pool)
      outcome = .same
    } else if MergeSupport.modified(r.times) > MergeSupport.modified(l.times) {
      current = r
      (current.history, added) = MergeSupport.unionHistory(r.history, adding: (l.history ?? []) + [l], pool: pool)
      outcome = .remoteWon
    } else {
      // Local is newer, or equally new with different content: keep local, remote goes to history.
      current = l
      (current.history, added) = MergeSupport.unionHistory(l.history, adding: (r.history ?? []) + [r], pool: pool)
      outcome = MergeSupport.modified(r.times) == MergeSupport.modified(l.times) ? .sameTime : .localWon
    }
    if current.history?.isEmpty == true && l.history == nil && r.history == nil { current.history = nil }
    var parent = local.parent
    if remote.parent != local.parent, MergeSupport.located(r.times) > MergeSupport.located(l.times),
      tree.groups[remote.parent] != nil
    {
      parent = remote.parent
      current.times?.locationChanged = r.times?.locationChanged
      current.previousParentGroup = r.previousParentGroup
    } else {
      current.times?.locationChanged = l.times?.locationChanged
      current.previousParentGroup = l.previousParentGroup
    }
    let outcomeAdded = outcome == .remoteWon ? max(added, 1) : added
    return (MergeTree.EntryNode(entry: current, parent: parent), outcome, outcomeAdded)
  }
}
