/// How deep a group tree goes, measured without recursion: a tree that an app built through the API can be of
/// any depth, and the save measures it before it walks it (``LoadOptions/maxGroupDepth``).
extension Group {
  /// The depth of the deepest group in this group's subtree, this group counting as 1 (its subgroups as 2).
  /// Measured with an explicit stack, so that any depth can be measured.
  package var nestingDepth: Int {
    var deepest = 0
    var pending: [(group: Group, depth: Int)] = [(self, 1)]
    while let (group, depth) = pending.popLast() {
      if depth > deepest { deepest = depth }
      for child in group.groups { pending.append((child, depth + 1)) }
    }
    return deepest
  }
}

extension Database {
  /// The group nesting of the tree (``Group/nestingDepth`` of the root; 0 without one), as the open counts it.
  package var groupNestingDepth: Int { root?.nestingDepth ?? 0 }

  /// Refuses a tree deeper than `options`' ``LoadOptions/maxGroupDepth``, which the open would refuse.
  /// - Throws: ``KDBXError/limitExceeded(what:value:limit:)`` ("group nesting depth").
  package func checkGroupNesting(_ options: LoadOptions) throws(KDBXError) {
    let depth = groupNestingDepth
    guard depth <= options.maxGroupDepth else {
      throw .limitExceeded(
        what: "group nesting depth", value: UInt64(depth), limit: UInt64(clamping: options.maxGroupDepth))
    }
  }
}
