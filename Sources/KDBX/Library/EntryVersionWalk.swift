// Walks over an entry and its history versions with an explicit stack. A file's history versions hold no history
// of their own (the open keeps a nested one as unknown XML), but an app can nest `Entry.history` to any depth, so
// no walk of the library recurses over it.

extension Entry {
  /// Runs `body` on this entry and then on every history version below it (their own history included), in
  /// pre-order (a version, then its history, then the next version), changing them in place.
  mutating func modifyEveryVersion(_ body: (inout Entry) -> Void) {
    body(&self)
    guard history?.isEmpty == false else { return }
    // The entries whose history is taken out to be changed (`self` first), each with that history and the index
    // of the version being changed; the version itself is `current`, taken out of the list so that it is unique.
    var open: [(entry: Entry, history: [Entry], index: Int)] = []
    var current = Entry(uuid: .zero)
    swap(&current, &self)
    var history = current.history ?? []
    current.history = []
    var next = 0
    while true {
      if next < history.count {
        var version = Entry(uuid: .zero)
        swap(&version, &history[next])
        open.append((current, history, next))
        current = version
        body(&current)
        history = current.history ?? []
        // `[]` stands in while the versions are out; `nil` stays `nil` (nothing to walk).
        if current.history != nil { current.history = [] }
        next = 0
        continue
      }
      if current.history != nil { current.history = history }
      // The list goes back while only the stack's entry holds it: a copy of it here (as `history` and the tuple
      // both held it) made the swap copy the whole list for every version, quadratic in a long history.
      guard case (let parent, var parentHistory, let index)? = open.popLast() else { break }
      swap(&parentHistory[index], &current)
      history = parentHistory
      current = parent
      next = index + 1
    }
    swap(&current, &self)
  }

  /// Calls `visit` on this entry and on every history version below it, in the order of
  /// ``modifyEveryVersion(_:)``, without copying them.
  func forEveryVersion(_ visit: (Entry) -> Void) {
    var open: [(versions: [Entry], next: Int)] = [([self], 0)]
    while let top = open.indices.last {
      let index = open[top].next
      guard index < open[top].versions.count else {
        open.removeLast()
        continue
      }
      open[top].next = index + 1
      visit(open[top].versions[index])
      if let history = open[top].versions[index].history, !history.isEmpty { open.append((history, 0)) }
    }
  }
}

extension Entry {
  /// Whether a version in ``history`` has a history of its own (only an app can build that: a file's versions
  /// have none).
  var hasNestedHistory: Bool { history?.contains { $0.history?.isEmpty == false } == true }

  /// Moves the versions nested in history versions (a version's own ``history``, to any depth) up into this
  /// entry's ``history``, each without a history of its own: the one level that KeePass's model and the file
  /// know, so that the save writes every version and the merges compare them. A version's own versions come
  /// just before it (they are older: a chain built a version at a time comes out oldest first, as KeePass keeps
  /// history). Nothing is copied deeper than one level, and a chain that only this entry held is released a
  /// version at a time (dropping it at once would free it recursively, once per level, and run out of stack).
  mutating func flattenHistory() {
    guard hasNestedHistory else { return }
    // Versions still to place, the next on top; `expanded` once its own versions are on the stack above it. Each
    // list is released as soon as its versions are on the stack (which then holds them), so that no list frees a
    // chain below it.
    var pending: [(version: Entry, expanded: Bool)] = (history ?? []).reversed().map { ($0, false) }
    history = nil
    var flat: [Entry] = []
    flat.reserveCapacity(pending.count)
    while case (var version, let expanded)? = pending.popLast() {
      if !expanded, let own = version.history, !own.isEmpty {
        version.history = nil
        pending.append((version, true))
        for older in own.reversed() { pending.append((older, false)) }
        continue
      }
      version.history = nil
      flat.append(version)
    }
    history = flat
  }
}

extension Database {
  /// This database with every entry's nested history moved up into the entry's own list
  /// (``Entry/flattenHistory()``): what the save writes and the merges read. The database itself, shared, when
  /// no entry has any (files never do).
  func flatteningNestedHistory() -> Database {
    guard var root, root.containsNestedHistory else { return self }
    var flattened = self
    flattened.root = nil
    root.modifyEveryGroup { group in
      for index in group.entries.indices where group.entries[index].hasNestedHistory {
        group.entries[index].flattenHistory()
      }
    }
    flattened.root = root
    return flattened
  }
}

extension Group {
  /// Whether an entry in this group or below it has nested history (``Entry/hasNestedHistory``).
  var containsNestedHistory: Bool {
    if entries.contains(where: { $0.hasNestedHistory }) { return true }
    var walk = GroupWalk(below: self)
    while let step = walk.next() {
      if case .enter(let group, _) = step, group.entries.contains(where: { $0.hasNestedHistory }) { return true }
    }
    return false
  }
}
