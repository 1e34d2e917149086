// Navigation and in-place editing of the group tree, shared by the library features in this folder.

extension Group {
  /// The index path (child indices from this group) of the group `uuid`; `[]` for this group itself. The first
  /// in pre-order when several groups have the UUID.
  func indexPath(ofGroup uuid: KDBXUUID) -> [Int]? {
    if self.uuid == uuid { return [] }
    var found: [Int]?
    forEachGroupBelow { group, path in
      if group.uuid == uuid { found = path }
      return found == nil
    }
    return found
  }

  /// The index path of the group holding entry `uuid` and the entry's index in it (the first in pre-order).
  func location(ofEntry uuid: KDBXUUID) -> (groupPath: [Int], index: Int)? {
    if let index = entries.firstIndex(where: { $0.uuid == uuid }) { return ([], index) }
    var found: (groupPath: [Int], index: Int)?
    forEachGroupBelow { group, path in
      if let index = group.entries.firstIndex(where: { $0.uuid == uuid }) { found = (path, index) }
      return found == nil
    }
    return found
  }

  /// The group at `path` below this group.
  func group(at path: ArraySlice<Int>) -> Group? {
    var current = self
    for index in path {
      guard index >= 0, index < current.groups.count else { return nil }
      current = current.groups[index]
    }
    return current
  }

  /// Runs `body` on the group at `path`; returns `false` when the path does not exist. The groups on the path are
  /// taken out of their parents while `body` runs and put back after, so that a group this tree alone holds is
  /// changed in place, at any depth.
  @discardableResult
  mutating func modifyGroup(at path: ArraySlice<Int>, _ body: (inout Group) -> Void) -> Bool {
    guard group(at: path) != nil else { return false }
    var current = Group(uuid: .zero, name: nil)
    swap(&current, &self)
    var parents: [Group] = []
    parents.reserveCapacity(path.count)
    for index in path {
      var child = Group(uuid: .zero, name: nil)
      swap(&child, &current.groups[index])
      parents.append(current)
      current = child
    }
    body(&current)
    for index in path.reversed() {
      guard var parent = parents.popLast() else { break }
      swap(&parent.groups[index], &current)
      current = parent
    }
    swap(&current, &self)
    return true
  }

  /// Calls `body` for every entry of this group and its subgroups, depth first (a group's entries before its
  /// subgroups, as KeePass's pre-order traversal), with the chain of groups from this group down to the parent.
  func forEachEntry(_ body: (Entry, [Group]) -> Void) {
    var chain = [self]
    for entry in entries { body(entry, chain) }
    var walk = GroupWalk(below: self)
    while let step = walk.next() {
      switch step {
      case .enter(let group, _):
        chain.append(group)
        for entry in group.entries { body(entry, chain) }
      case .leave: chain.removeLast()
      }
    }
  }

  /// The UUIDs of every group below this one (not this group itself), in pre-order.
  var descendantGroupUUIDs: [KDBXUUID] {
    var out: [KDBXUUID] = []
    var walk = GroupWalk(below: self)
    while let step = walk.next() {
      if case .enter(let group, _) = step { out.append(group.uuid) }
    }
    return out
  }

  /// The UUIDs of every entry in this group and its subgroups, in pre-order.
  var allEntryUUIDs: [KDBXUUID] {
    var out: [KDBXUUID] = entries.map { $0.uuid }
    var walk = GroupWalk(below: self)
    while let step = walk.next() {
      if case .enter(let group, _) = step { out += group.entries.map { $0.uuid } }
    }
    return out
  }

  /// Appends `entry`, keeping ``childOrder`` consistent when it is in use.
  mutating func appendEntry(_ entry: Entry) {
    entries.append(entry)
    if !childOrder.isEmpty { childOrder.append(true) }
  }

  /// Appends `group`, keeping ``childOrder`` consistent when it is in use.
  mutating func appendGroup(_ group: Group) {
    groups.append(group)
    if !childOrder.isEmpty { childOrder.append(false) }
  }

  /// Removes the entry at `index`, keeping ``childOrder`` consistent.
  mutating func removeEntry(at index: Int) -> Entry {
    Self.removeChild(kind: true, ordinal: index, from: &childOrder)
    return entries.remove(at: index)
  }

  /// Removes the subgroup at `index`, keeping ``childOrder`` consistent.
  mutating func removeGroup(at index: Int) -> Group {
    Self.removeChild(kind: false, ordinal: index, from: &childOrder)
    return groups.remove(at: index)
  }

  private static func removeChild(kind: Bool, ordinal: Int, from order: inout [Bool]) {
    var seen = 0
    for position in order.indices where order[position] == kind {
      if seen == ordinal {
        order.remove(at: position)
        return
      }
      seen += 1
    }
  }
}

extension Database {
  /// The group with `uuid` (the root included), or `nil`. When several groups share the UUID (a damaged file),
  /// the first in tree order.
  public func group(withUUID uuid: KDBXUUID) -> Group? {
    guard let root, let path = root.indexPath(ofGroup: uuid) else { return nil }
    return root.group(at: path[...])
  }

  /// The current (not history) entry with `uuid`, or `nil`. When several entries share the UUID (a damaged file),
  /// the first in tree order.
  public func entry(withUUID uuid: KDBXUUID) -> Entry? {
    guard let root, let location = root.location(ofEntry: uuid) else { return nil }
    return root.group(at: location.groupPath[...])?.entries[location.index]
  }

  /// The UUID of the group that directly holds entry `uuid` (the first such entry in tree order).
  public func parentGroupUUID(ofEntry uuid: KDBXUUID) -> KDBXUUID? {
    guard let root, let location = root.location(ofEntry: uuid) else { return nil }
    return root.group(at: location.groupPath[...])?.uuid
  }

  /// The UUID of the group that directly holds group `uuid` (`nil` for the root or an unknown group; the first
  /// such group in tree order).
  public func parentGroupUUID(ofGroup uuid: KDBXUUID) -> KDBXUUID? {
    guard let root, let path = root.indexPath(ofGroup: uuid), !path.isEmpty else { return nil }
    return root.group(at: path.dropLast())?.uuid
  }

  /// Runs `body` on the group `uuid`; returns `false` when no group or more than one has that UUID.
  @discardableResult
  mutating func modifyGroup(_ uuid: KDBXUUID, _ body: (inout Group) -> Void) -> Bool {
    guard let position = uniquePosition(ofGroup: uuid) else { return false }
    return modifyGroup(at: position, body)
  }

  /// Runs `body` on the current entry `uuid`; returns `false` when no entry or more than one has that UUID.
  @discardableResult
  mutating func modifyEntry(_ uuid: KDBXUUID, _ body: (inout Entry) -> Void) -> Bool {
    guard let position = uniquePosition(ofEntry: uuid) else { return false }
    return modifyEntry(at: position, body)
  }
}
