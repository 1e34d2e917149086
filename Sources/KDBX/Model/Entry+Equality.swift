extension Entry {
  /// Two entries are equal when every property is, history included, as a synthesised `==` would find; history
  /// versions are compared with an explicit stack, not by recursion: a file's history versions hold no history of
  /// their own, but an app can nest ``history`` to any depth.
  public static func == (lhs: Entry, rhs: Entry) -> Bool {
    var pending = [(lhs, rhs)]
    while let (left, right) = pending.popLast() {
      guard left.hasEqualOwnProperties(right) else { return false }
      switch (left.history, right.history) {
      case (nil, nil): continue
      case (let leftHistory?, let rightHistory?):
        guard leftHistory.count == rightHistory.count else { return false }
        // Versions in one shared buffer (a copy of the same entry) are equal without a look inside.
        if sharesStorage(leftHistory, rightHistory) { continue }
        for index in leftHistory.indices { pending.append((leftHistory[index], rightHistory[index])) }
      default: return false
      }
    }
    return true
  }

  /// Whether every stored property but ``history`` is equal.
  private func hasEqualOwnProperties(_ other: Entry) -> Bool {
    uuid == other.uuid && iconID == other.iconID && customIconUUID == other.customIconUUID
      && foregroundColor == other.foregroundColor && backgroundColor == other.backgroundColor
      && overrideURL == other.overrideURL && qualityCheck == other.qualityCheck && tagsText == other.tagsText
      && previousParentGroup == other.previousParentGroup && times == other.times && customData == other.customData
      && fields == other.fields && attachments == other.attachments && autoType == other.autoType
      && historyLayout == other.historyLayout && layout == other.layout
  }

  /// Whether `left` and `right` are the same array storage (as `Array`'s own `==` checks first).
  private static func sharesStorage(_ left: [Entry], _ right: [Entry]) -> Bool {
    // SAFETY: only the two base addresses are compared; no element is read through them, and neither pointer
    // leaves its closure.
    left.withUnsafeBufferPointer { leftBuffer in
      right.withUnsafeBufferPointer { rightBuffer in leftBuffer.baseAddress == rightBuffer.baseAddress }
    }
  }
}
