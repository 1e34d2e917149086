extension Database {
  /// The content of `attachment`, or `nil` when its index is outside the pool.
  public func data(of attachment: Attachment) -> [UInt8]? {
    binaries[attachment.binaryIndex]?.data
  }

  /// Adds `data` to the pool (reusing an identical binary) and returns an attachment named `name` that refers to it.
  public mutating func makeAttachment(name: String, data: [UInt8], isProtected: Bool = false) -> Attachment {
    Attachment(name: name, binaryIndex: binaries.add(data, isProtected: isProtected))
  }
}

/// Splits KeePass tag text: tags are separated by `;` or `,` (KeePass `StrUtil.StringToTags`), trimmed, and empty
/// tags are dropped.
package func splitTags(_ text: String?) -> [String] {
  guard let text else { return [] }
  var tags: [String] = []
  var current: [UInt8] = []
  func flush() {
    let tag = String(decoding: current, as: UTF8.self).trimmingASCIIWhitespace()
    if !tag.isEmpty { tags.append(tag) }
    current.removeAll()
  }
  for byte in text.utf8 {
    if byte == 0x3B || byte == 0x2C { flush() } else { current.append(byte) }
  }
  flush()
  return tags
}

extension Database {
  /// The database with a pool holding only the binaries that entries (current or history) refer to, in first-use
  /// order, and every reference renumbered. Saving does this, as KeePass builds its pool from the entries.
  public func compactingBinaries() -> Database {
    // First the new pool and each old index's new one, read-only: when nothing moves (a pool that is already
    // compact, as every file this library or KeePass wrote), the database is returned as it is, without copying
    // the tree.
    var newPool = BinaryPool()
    var newIndex = [Int](repeating: -1, count: binaries.count)
    var moves = false
    // By index, reading only the fields needed: a loop over the entries would copy each whole entry.
    func collect(_ entries: [Entry]) {
      for index in entries.indices {
        for attachment in entries[index].attachments {
          let old = attachment.binaryIndex
          guard let binary = binaries[old] else { continue }  // a dangling reference is left as it is
          if newIndex[old] < 0 { newIndex[old] = newPool.add(binary.data, isProtected: binary.isProtected) }
          if newIndex[old] != old { moves = true }
        }
        if let history = entries[index].history { collect(history) }
      }
    }
    if let root {
      collect(root.entries)
      var walk = GroupWalk(below: root)
      while let step = walk.next() {
        if case .enter(let group, _) = step { collect(group.entries) }
      }
    }
    if !moves && newPool == binaries { return self }

    var result = self
    func remap(_ entry: inout Entry) {
      for index in entry.attachments.indices {
        let old = entry.attachments[index].binaryIndex
        if old >= 0 && old < newIndex.count && newIndex[old] >= 0 {
          entry.attachments[index].binaryIndex = newIndex[old]
        }
      }
      if var history = entry.history {
        for index in history.indices { remap(&history[index]) }
        entry.history = history
      }
    }
    if var root = result.takeRoot() {
      root.modifyEveryGroup { group in
        for index in group.entries.indices { remap(&group.entries[index]) }
      }
      result.root = root
    }
    result.binaries = newPool
    return result
  }
}

extension Entry {
  /// Attaches `data` as `name`, adding it to `pool` (an identical binary is reused): an attachment with that name
  /// is replaced, otherwise the new one is appended. Use it inside
  /// ``Database/editEntry(_:clock:withBinaries:)``.
  public mutating func attach(_ name: String, data: [UInt8], in pool: inout BinaryPool, isProtected: Bool = false) {
    let index = pool.add(data, isProtected: isProtected)
    if let existing = attachments.firstIndex(where: { $0.name == name }) {
      guard attachments[existing].binaryIndex != index else { return }
      attachments[existing].binaryIndex = index
      attachments[existing].missingReference = nil
    } else {
      attachments.append(Attachment(name: name, binaryIndex: index))
    }
  }

  /// Removes the attachment `name` (the content stays in the pool until a save drops what nothing refers to);
  /// returns whether there was one.
  @discardableResult
  public mutating func detach(_ name: String) -> Bool {
    guard let index = attachments.firstIndex(where: { $0.name == name }) else { return false }
    attachments.remove(at: index)
    return true
  }
}
