// Walks over a group tree with an explicit stack. A tree that an app builds through `Group.groups` can be of any
// depth (only the open and the importers cap it, at `LoadOptions.maxGroupDepth`), so no walk of the library
// recurses: a recursive one would run out of stack at some depth (about 50,000 levels on an 8 MiB stack).

/// A depth-first pre-order walk over the groups below a root (the root itself is not visited): each group is
/// entered (``Step/enter(_:index:)``, with its index among its parent's subgroups), then its subtree is walked,
/// then it is left (``Step/leave``). The same order as a recursive walk that visits a group, then each subgroup.
package struct GroupWalk {
  package enum Step {
    /// A group, and its index in its parent's ``Group/groups``.
    case enter(Group, index: Int)
    /// The end of the subtree of the group entered last and not yet left.
    case leave
  }

  /// The groups entered and not yet left (the root first), each with the index of its next subgroup.
  private var open: [(group: Group, next: Int)]

  package init(below root: Group) {
    open = [(root, 0)]
  }

  /// How many groups are open: 1 for the root alone, so a group just entered is at depth `depth - 1` below it.
  package var depth: Int { open.count }

  package mutating func next() -> Step? {
    guard let top = open.indices.last else { return nil }
    let index = open[top].next
    if index < open[top].group.groups.count {
      open[top].next = index + 1
      let child = open[top].group.groups[index]
      open.append((child, 0))
      return .enter(child, index: index)
    }
    open.removeLast()
    return open.isEmpty ? nil : .leave
  }
}

extension Group {
  /// A group swapped in for a child while the child is taken out of its parent to be changed, so that the child's
  /// storage is not shared and changes in place.
  private static var detachedPlaceholder: Group { Group(uuid: .zero, name: nil) }

  /// Runs `body` on this group and then on every group below it, in pre-order, changing them in place; `body` may
  /// change a group's subgroups (the walk goes on with the subgroups it leaves).
  mutating func modifyEveryGroup(_ body: (inout Group) -> Void) {
    var current = Self.detachedPlaceholder
    swap(&current, &self)
    body(&current)
    // The parents of `current`, each with the index `current` was taken from.
    var parents: [(group: Group, index: Int)] = []
    var nextChild = 0
    while true {
      if nextChild < current.groups.count {
        var child = Self.detachedPlaceholder
        swap(&child, &current.groups[nextChild])
        parents.append((current, nextChild))
        current = child
        body(&current)
        nextChild = 0
      } else {
        guard case (var parent, let index)? = parents.popLast() else { break }
        swap(&parent.groups[index], &current)
        current = parent
        nextChild = index + 1
      }
    }
    swap(&current, &self)
  }

  /// Empties `groups`, releasing the groups and everything below them one group at a time. Dropping a deep tree
  /// at once would free it recursively (each array frees its groups, whose arrays free theirs) and run out of
  /// stack. Only what nothing else holds is freed: a subtree that another copy shares stays with that copy.
  static func releaseIteratively(_ groups: inout [Group]) {
    var pending: [Group] = []
    swap(&pending, &groups)
    while var group = pending.popLast() {
      pending.append(contentsOf: group.groups)
      group.groups = []
    }
  }
}

extension Group {
  /// Visits every group below this one in pre-order with its index path from here (child indices), without
  /// recursion; stops as soon as `visit` returns `false`.
  func forEachGroupBelow(_ visit: (_ group: Group, _ path: [Int]) -> Bool) {
    var path: [Int] = []
    var walk = GroupWalk(below: self)
    while let step = walk.next() {
      switch step {
      case .enter(let group, let index):
        path.append(index)
        if !visit(group, path) { return }
      case .leave: path.removeLast()
      }
    }
  }
}
