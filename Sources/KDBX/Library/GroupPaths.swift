// Groups by path, for a group picker and filter, and the group edits an app offers (add, rename; move and delete
// with the recycle bin are in RecycleBin.swift). KeePass's own rules: a group name may repeat among siblings, the
// root has no path, and the recycle bin is an ordinary group that pickers usually hide.

/// One group of ``Database/groupsByPath``: where it is and how to show it.
///
/// A group picker:
///
/// ```swift
/// for group in database.groupsByPath where !group.isInRecycleBin && group.depth > 0 {
///   show(String(repeating: "  ", count: group.depth - 1) + (group.path.last ?? ""), group.pathText)
/// }
/// ```
public struct GroupPathItem: Sendable, Hashable, Identifiable {
  /// The group's UUID.
  public var uuid: KDBXUUID
  /// The names from below the root down to the group; empty for the root.
  public var path: [String]
  /// Where the group is (unique even when a damaged file repeats a UUID).
  package var position: GroupPosition
  /// Whether the group is the recycle bin or inside it.
  public var isInRecycleBin: Bool

  package init(uuid: KDBXUUID, path: [String], position: GroupPosition, isInRecycleBin: Bool) {
    self.uuid = uuid
    self.path = path
    self.position = position
    self.isInRecycleBin = isInRecycleBin
  }

  /// The group's UUID, as ``FlatEntry/id`` is the entry's.
  public var id: KDBXUUID { uuid }
  /// The nesting depth (0 for the root, 1 for its children).
  public var depth: Int { path.count }
  /// The path joined with `/` (empty for the root), as `kdbx ls` and KeePassXC show it.
  public var pathText: String { path.joined(separator: "/") }
}

extension Database {
  /// Every group in tree order (pre-order: a group, then its subgroups), the root first, each with its path: the
  /// list a group picker or filter shows (hide ``GroupPathItem/isInRecycleBin`` ones where entries cannot go).
  public var groupsByPath: [GroupPathItem] {
    guard let root else { return [] }
    let bin = recycleBinPosition
    var out: [GroupPathItem] = []
    var names: [String] = []
    var indexPath: [Int] = []
    func add(_ group: Group) {
      let position = GroupPosition(indexPath: indexPath)
      out.append(
        GroupPathItem(
          uuid: group.uuid, path: names, position: position, isInRecycleBin: bin.map { position.isInside($0) } ?? false
        ))
    }
    add(root)
    var walk = GroupWalk(below: root)
    while let step = walk.next() {
      switch step {
      case .enter(let group, let index):
        names.append(group.name)
        indexPath.append(index)
        add(group)
      case .leave:
        names.removeLast()
        indexPath.removeLast()
      }
    }
    return out
  }

  /// The positions of the groups whose names from below the root are `names` (the root for no names). More than
  /// one when siblings share a name (KeePass allows it); none when no group has that path.
  package func groupPositions(atPath names: [String]) -> [GroupPosition] {
    var current: [GroupPosition] = root == nil ? [] : [.root]
    for name in names {
      var next: [GroupPosition] = []
      for position in current {
        guard let group = group(at: position) else { continue }
        for (index, child) in group.groups.enumerated() where child.name == name {
          next.append(GroupPosition(indexPath: position.indexPath + [index]))
        }
      }
      current = next
    }
    return current
  }

  /// Adds a new group named `name` (KeePass's defaults: folder icon, times from `clock`) as the last subgroup of
  /// group `parent`; returns its UUID, or `nil` when no group or more than one has the UUID `parent`.
  @discardableResult
  public mutating func addGroup(
    named name: String, in parent: KDBXUUID, clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> KDBXUUID? {
    guard let position = uniquePosition(ofGroup: parent) else { return nil }
    let group = Group.new(name: name, clock: clock, random: &random)
    guard addGroup(group, to: position) else { return nil }
    return group.uuid
  }

  /// Renames group `uuid` to `name`, updating its last modification time from `clock` (KeePass's group dialog).
  /// Returns `false` when no group or more than one has that UUID; renaming to the same name changes nothing and
  /// returns `true`.
  @discardableResult
  public mutating func renameGroup(_ uuid: KDBXUUID, to name: String, clock: some WallClock) -> Bool {
    guard let position = uniquePosition(ofGroup: uuid) else { return false }
    return modifyGroup(at: position) { group in
      guard group.nameText != name else { return }
      group.nameText = name
      var times = group.times ?? Times()
      times.lastModificationTime = clock.now()
      group.times = times
    }
  }
}
