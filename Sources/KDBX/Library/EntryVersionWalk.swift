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
      guard let (parent, parentHistory, index) = open.popLast() else { break }
      history = parentHistory
      swap(&history[index], &current)
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
