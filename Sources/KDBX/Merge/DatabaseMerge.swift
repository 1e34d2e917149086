/// Merging two versions of a database by UUID and timestamps.
///
/// - ``synchronize(local:remote:mode:)``: the two-way synchronisation KeePass and KeePassXC perform ("Synchronize"
///   mode): groups and entries are matched by UUID; for an object on both sides the one with the newer
///   `LastModificationTime` supplies the content and the other goes to the entry's history (history is a union,
///   ordered by modification time); the parent comes from the side with the newer `LocationChanged` (moves);
///   `DeletedObjects` of both sides are united, and an object is deleted only when its deletion is not older than
///   its last modification, so an edit made after a deletion survives; a deleted group that still holds surviving
///   objects is kept. `Meta` fields follow their `*Changed` timestamps and custom icons are united by UUID (newer
///   `LastModificationTime` wins).
/// - ``threeWay(base:local:remote:clock:)``: given the common ancestor, changes made on one side only are taken
///   without looking at clocks, and changes made on both sides are reported as ``MergeConflict``s instead of
///   being decided by timestamps.
///
/// Both return a ``MergeResult``; the report lists every change made to `local` (a dry run is the report alone:
/// ``synchronizeDryRun(local:remote:mode:)``, ``threeWayDryRun(base:local:remote:clock:)``). History is not trimmed
/// here; apply the database's `HistoryMaxItems`/`HistoryMaxSize` afterwards if wanted.
public enum DatabaseMerge {
  /// How the two-way merge treats `DeletedObjects`.
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
  public static func synchronizeDryRun(local: Database, remote: Database, mode: Mode = .synchronize) -> MergeReport {
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

  init(local: Database, remote: Database, mode: DatabaseMerge.Mode) {
    self.local = local
    self.remote = remote
    self.mode = mode
    pool = local.binaries
    let localRoot = local.root ?? remote.root ?? Group(uuid: .zero, name: nil)
    tree = MergeTree(root: localRoot)
    var remoteRoot = remote.root ?? Group(uuid: localRoot.uuid, name: nil)
    remoteRoot = Synchronizer.remap(remoteRoot, from: remote.binaries, into: &pool)
    remoteTree = MergeTree(root: remoteRoot, rootAlias: tree.rootUUID)
  }

  static func remap(_ group: Group, from source: BinaryPool, into pool: inout BinaryPool) -> Group {
    var copy = group
    copy.entries = group.entries.map { MergeSupport.remapAttachments($0, from: source, into: &pool) }
    copy.groups = group.groups.map { remap($0, from: source, into: &pool) }
    return copy
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
    merged.root = tree.build(extraOrder: extraOrder)
    merged.binaries = pool
    let (meta, metaChanges) = MetaMerge.twoWay(local: local.meta, remote: remote.meta, tombstones: tombstones.byUUID)
    merged.meta = meta
    var report = MergeDiff.report(local: local, merged: merged, tombstones: tombstones.byUUID)
    report.changes += metaChanges
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
      if MergeSupport.modified(remoteNode.group.times) > MergeSupport.modified(localTimes),
        MergeSupport.content(remoteNode.group) != MergeSupport.content(node.group)
      {
        node.group = remoteNode.group
        // The location fields stay with the side whose move is newer (below).
        node.group.times?.locationChanged = localTimes?.locationChanged
        node.group.previousParentGroup = tree.groups[uuid]?.group.previousParentGroup
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
        tree.entries[uuid] = Synchronizer.mergeEntry(local: node, remote: remoteNode, tree: tree)
        if tree.entries[uuid]?.parent != node.parent { extraOrder.append(.entry(uuid)) }
      }
    }
  }

  /// KeePassXC's "merge histories" resolution: newer content wins, the other version and both histories form the
  /// history; the newer `LocationChanged` decides the group.
  static func mergeEntry(local: MergeTree.EntryNode, remote: MergeTree.EntryNode, tree: MergeTree)
    -> MergeTree.EntryNode
  {
    let l = local.entry
    let r = remote.entry
    var current: Entry
    if MergeSupport.content(l) == MergeSupport.content(r) {
      current = l
      current.history = MergeSupport.unionHistory(l.history, adding: r.history ?? []).history
    } else if MergeSupport.modified(r.times) > MergeSupport.modified(l.times) {
      current = r
      current.history = MergeSupport.unionHistory(r.history, adding: (l.history ?? []) + [l]).history
    } else {
      // Local is newer, or equally new with different content: keep local, remote goes to history.
      current = l
      current.history = MergeSupport.unionHistory(l.history, adding: (r.history ?? []) + [r]).history
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
    return MergeTree.EntryNode(entry: current, parent: parent)
  }
}
