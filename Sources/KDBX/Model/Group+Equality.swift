extension Group {
  /// Two groups are equal when every property is, subgroups included, as a synthesised `==` would find; the
  /// subgroups are compared with an explicit stack, not by recursion, so that comparing trees of any depth (an app
  /// can build one far deeper than a file may hold) takes the same call stack as comparing two leaves.
  public static func == (lhs: Group, rhs: Group) -> Bool {
    var pending = [(lhs, rhs)]
    while let (left, right) = pending.popLast() {
      guard left.hasEqualOwnProperties(right), left.groups.count == right.groups.count else { return false }
      // Subgroups in one shared buffer (a copy of the same tree) are equal without a look inside.
      if sharesStorage(left.groups, right.groups) { continue }
      for index in left.groups.indices { pending.append((left.groups[index], right.groups[index])) }
    }
    return true
  }

  /// Whether every stored property but ``groups`` is equal.
  private func hasEqualOwnProperties(_ other: Group) -> Bool {
    uuid == other.uuid && nameText == other.nameText && notesText == other.notesText && iconID == other.iconID
      && customIconUUID == other.customIconUUID && times == other.times && isExpanded == other.isExpanded
      && defaultAutoTypeSequence == other.defaultAutoTypeSequence && enableAutoType == other.enableAutoType
      && enableSearching == other.enableSearching && lastTopVisibleEntry == other.lastTopVisibleEntry
      && previousParentGroup == other.previousParentGroup && tagsText == other.tagsText
      && customData == other.customData && entries == other.entries && childOrder == other.childOrder
      && layout == other.layout
  }

  /// Whether `left` and `right` are the same array storage (as `Array`'s own `==` checks first).
  private static func sharesStorage(_ left: [Group], _ right: [Group]) -> Bool {
    // SAFETY: only the two base addresses are compared; no element is read through them, and neither pointer
    // leaves its closure.
    left.withUnsafeBufferPointer { leftBuffer in
      right.withUnsafeBufferPointer { rightBuffer in leftBuffer.baseAddress == rightBuffer.baseAddress }
    }
  }
}
