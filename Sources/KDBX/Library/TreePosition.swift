// Positions in the group tree: the way to name one object when UUIDs do not.
//
// KDBX requires every group and entry UUID to be unique (KeePass `KdbxFile` schema, `KUuid` key), but damaged or
// hand-made files break this. KeePass 2 warns on open and gives the later duplicates new UUIDs
// (`PwDatabase.FixDuplicateUuids`); KeePassXC's reader looks objects up by UUID while it parses, so the second
// entry with a UUID replaces the first. This library keeps the file as it is (a save never rewrites UUIDs) and
// offers positions instead: the UUID-based edits act only on a UUID that names exactly one object, and the
// position-based ones act on exactly the object at the position.

/// Where a group sits in the tree: the child indices from the root group down to it (empty for the root).
///
/// A position stays valid until the tree's structure changes (a group or entry is added, removed or moved).
package struct GroupPosition: Hashable, Sendable {
  /// The index of each group in its parent's ``Group/groups``, from the root's children down.
  package var indexPath: [Int]

  package init(indexPath: [Int]) {
    self.indexPath = indexPath
  }

  /// The root group.
  package static let root = GroupPosition(indexPath: [])

  /// Whether this is `other` or a group inside it.
  package func isInside(_ other: GroupPosition) -> Bool {
    indexPath.starts(with: other.indexPath)
  }
}

/// Where a current entry sits: its parent group's position and the entry's index in that group's
/// ``Group/entries``. A position stays valid until the tree's structure changes.
package struct EntryPosition: Hashable, Sendable {
  /// The group that holds the entry.
  package var group: GroupPosition
  /// The entry's index among the group's entries.
  package var index: Int

  package init(group: GroupPosition, index: Int) {
    self.group = group
    self.index = index
  }
}

extension Group {
  /// The index paths of every group with `uuid` in this subtree (this group's own as `[]`), in pre-order.
  func indexPaths(ofGroup uuid: KDBXUUID) -> [[Int]] {
    var found: [[Int]] = self.uuid == uuid ? [[]] : []
    forEachGroupBelow { group, path in
      if group.uuid == uuid { found.append(path) }
      return true
    }
    return found
  }

  /// The locations of every current entry with `uuid` in this subtree, in pre-order.
  func locations(ofEntry uuid: KDBXUUID) -> [(groupPath: [Int], index: Int)] {
    var found: [(groupPath: [Int], index: Int)] = []
    for (index, entry) in entries.enumerated() where entry.uuid == uuid { found.append(([], index)) }
    forEachGroupBelow { group, path in
      for (index, entry) in group.entries.enumerated() where entry.uuid == uuid { found.append((path, index)) }
      return true
    }
    return found
  }

  /// The UUIDs of this group, every group below it and every current entry in them.
  var allObjectUUIDs: Set<KDBXUUID> {
    var out: Set<KDBXUUID> = [uuid]
    for entry in entries { out.insert(entry.uuid) }
    var walk = GroupWalk(below: self)
    while let step = walk.next() {
      guard case .enter(let group, _) = step else { continue }
      out.insert(group.uuid)
      for entry in group.entries { out.insert(entry.uuid) }
    }
    return out
  }
}

extension Database {
  /// The positions of every current (not history) entry whose UUID is `uuid`, in tree order. More than one means
  /// the file breaks KDBX's unique-UUID rule; act on one of them with the position-based edits
  /// (`editEntry(at:clock:_:)`, `deleteEntry(at:clock:random:)`, `moveEntry(at:to:clock:)`).
  package func positions(ofEntry uuid: KDBXUUID) -> [EntryPosition] {
    guard let root else { return [] }
    return root.locations(ofEntry: uuid).map {
      EntryPosition(group: GroupPosition(indexPath: $0.groupPath), index: $0.index)
    }
  }

  /// The positions of every group whose UUID is `uuid` (the root included), in tree order.
  package func positions(ofGroup uuid: KDBXUUID) -> [GroupPosition] {
    guard let root else { return [] }
    return root.indexPaths(ofGroup: uuid).map { GroupPosition(indexPath: $0) }
  }

  /// The entry at `position`, or `nil` when there is none.
  package func entry(at position: EntryPosition) -> Entry? {
    guard let group = group(at: position.group), group.entries.indices.contains(position.index) else { return nil }
    return group.entries[position.index]
  }

  /// The group at `position`, or `nil` when there is none.
  package func group(at position: GroupPosition) -> Group? {
    root?.group(at: position.indexPath[...])
  }

  /// The position of the only current entry with `uuid`; `nil` when there is none or more than one.
  func uniquePosition(ofEntry uuid: KDBXUUID) -> EntryPosition? {
    let found = positions(ofEntry: uuid)
    return found.count == 1 ? found.first : nil
  }

  /// The position of the only group with `uuid`; `nil` when there is none or more than one.
  func uniquePosition(ofGroup uuid: KDBXUUID) -> GroupPosition? {
    let found = positions(ofGroup: uuid)
    return found.count == 1 ? found.first : nil
  }

  /// Runs `body` on the group at `position`; `false` when there is none.
  @discardableResult
  mutating func modifyGroup(at position: GroupPosition, _ body: (inout Group) -> Void) -> Bool {
    guard root?.group(at: position.indexPath[...]) != nil, var tree = takeRoot() else { return false }
    tree.modifyGroup(at: position.indexPath[...], body)
    root = tree
    return true
  }

  /// The root group, taken out of the database (``root`` is `nil` until the caller puts it back). Changes to a
  /// tree the database alone holds then happen in place: on a copy, each group on the path to the change would be
  /// copied, and the old path freed at once (recursively) when the copy replaces it.
  mutating func takeRoot() -> Group? {
    var tree: Group? = nil
    swap(&tree, &root)
    return tree
  }

  /// Runs `body` on the entry at `position`; `false` when there is none.
  @discardableResult
  mutating func modifyEntry(at position: EntryPosition, _ body: (inout Entry) -> Void) -> Bool {
    guard entry(at: position) != nil else { return false }
    return modifyGroup(at: position.group) { group in body(&group.entries[position.index]) }
  }

  /// Adds `entry` to the group at `position`. Returns `false` when there is no such group.
  @discardableResult
  package mutating func addEntry(_ entry: Entry, to position: GroupPosition) -> Bool {
    modifyGroup(at: position) { $0.appendEntry(entry) }
  }

  /// Adds `group` as the last subgroup of the group at `position`. Returns `false` when there is no such group.
  @discardableResult
  package mutating func addGroup(_ group: Group, to position: GroupPosition) -> Bool {
    modifyGroup(at: position) { $0.appendGroup(group) }
  }
}
