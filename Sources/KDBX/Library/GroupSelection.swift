/// The set of groups a flat entry list is filtered to.
///
/// Selecting a group selects its whole subtree; deselecting a group deselects its subtree (so deselecting a parent
/// clears everything below it). An empty selection means no filter. The selection is a plain value: the tree is
/// passed in when it changes.
///
/// ```swift
/// var selection = GroupSelection()
/// selection.select(groupUUID, in: database)  // the group and its subgroups
/// let list = database.displayedEntries(selection: selection)
/// let groupForNewEntry = selection.defaultGroupForNewEntry(in: database)
/// ```
public struct GroupSelection: Sendable, Equatable {
  /// The selected group UUIDs.
  public private(set) var groups: Set<KDBXUUID>

  /// An empty selection (no filter).
  public init() { groups = [] }

  /// A selection of exactly `groups` (their subgroups are not added: ``select(_:in:)`` adds a subtree), for
  /// example one the app saved from ``groups`` and restores.
  ///
  /// ```swift
  /// let selection = GroupSelection(groups: savedGroupUUIDs)
  /// let list = database.displayedEntries(selection: selection)
  /// ```
  public init(groups: some Sequence<KDBXUUID>) { self.groups = Set(groups) }

  /// Whether nothing is selected (the list is not filtered).
  public var isEmpty: Bool { groups.isEmpty }

  /// Whether group `uuid` is selected.
  public func contains(_ uuid: KDBXUUID) -> Bool { groups.contains(uuid) }

  /// Whether an entry whose direct parent is `parent` passes the filter.
  package func admits(parent: KDBXUUID) -> Bool { groups.isEmpty || groups.contains(parent) }

  /// Selects group `uuid` and every group below it in `database`. Unknown groups are ignored.
  public mutating func select(_ uuid: KDBXUUID, in database: Database) {
    guard let group = database.group(withUUID: uuid) else { return }
    groups.insert(uuid)
    for child in group.descendantGroupUUIDs { groups.insert(child) }
  }

  /// Deselects group `uuid` and every group below it in `database`.
  public mutating func deselect(_ uuid: KDBXUUID, in database: Database) {
    groups.remove(uuid)
    if let group = database.group(withUUID: uuid) {
      for child in group.descendantGroupUUIDs { groups.remove(child) }
    }
  }

  /// Selects `uuid` if it is not selected, else deselects it (each with its subtree).
  public mutating func toggle(_ uuid: KDBXUUID, in database: Database) {
    if groups.contains(uuid) { deselect(uuid, in: database) } else { select(uuid, in: database) }
  }

  /// Clears the selection.
  public mutating func removeAll() { groups.removeAll() }

  /// The selected groups whose parent is not selected (the groups the user picked, as opposed to their
  /// subtrees), in tree order.
  public func topmostGroups(in database: Database) -> [KDBXUUID] {
    guard let root = database.root else { return [] }
    var out: [KDBXUUID] = []
    // Whether each open group (the root first) is selected.
    var selectedChain = [groups.contains(root.uuid)]
    if selectedChain[0] { out.append(root.uuid) }
    var walk = GroupWalk(below: root)
    while let step = walk.next() {
      switch step {
      case .enter(let group, _):
        let selected = groups.contains(group.uuid)
        if selected && selectedChain.last != true { out.append(group.uuid) }
        selectedChain.append(selected)
      case .leave: selectedChain.removeLast()
      }
    }
    return out
  }

  /// The group a new entry goes to: the sole selected group (the one top-most selected group, whose subtree may
  /// be selected with it), otherwise the root. `nil` only for a database without a root.
  public func defaultGroupForNewEntry(in database: Database) -> KDBXUUID? {
    let topmost = topmostGroups(in: database)
    if topmost.count == 1, let only = topmost.first { return only }
    return database.root?.uuid
  }
}

extension Database {
  /// Adds `entry` to group `group` (for a new entry, usually ``GroupSelection/defaultGroupForNewEntry(in:)``).
  /// Returns `false` when no group or more than one has that UUID (a damaged file).
  @discardableResult
  public mutating func addEntry(_ entry: Entry, to group: KDBXUUID) -> Bool {
    modifyGroup(group) { $0.appendEntry(entry) }
  }
}
