/// One change a merge makes to the local database, as listed by a dry run (``MergeReport``).
///
/// ```swift
/// for change in report.changes where change.object == .entry {
///   let place = change.path.joined(separator: " / ")
///   if case .added = change.action { show("Added", place) }
/// }
/// ```
public struct MergeChange: Sendable, Equatable {
  /// What kind of object changes.
  ///
  /// ```swift
  /// let entriesChanged = report.changes.filter { $0.object == .entry }.count
  /// let groupsChanged = report.changes.filter { $0.object == .group }.count
  /// ```
  public enum Object: Sendable, Equatable {
    case entry
    case group
    case meta
    case customIcon
    case deletedObject
  }

  /// What happens to it.
  ///
  /// ```swift
  /// for change in report.changes {
  ///   switch change.action {
  ///   case .added: show("Added", change.path.joined(separator: " / "))
  ///   case .deleted: show("Deleted", change.path.joined(separator: " / "))
  ///   case .moved: show("Moved", change.path.joined(separator: " / "))
  ///   default: break
  ///   }
  /// }
  /// ```
  public enum Action: Sendable, Equatable {
    /// Added from the remote database, into group `parent`.
    case added(parent: KDBXUUID?)
    /// Replaced by the remote version, which is newer: the remote version wins (an entry's local version goes to
    /// its history).
    case updated
    /// The two versions differ and the local one is newer: the local version wins and stays, and the remote one
    /// goes to the entry's history (entries only; a group's older remote version is not applied, which changes
    /// nothing).
    case keptLocal
    /// Versions added to the history: from the other side's history, and the version that lost (the history is a
    /// union of versions, ordered by modification time).
    case historyMerged(count: Int)
    /// Versions removed from the local history to keep it within `Meta/HistoryMaxItems` and `HistoryMaxSize`
    /// (oldest first, as KeePass does after a merge).
    case historyTrimmed(count: Int)
    /// Moved, because the remote `LocationChanged` is newer.
    case moved(from: KDBXUUID?, to: KDBXUUID?)
    /// Deleted: the other side deleted it after its last modification.
    case deleted
    /// Kept although the other side deleted it, because it was modified after the deletion (or, for a
    /// group, still holds objects that survive).
    case deletionOverridden
    /// A `Meta` field taken from the remote side (its `*Changed` timestamp is newer); names as in the XML.
    case metaField(String)
    /// A tombstone (`DeletedObjects/DeletedObject`) added to the local list.
    case recorded
  }

  public var object: Object
  /// The object's UUID (`nil` for `Meta` fields).
  public var uuid: KDBXUUID?
  public var action: Action
  /// Where the object is after the merge (where it was, when it is deleted): the names of the groups below the
  /// root, then the entry's title (a group's own name last). Empty for `Meta`, custom icons and tombstones.
  public var path: [String]
  /// Where the object was before the merge, when that differs from ``path`` (a move, a renamed group or entry).
  public var oldPath: [String]?

  package init(object: Object, uuid: KDBXUUID?, action: Action, path: [String] = [], oldPath: [String]? = nil) {
    self.object = object
    self.uuid = uuid
    self.action = action
    self.path = path
    self.oldPath = oldPath
  }
}

/// A merge conflict: in a three-way merge, both sides changed the same thing differently since the common
/// ancestor; in a two-way merge, two different versions carry the same modification time (``Kind/sameModificationTime``).
///
/// The merged database stays loss-free for conflicted objects: an entry edited on both sides keeps the local
/// version with the remote one added to its history; an object deleted on one side and changed on the other is
/// kept; an object moved to different groups stays in its local group. ``remoteEntry`` and ``remoteGroup`` carry
/// the remote version so that an app can ask the user and apply the other choice.
///
/// Showing each conflict, and taking the other device's fields where the user picks them:
///
/// ```swift
/// for conflict in report.conflicts {
///   guard let theirs = conflict.remoteEntry else { continue }
///   show("Changed on both devices", conflict.path.joined(separator: " / "))
///   database.editEntry(theirs.uuid, clock: clock) { $0.fields = theirs.fields }  // ours goes to the history
/// }
/// ```
public struct MergeConflict: Sendable, Equatable {
  /// What the two sides did to the object.
  ///
  /// ```swift
  /// for conflict in report.conflicts {
  ///   let place = conflict.path.joined(separator: " / ")
  ///   switch conflict.kind {
  ///   case .editedOnBothSides, .sameModificationTime: show("Changed on both devices", place)
  ///   case .deletedLocallyEditedRemotely, .editedLocallyDeletedRemotely: show("Deleted on one device, kept", place)
  ///   default: break
  ///   }
  /// }
  /// ```
  public enum Kind: Sendable, Equatable {
    /// Changed on both sides to different content.
    case editedOnBothSides
    /// New on both sides with the same UUID and different content.
    case addedOnBothSides
    /// Deleted locally, changed remotely.
    case deletedLocallyEditedRemotely
    /// Changed locally, deleted remotely.
    case editedLocallyDeletedRemotely
    /// Moved to different groups on the two sides.
    case movedToDifferentGroups(local: KDBXUUID?, remote: KDBXUUID?)
    /// A `Meta` field (named as in the XML) changed on both sides to different values.
    case metaField(String)
    /// Two-way merge: the two versions differ but have the same `LastModificationTime`, so neither is newer. The
    /// local version stays; an entry gets the remote version in its history (nothing is lost), a group keeps
    /// its local data (``MergeConflict/remoteGroup`` has the other).
    case sameModificationTime
  }

  public var object: MergeChange.Object
  public var uuid: KDBXUUID?
  public var kind: Kind
  /// Where the object is after the merge, as ``MergeChange/path``.
  public var path: [String]
  /// The remote version of a conflicted entry, when it exists.
  public var remoteEntry: Entry?
  /// The remote version of a conflicted group (without its children), when it exists.
  public var remoteGroup: Group?

  package init(
    object: MergeChange.Object, uuid: KDBXUUID?, kind: Kind, remoteEntry: Entry? = nil, remoteGroup: Group? = nil,
    path: [String] = []
  ) {
    self.object = object
    self.uuid = uuid
    self.kind = kind
    self.remoteEntry = remoteEntry
    self.remoteGroup = remoteGroup
    self.path = path
  }
}

/// Everything a merge changes in the local database, in tree order, and the conflicts it found (three-way: changes
/// made on both sides; two-way: different versions with the same modification time).
///
/// A dry run:
///
/// ```swift
/// let report = DatabaseMerge.synchronize(local: database, remote: remote).report
/// if !report.isEmpty {
///   show("Merge", "\(report.changes.count) changes, \(report.conflicts.count) conflicts")
/// }
/// ```
public struct MergeReport: Sendable, Equatable {
  public var changes: [MergeChange]
  public var conflicts: [MergeConflict]

  package init(changes: [MergeChange] = [], conflicts: [MergeConflict] = []) {
    self.changes = changes
    self.conflicts = conflicts
  }

  /// Whether the merge leaves the local database as it is.
  public var isEmpty: Bool { changes.isEmpty && conflicts.isEmpty }

  /// The changes to the object with `uuid`.
  package func changes(for uuid: KDBXUUID) -> [MergeChange] { changes.filter { $0.uuid == uuid } }
}

/// A merged database and the report of what changed.
///
/// ```swift
/// let result = DatabaseMerge.threeWay(base: base, local: database, remote: remote, now: clock.now())
/// database = result.database
/// let conflicts = result.report.conflicts  // resolved loss-free; the app may ask the user
/// ```
public struct MergeResult: Sendable, Equatable {
  public var database: Database
  public var report: MergeReport
}
