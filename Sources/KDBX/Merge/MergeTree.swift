/// A database's group tree flattened by UUID, as the merge works on it: each group without its children, each
/// entry, the parent of each, and each group's child order. ``build()`` turns it back into a tree.
struct MergeTree {
  /// A child of a group, in order.
  enum Child: Equatable {
    case entry(KDBXUUID)
    case group(KDBXUUID)
  }

  struct GroupNode {
    /// The group's own data; `entries`, `groups` and `childOrder` are empty.
    var group: Group
    var parent: KDBXUUID?
    var children: [Child]
  }

  struct EntryNode {
    var entry: Entry
    var parent: KDBXUUID
  }

  var rootUUID: KDBXUUID
  var groups: [KDBXUUID: GroupNode] = [:]
  var entries: [KDBXUUID: EntryNode] = [:]
  /// Group UUIDs in pre-order (parents before children).
  var groupOrder: [KDBXUUID] = []

  /// Flattens `root`. When `rootAlias` is given, the root is filed under that UUID instead of its own, so that two
  /// independently created databases merge root into root (as KeePass and KeePassXC do).
  init(root: Group, rootAlias: KDBXUUID? = nil) {
    rootUUID = rootAlias ?? root.uuid
    // Pre-order with an explicit stack (the tree may be of any depth): a group, then each subgroup's subtree.
    var pending: [(group: Group, uuid: KDBXUUID, parent: KDBXUUID?)] = [(root, rootUUID, nil)]
    while let (group, uuid, parent) = pending.popLast() {
      guard add(group, as: uuid, parent: parent) else { continue }
      for child in group.groups.reversed() where groups[child.uuid] == nil {
        pending.append((child, child.uuid, uuid))
      }
    }
  }

  init(rootUUID: KDBXUUID) { self.rootUUID = rootUUID }

  /// Files `group` without its children, and its entries; its subgroups are the caller's. `false` (nothing filed)
  /// when an earlier group in pre-order has the UUID: the first one wins, with its subtree.
  private mutating func add(_ group: Group, as uuid: KDBXUUID, parent: KDBXUUID?) -> Bool {
    guard groups[uuid] == nil else { return false }
    var stripped = group
    stripped.uuid = uuid
    stripped.entries = []
    stripped.groups = []
    stripped.childOrder = []
    var children: [Child] = []
    // Follow the read interleaving when it is consistent, otherwise entries then groups.
    var entryIndex = 0
    var groupIndex = 0
    if group.childOrder.count == group.entries.count + group.groups.count {
      for isEntry in group.childOrder {
        if isEntry {
          children.append(.entry(group.entries[entryIndex].uuid))
          entryIndex += 1
        } else {
          children.append(.group(group.groups[groupIndex].uuid))
          groupIndex += 1
        }
      }
    } else {
      children = group.entries.map { .entry($0.uuid) } + group.groups.map { .group($0.uuid) }
    }
    groups[uuid] = GroupNode(group: stripped, parent: parent, children: children)
    groupOrder.append(uuid)
    for entry in group.entries { entries[entry.uuid] = EntryNode(entry: entry, parent: uuid) }
    return true
  }

  /// The tree rooted at ``rootUUID``. Children whose ``parent`` is not the group listing them are skipped;
  /// objects whose parent lists no child entry for them are appended in `extraOrder` order.
  func build(extraOrder: [Child] = []) -> Group {
    var listed: [KDBXUUID: [Child]] = [:]
    var seen = Set<KDBXUUID>()
    for (uuid, node) in groups {
      listed[uuid] = node.children.filter { child in
        switch child {
        case .entry(let id): return entries[id]?.parent == uuid
        case .group(let id): return groups[id]?.parent == uuid
        }
      }
      for child in listed[uuid] ?? [] {
        switch child {
        case .entry(let id), .group(let id): seen.insert(id)
        }
      }
    }
    for child in extraOrder {
      switch child {
      case .entry(let id):
        if !seen.contains(id), let parent = entries[id]?.parent, listed[parent] != nil {
          listed[parent]?.append(child)
          seen.insert(id)
        }
      case .group(let id):
        if !seen.contains(id), let parent = groups[id]?.parent ?? nil, listed[parent] != nil {
          listed[parent]?.append(child)
          seen.insert(id)
        }
      }
    }
    return assemble(listed: listed)
  }

  /// The tree below ``rootUUID`` as `listed` orders it. The groups reachable from the root are found first, in
  /// pre-order, and then made from the last to the first, so that each group's subgroups are made before it:
  /// no recursion, at any depth. Each group is made once (the merge checked parents for cycles; the set of groups
  /// reached is a second guard); a group its parent lists twice (a damaged file) is placed twice, as before.
  private func assemble(listed: [KDBXUUID: [Child]]) -> Group {
    guard groups[rootUUID] != nil else { return Group(uuid: rootUUID, name: nil) }
    var order: [KDBXUUID] = []
    var placed: Set<KDBXUUID> = [rootUUID]
    var pending = [rootUUID]
    while let uuid = pending.popLast() {
      order.append(uuid)
      for child in (listed[uuid] ?? []).reversed() {
        if case .group(let id) = child, groups[id] != nil, placed.insert(id).inserted { pending.append(id) }
      }
    }
    // Made groups, until the end (a parent may list one twice).
    var made: [KDBXUUID: Group] = [:]
    for uuid in order.reversed() {
      guard var group = groups[uuid]?.group else { continue }
      for child in listed[uuid] ?? [] {
        switch child {
        case .entry(let id):
          if let entry = entries[id]?.entry {
            group.entries.append(entry)
            group.childOrder.append(true)
          }
        case .group(let id):
          if let subgroup = made[id] {
            group.groups.append(subgroup)
            group.childOrder.append(false)
          }
        }
      }
      made[uuid] = group
    }
    return made[rootUUID] ?? Group(uuid: rootUUID, name: nil)
  }

  /// Whether `group` is `ancestor` or lies below it.
  func isDescendant(_ group: KDBXUUID, of ancestor: KDBXUUID) -> Bool {
    var current: KDBXUUID? = group
    var steps = 0
    while let id = current, steps <= groups.count {
      if id == ancestor { return true }
      current = groups[id]?.parent ?? nil
      steps += 1
    }
    return false
  }
}
