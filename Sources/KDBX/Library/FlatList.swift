/// One entry of the flat list, with where it lives in the group tree.
///
/// ```swift
/// for item in database.flatEntries where !item.isInRecycleBin {
///   show(item.entry.title, item.groupPath.joined(separator: " / "))
/// }
/// ```
public struct FlatEntry: Sendable, Equatable {
  /// The entry (its current version).
  public var entry: Entry
  /// The names of the groups from below the root down to the entry's parent; empty for an entry in the root.
  public var groupPath: [String]
  /// The UUIDs of the same groups as ``groupPath``.
  public var groupPathUUIDs: [KDBXUUID]
  /// The UUID of the group that directly holds the entry (the root's UUID for an entry in the root).
  public var parentGroupUUID: KDBXUUID
  /// Whether the entry is inside the recycle bin (``Database/recycleBinGroupUUID``) or one of its subgroups.
  public var isInRecycleBin: Bool

  package init(
    entry: Entry, groupPath: [String], groupPathUUIDs: [KDBXUUID], parentGroupUUID: KDBXUUID, isInRecycleBin: Bool
  ) {
    self.entry = entry
    self.groupPath = groupPath
    self.groupPathUUIDs = groupPathUUIDs
    self.parentGroupUUID = parentGroupUUID
    self.isInRecycleBin = isInRecycleBin
  }
}

extension Database {
  /// The UUID of the recycle bin group when the meta data's `RecycleBinUUID` names a group of this database other
  /// than the root (KeePass `PwDatabase.RecycleBinUuid`), else `nil`. The root is never the bin: deleting would
  /// otherwise remove everything for good.
  public var recycleBinGroupUUID: KDBXUUID? {
    guard recycleBinPosition != nil else { return nil }
    return meta.recycleBinUUID
  }

  /// Every entry of the tree, in KeePass's pre-order (a group's entries, then its subgroups), each with its group
  /// path. The root is not part of any path. Recycle-bin entries are included and flagged.
  public var flatEntries: [FlatEntry] {
    guard let root else { return [] }
    let bin = meta.recycleBinUUID.flatMap { $0.isZero ? nil : $0 }
    var out: [FlatEntry] = []
    root.forEachEntry { entry, chain in
      let below = chain.dropFirst()
      out.append(
        FlatEntry(
          entry: entry, groupPath: below.map { $0.name }, groupPathUUIDs: below.map { $0.uuid },
          parentGroupUUID: chain.last?.uuid ?? root.uuid,
          isInRecycleBin: bin.map { uuid in below.contains { $0.uuid == uuid } } ?? false))
    }
    return out
  }

  /// The entries a filtered list shows: those whose direct parent is in `selection` (an empty selection does not
  /// filter) and that match `search`; recycle-bin entries only when ``EntrySearch/includesRecycleBin`` is set.
  public func displayedEntries(selection: GroupSelection = GroupSelection(), search: EntrySearch = EntrySearch())
    -> [FlatEntry]
  {
    let needle = search.foldedText
    return flatEntries.filter { item in
      (search.includesRecycleBin || !item.isInRecycleBin) && selection.admits(parent: item.parentGroupUUID)
        && search.matches(item.entry, foldedText: needle)
    }
  }
}
