// Deleting, moving and the recycle bin, as KeePass does them (KeePass `EntryUtil`/`MainForm` delete commands,
// KDBX 4.1 `PreviousParentGroup` and `Times/LocationChanged`).

/// What a delete did.
public enum DeletionOutcome: Sendable, Equatable {
  /// The object was moved into the recycle bin.
  case movedToRecycleBin
  /// The object was removed and `DeletedObject` tombstones were recorded.
  case deletedPermanently
  /// There is no such object, or it cannot be deleted (the root group).
  case notFound
}

extension Database {
  /// The KeePass standard icon of the recycle bin group (`PwIcon.TrashBin`).
  public static let recycleBinIconID: Int64 = 43
  /// The name KeePass gives a new recycle bin group.
  public static let recycleBinName = "Recycle Bin"

  /// Whether the recycle bin is enabled (``Meta/recycleBinEnabled``; KeePass's default is enabled).
  public var isRecycleBinEnabled: Bool { meta.recycleBinEnabled ?? true }

  /// Whether group `uuid` is the recycle bin or inside it.
  public func isInRecycleBin(group uuid: KDBXUUID) -> Bool {
    guard let bin = recycleBinGroupUUID, let root, let path = root.indexPath(ofGroup: uuid) else { return false }
    for depth in 0...path.count where root.group(at: path.prefix(depth))?.uuid == bin { return true }
    return false
  }

  /// Whether entry `uuid` is inside the recycle bin.
  public func isInRecycleBin(entry uuid: KDBXUUID) -> Bool {
    guard let parent = parentGroupUUID(ofEntry: uuid) else { return false }
    return isInRecycleBin(group: parent)
  }

  /// The recycle bin group's UUID, creating the group in the root when there is none (KeePass
  /// `EnsureRecycleBin`): named "Recycle Bin", icon 43, auto-type and searching disabled, and
  /// ``Meta/recycleBinUUID`` and ``Meta/recycleBinChanged`` set. `nil` for a database without a root.
  @discardableResult
  public mutating func ensureRecycleBin(clock: some WallClock, random: inout some RandomNumberGenerator) -> KDBXUUID? {
    if let existing = recycleBinGroupUUID { return existing }
    guard root != nil else { return nil }
    var bin = Group.new(name: Database.recycleBinName, clock: clock, random: &random)
    bin.iconID = Database.recycleBinIconID
    bin.enableAutoType = .some(false)
    bin.enableSearching = .some(false)
    root?.appendGroup(bin)
    meta.recycleBinUUID = bin.uuid
    meta.recycleBinChanged = clock.now()
    return bin.uuid
  }

  /// Deletes entry `uuid`: moves it into the recycle bin (creating the bin if needed), or, when the bin is disabled
  /// or the entry already is in it, removes it and records a ``DeletedObject``.
  @discardableResult
  public mutating func deleteEntry(
    _ uuid: KDBXUUID, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> DeletionOutcome {
    guard entry(withUUID: uuid) != nil else { return .notFound }
    if isRecycleBinEnabled && !isInRecycleBin(entry: uuid),
      let bin = ensureRecycleBin(clock: clock, random: &random), moveEntry(uuid, to: bin, clock: clock)
    {
      return .movedToRecycleBin
    }
    guard var tree = root, let location = tree.location(ofEntry: uuid) else { return .notFound }
    tree.modifyGroup(at: location.groupPath[...]) { group in _ = group.removeEntry(at: location.index) }
    root = tree
    addTombstones([uuid], clock: clock)
    return .deletedPermanently
  }

  /// Deletes group `uuid` with its content: moves it into the recycle bin, or, when the bin is disabled, the group
  /// is in the bin, or it is (or holds) the bin, removes it and records a ``DeletedObject`` for the group and every
  /// group and entry inside it (KeePass `PwGroup.DeleteAllObjects`). The root cannot be deleted.
  @discardableResult
  public mutating func deleteGroup(
    _ uuid: KDBXUUID, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> DeletionOutcome {
    guard let tree = root, let path = tree.indexPath(ofGroup: uuid), !path.isEmpty,
      let group = tree.group(at: path[...])
    else { return .notFound }
    let holdsBin = recycleBinGroupUUID.map { bin in bin == uuid || group.descendantGroupUUIDs.contains(bin) } ?? false
    if isRecycleBinEnabled && !holdsBin && !isInRecycleBin(group: uuid),
      let bin = ensureRecycleBin(clock: clock, random: &random), moveGroup(uuid, to: bin, clock: clock)
    {
      return .movedToRecycleBin
    }
    guard var current = root, let currentPath = current.indexPath(ofGroup: uuid), let last = currentPath.last else {
      return .notFound
    }
    current.modifyGroup(at: currentPath.dropLast()) { parent in _ = parent.removeGroup(at: last) }
    root = current
    addTombstones(group.allEntryUUIDs + group.descendantGroupUUIDs + [uuid], clock: clock)
    return .deletedPermanently
  }

  /// Permanently deletes everything inside the recycle bin (the bin group stays), recording tombstones. Returns the
  /// number of entries and groups removed.
  @discardableResult
  public mutating func emptyRecycleBin(clock: some WallClock) -> Int {
    guard let bin = recycleBinGroupUUID, let group = group(withUUID: bin) else { return 0 }
    let removed = group.allEntryUUIDs + group.descendantGroupUUIDs
    modifyGroup(bin) { group in
      group.entries.removeAll()
      group.groups.removeAll()
      group.childOrder.removeAll()
    }
    addTombstones(removed, clock: clock)
    return removed.count
  }

  /// Moves entry `uuid` into group `target`, setting ``Times/locationChanged`` from `clock` and
  /// ``Entry/previousParentGroup`` to the old parent (KDBX 4.1). Returns `false` when either is unknown; moving
  /// to the current parent changes nothing and returns `true`.
  @discardableResult
  public mutating func moveEntry(_ uuid: KDBXUUID, to target: KDBXUUID, clock: some WallClock) -> Bool {
    guard var tree = root, let location = tree.location(ofEntry: uuid), tree.indexPath(ofGroup: target) != nil,
      let oldParent = tree.group(at: location.groupPath[...])?.uuid
    else { return false }
    if oldParent == target { return true }
    var moving: Entry? = nil
    tree.modifyGroup(at: location.groupPath[...]) { group in moving = group.removeEntry(at: location.index) }
    guard var entry = moving, let targetPath = tree.indexPath(ofGroup: target) else { return false }
    entry.previousParentGroup = oldParent
    var times = entry.times ?? Times()
    times.locationChanged = clock.now()
    entry.times = times
    tree.modifyGroup(at: targetPath[...]) { $0.appendEntry(entry) }
    root = tree
    return true
  }

  /// Moves group `uuid` (with its content) into group `target`, setting its ``Times/locationChanged`` and
  /// ``Group/previousParentGroup``. Returns `false` for the root, unknown groups, or a target inside the moved
  /// group.
  @discardableResult
  public mutating func moveGroup(_ uuid: KDBXUUID, to target: KDBXUUID, clock: some WallClock) -> Bool {
    guard var tree = root, let path = tree.indexPath(ofGroup: uuid), let last = path.last,
      let moved = tree.group(at: path[...]), tree.indexPath(ofGroup: target) != nil,
      target != uuid, !moved.descendantGroupUUIDs.contains(target),
      let oldParent = tree.group(at: path.dropLast())?.uuid
    else { return false }
    if oldParent == target { return true }
    tree.modifyGroup(at: path.dropLast()) { parent in _ = parent.removeGroup(at: last) }
    guard let targetPath = tree.indexPath(ofGroup: target) else { return false }
    var group = moved
    group.previousParentGroup = oldParent
    var times = group.times ?? Times()
    times.locationChanged = clock.now()
    group.times = times
    tree.modifyGroup(at: targetPath[...]) { $0.appendGroup(group) }
    root = tree
    return true
  }

  /// Records a tombstone for each UUID, at `clock`'s now.
  mutating func addTombstones(_ uuids: [KDBXUUID], clock: some WallClock) {
    let now = clock.now()
    var list = deletedObjects ?? []
    for uuid in uuids { list.append(DeletedObject(uuid: uuid, deletionTime: now)) }
    deletedObjects = list
  }
}
