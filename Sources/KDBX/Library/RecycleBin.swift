// Deleting, moving and the recycle bin, as KeePass does them (KeePass `EntryUtil`/`MainForm` delete commands,
// KDBX 4.1 `PreviousParentGroup` and `Times/LocationChanged`).

/// What a delete did.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// switch database.deleteEntry(entryID, clock: clock, random: &random) {
/// case .movedToRecycleBin: show("Deleted", "Moved to the recycle bin")
/// case .deletedPermanently: show("Deleted", "Deleted permanently")
/// case .notFound: break
/// }
/// ```
public enum DeletionOutcome: Sendable, Equatable {
  /// The object was moved into the recycle bin.
  case movedToRecycleBin
  /// The object was removed and `DeletedObject` tombstones were recorded.
  case deletedPermanently
  /// There is no such object, the UUID names more than one object (a damaged file; delete by position), or it
  /// cannot be deleted (the root group).
  case notFound
}

extension Database {
  /// The KeePass standard icon of the recycle bin group (`PwIcon.TrashBin`).
  package static let recycleBinIconID: Int64 = 43
  /// The name KeePass gives a new recycle bin group.
  package static let recycleBinName = "Recycle Bin"

  /// Whether the recycle bin is enabled (``Meta/recycleBinEnabled``; KeePass's default is enabled).
  public var isRecycleBinEnabled: Bool { meta.recycleBinEnabled ?? true }

  /// The position of the recycle bin group: the first group in tree order whose UUID is
  /// `Meta/recycleBinUUID` (KeePass `PwGroup.FindGroup`), never the root. `nil` when there is none.
  package var recycleBinPosition: GroupPosition? {
    guard let uuid = meta.recycleBinUUID, !uuid.isZero, let root else { return nil }
    return root.indexPaths(ofGroup: uuid).first { !$0.isEmpty }.map { GroupPosition(indexPath: $0) }
  }

  /// Whether group `uuid` is the recycle bin or inside it (the first group with that UUID, in tree order).
  public func isInRecycleBin(group uuid: KDBXUUID) -> Bool {
    guard let position = positions(ofGroup: uuid).first else { return false }
    return isInRecycleBin(groupAt: position)
  }

  /// Whether entry `uuid` is inside the recycle bin (the first entry with that UUID, in tree order).
  public func isInRecycleBin(entry uuid: KDBXUUID) -> Bool {
    guard let position = positions(ofEntry: uuid).first else { return false }
    return isInRecycleBin(groupAt: position.group)
  }

  /// Whether the group at `position` is the recycle bin or inside it.
  func isInRecycleBin(groupAt position: GroupPosition) -> Bool {
    guard let bin = recycleBinPosition else { return false }
    return position.isInside(bin)
  }

  /// The recycle bin group's UUID, creating the group in the root when there is none (KeePass
  /// `EnsureRecycleBin`): named "Recycle Bin", icon 43, auto-type and searching disabled, and
  /// the meta data's recycle bin UUID and change time set. A recycle bin UUID that names the root
  /// group, or no group, counts as none: the root is never the bin. `nil` for a database without a root.
  @discardableResult
  public mutating func ensureRecycleBin(clock: some WallClock, random: inout some RandomNumberGenerator) -> KDBXUUID? {
    guard let position = ensureRecycleBinPosition(clock: clock, random: &random) else { return nil }
    return group(at: position)?.uuid
  }

  /// ``ensureRecycleBin(clock:random:)``, returning the bin's position.
  mutating func ensureRecycleBinPosition(
    clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> GroupPosition? {
    if let existing = recycleBinPosition { return existing }
    guard var tree = takeRoot() else { return nil }
    var bin = Group.new(name: Database.recycleBinName, clock: clock, random: &random)
    bin.iconID = Database.recycleBinIconID
    bin.enableAutoType = .some(false)
    bin.enableSearching = .some(false)
    tree.appendGroup(bin)
    root = tree
    meta.recycleBinUUID = bin.uuid
    meta.recycleBinChanged = clock.now()
    return GroupPosition(indexPath: [tree.groups.count - 1])
  }

  /// Deletes entry `uuid`: moves it into the recycle bin (creating the bin if needed), or, when the bin is disabled
  /// or the entry already is in it, removes it and records a tombstone (`DeletedObjects`), so that a merge deletes
  /// it too. Returns ``DeletionOutcome/notFound`` when no entry or more than one has that UUID (a damaged file).
  @discardableResult
  public mutating func deleteEntry(
    _ uuid: KDBXUUID, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> DeletionOutcome {
    guard let position = uniquePosition(ofEntry: uuid) else { return .notFound }
    return deleteEntry(at: position, clock: clock, random: &random)
  }

  /// Deletes the entry at `position` as ``deleteEntry(_:clock:random:)`` does. No tombstone is recorded while
  /// another group or entry still carries the deleted entry's UUID, so that a merge does not delete that one.
  @discardableResult
  package mutating func deleteEntry(
    at position: EntryPosition, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> DeletionOutcome {
    guard let entry = entry(at: position) else { return .notFound }
    if isRecycleBinEnabled && !isInRecycleBin(groupAt: position.group),
      let bin = ensureRecycleBinPosition(clock: clock, random: &random),
      moveEntry(at: position, to: bin, clock: clock)
    {
      return .movedToRecycleBin
    }
    guard modifyGroup(at: position.group, { group in _ = group.removeEntry(at: position.index) }) else {
      return .notFound
    }
    addTombstones([entry.uuid], clock: clock)
    return .deletedPermanently
  }

  /// Deletes group `uuid` with its content as `deleteGroup(at:clock:random:)` does. Returns
  /// ``DeletionOutcome/notFound`` for the root, or when no group or more than one has that UUID.
  @discardableResult
  public mutating func deleteGroup(
    _ uuid: KDBXUUID, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> DeletionOutcome {
    guard let position = uniquePosition(ofGroup: uuid) else { return .notFound }
    return deleteGroup(at: position, clock: clock, random: &random)
  }

  /// Deletes the group at `position` with its content: moves it into the recycle bin (creating the bin if needed),
  /// or, when the bin is disabled or the group is the bin or inside it, removes it and records a `DeletedObject`
  /// for the group and every group and entry inside it (KeePass `PwGroup.DeleteAllObjects`). The root cannot be
  /// deleted (``DeletionOutcome/notFound``).
  ///
  /// When the recycle bin is inside the group, the bin is first moved up to the root, and then the group goes into
  /// it: nothing is lost. (KeePass 2 deletes such a group for good after asking; a library call cannot ask.)
  /// No tombstone is recorded for a UUID that a remaining group or entry still carries.
  @discardableResult
  package mutating func deleteGroup(
    at position: GroupPosition, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> DeletionOutcome {
    guard !position.indexPath.isEmpty, group(at: position) != nil else { return .notFound }
    if isRecycleBinEnabled && !isInRecycleBin(groupAt: position) {
      if let bin = recycleBinPosition, bin.isInside(position) {
        // Moving the bin out changes nothing above it, so `position` still names the group.
        guard moveGroup(at: bin, to: .root, clock: clock) else { return .notFound }
      }
      if let bin = ensureRecycleBinPosition(clock: clock, random: &random),
        moveGroup(at: position, to: bin, clock: clock)
      {
        return .movedToRecycleBin
      }
    }
    guard let last = position.indexPath.last,
      let removed = group(at: position).map({ $0.allEntryUUIDs + $0.descendantGroupUUIDs + [$0.uuid] }),
      modifyGroup(
        at: GroupPosition(indexPath: Array(position.indexPath.dropLast())),
        { parent in
          var dropped = [parent.removeGroup(at: last)]
          Group.releaseIteratively(&dropped)
        })
    else { return .notFound }
    addTombstones(removed, clock: clock)
    return .deletedPermanently
  }

  /// Permanently deletes everything inside the recycle bin (the bin group stays), recording tombstones. Returns the
  /// number of entries and groups removed.
  @discardableResult
  public mutating func emptyRecycleBin(clock: some WallClock) -> Int {
    guard let bin = recycleBinPosition,
      let removed = group(at: bin).map({ $0.allEntryUUIDs + $0.descendantGroupUUIDs })
    else { return 0 }
    modifyGroup(at: bin) { group in
      group.entries.removeAll()
      Group.releaseIteratively(&group.groups)
      group.childOrder.removeAll()
    }
    addTombstones(removed, clock: clock)
    return removed.count
  }

  /// Moves entry `uuid` into group `target`, setting ``Times/locationChanged`` from `clock` and
  /// ``Entry/previousParentGroup`` to the old parent (KDBX 4.1). Returns `false` when either is unknown or names
  /// more than one object (a damaged file); moving to the current parent changes
  /// nothing and returns `true`.
  @discardableResult
  public mutating func moveEntry(_ uuid: KDBXUUID, to target: KDBXUUID, clock: some WallClock) -> Bool {
    guard let position = uniquePosition(ofEntry: uuid), let targetPosition = uniquePosition(ofGroup: target) else {
      return false
    }
    return moveEntry(at: position, to: targetPosition, clock: clock)
  }

  /// Moves the entry at `position` to the end of the group at `target`, as ``moveEntry(_:to:clock:)`` does.
  /// Returns `false` when either does not exist.
  @discardableResult
  package mutating func moveEntry(at position: EntryPosition, to target: GroupPosition, clock: some WallClock) -> Bool {
    // Only the old parent's UUID is kept: a copy of the group would hold its subtree, so that the changes below
    // copied the path to it and the old path was freed at once (recursively) at the end.
    guard var tree = root,
      let oldParent = tree.group(at: position.group.indexPath[...]).flatMap({
        $0.entries.indices.contains(position.index) ? $0.uuid : nil
      }),
      tree.group(at: target.indexPath[...]) != nil
    else { return false }
    if position.group == target { return true }
    root = nil  // `tree` alone holds the tree: the changes below happen in place
    var moving: Entry? = nil
    tree.modifyGroup(at: position.group.indexPath[...]) { group in moving = group.removeEntry(at: position.index) }
    // Removing an entry changes no group's index path, so `target` is still valid.
    guard var entry = moving else {
      root = tree
      return false
    }
    entry.previousParentGroup = oldParent
    var times = entry.times ?? Times()
    times.locationChanged = clock.now()
    entry.times = times
    tree.modifyGroup(at: target.indexPath[...]) { $0.appendEntry(entry) }
    root = tree
    return true
  }

  /// Moves group `uuid` (with its content) into group `target`, setting its ``Times/locationChanged`` and
  /// ``Group/previousParentGroup``. Returns `false` for the root, unknown groups, a target inside the moved
  /// group, or a UUID that more than one group has (a damaged file).
  @discardableResult
  public mutating func moveGroup(_ uuid: KDBXUUID, to target: KDBXUUID, clock: some WallClock) -> Bool {
    guard let position = uniquePosition(ofGroup: uuid), let targetPosition = uniquePosition(ofGroup: target) else {
      return false
    }
    return moveGroup(at: position, to: targetPosition, clock: clock)
  }

  /// Moves the group at `position` (with its content) to the end of the subgroups of the group at `target`, as
  /// ``moveGroup(_:to:clock:)`` does. Returns `false` for the root, a missing group, or a target that is the group
  /// or inside it; moving to the current parent changes nothing and returns `true`.
  @discardableResult
  package mutating func moveGroup(at position: GroupPosition, to target: GroupPosition, clock: some WallClock) -> Bool {
    guard var tree = root, let last = position.indexPath.last, let moved = tree.group(at: position.indexPath[...]),
      tree.group(at: target.indexPath[...]) != nil, !target.isInside(position),
      let oldParent = tree.group(at: position.indexPath.dropLast())?.uuid
    else { return false }
    let parentPath = Array(position.indexPath.dropLast())
    if parentPath == target.indexPath { return true }
    root = nil  // `tree` alone holds the tree: the changes below happen in place
    tree.modifyGroup(at: parentPath[...]) { parent in _ = parent.removeGroup(at: last) }
    // The removal shifts the later siblings of the moved group (and everything below them) up by one.
    var targetPath = target.indexPath
    let depth = parentPath.count
    if targetPath.count > depth, targetPath.starts(with: parentPath), targetPath[depth] > last {
      targetPath[depth] -= 1
    }
    var group = moved
    group.previousParentGroup = oldParent
    var times = group.times ?? Times()
    times.locationChanged = clock.now()
    group.times = times
    // `targetPath` names an existing group that is not the moved one (checked above, then shifted past it).
    let added = tree.modifyGroup(at: targetPath[...]) { $0.appendGroup(group) }
    root = tree
    return added
  }

  /// Records a tombstone for each UUID, at `clock`'s now, except for UUIDs that a group or current entry of the
  /// tree still carries (duplicates in a damaged file): a merge would delete that object too.
  mutating func addTombstones(_ uuids: [KDBXUUID], clock: some WallClock) {
    let now = clock.now()
    let remaining = root?.allObjectUUIDs ?? []
    var list = deletedObjects ?? []
    for uuid in uuids where !remaining.contains(uuid) { list.append(DeletedObject(uuid: uuid, deletionTime: now)) }
    deletedObjects = list
  }
}
