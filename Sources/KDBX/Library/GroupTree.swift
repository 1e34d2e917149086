// Navigation and in-place editing of the group tree, shared by the library features in this folder.

extension Group {
  /// The index path (child indices from this group) of the group `uuid`; `[]` for this group itself.
  func indexPath(ofGroup uuid: KDBXUUID) -> [Int]? {
    if self.uuid == uuid { return [] }
    for (index, child) in groups.enumerated() {
      if let rest = child.indexPath(ofGroup: uuid) { return [index] + rest }
    }
    return nil
  }

  /// The index path of the group holding entry `uuid` and the entry's index in it.
  func location(ofEntry uuid: KDBXUUID) -> (groupPath: [Int], index: Int)? {
    if let index = entries.firstIndex(where: { $0.uuid == uuid }) { return ([], index) }
    for (childIndex, child) in groups.enumerated() {
      if let found = child.location(ofEntry: uuid) { return ([childIndex] + found.groupPath, found.index) }
    }
    return nil
  }

  /// The group at `path` below this group.
  func group(at path: ArraySlice<Int>) -> Group? {
    guard let first = path.first else { return self }
    guard first >= 0, first < groups.count else { return nil }
    return groups[first].group(at: path.dropFirst())
  }

  /// Runs `body` on the group at `path`; returns `false` when the path does not exist.
  @discardableResult
  mutating func modifyGroup(at path: ArraySlice<Int>, _ body: (inout Group) -> Void) -> Bool {
    guard let first = path.first else {
      body(&self)
      return true
    }
    guard first >= 0, first < groups.count else { return false }
    return groups[first].modifyGroup(at: path.dropFirst(), body)
  }

  /// Calls `body` for every entry of this group and its subgroups, depth first (a group's entries before its
  /// subgroups, as KeePass's pre-order traversal), with the chain of groups from this group down to the parent.
  func forEachEntry(ancestors: [Group] = [], _ body: (Entry, [Group]) -> Void) {
    var chain = ancestors
    chain.append(self)
    for entry in entries { body(entry, chain) }
    for child in groups { child.forEachEntry(ancestors: chain, body) }
  }

  /// The UUIDs of every group below this one (not this group itself), in pre-order.
  var descendantGroupUUIDs: [KDBXUUID] {
    var out: [KDBXUUID] = []
    for child in groups {
      out.append(child.uuid)
      out += child.descendantGroupUUIDs
    }
    return out
  }

  /// The UUIDs of every entry in this group and its subgroups.
  var allEntryUUIDs: [KDBXUUID] {
    var out: [KDBXUUID] = entries.map { $0.uuid }
    for child in groups { out += child.allEntryUUIDs }
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
  /// the first in tree order; ``positions(ofGroup:)`` finds them all.
  public func group(withUUID uuid: KDBXUUID) -> Group? {
    guard let root, let path = root.indexPath(ofGroup: uuid) else { return nil }
    return root.group(at: path[...])
  }

  /// The current (not history) entry with `uuid`, or `nil`. When several entries share the UUID (a damaged file),
  /// the first in tree order; ``positions(ofEntry:)`` finds them all.
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
