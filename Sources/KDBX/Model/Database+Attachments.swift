import KDBXBase

extension Database {
  /// The content of `attachment` (one of an entry's ``Entry/attachments``), or `nil` when the database does not
  /// hold it: the file named no content for it, or the content was not loaded
  /// (``LoadOptions/loadsAttachmentContents`` off; see ``isLoaded(_:)``).
  public func contents(of attachment: Attachment) -> [UInt8]? {
    guard let binary = binaries[attachment.binaryIndex], binary.omitted == nil else { return nil }
    return binary.data
  }

  /// The size of `attachment`'s content in bytes, also when the content was not loaded; `nil` when the file
  /// named no content for it.
  public func byteCount(of attachment: Attachment) -> Int? {
    guard let binary = binaries[attachment.binaryIndex] else { return nil }
    return binary.omitted?.byteCount ?? binary.data.count
  }

  /// Whether `attachment`'s content is in memory, so that ``contents(of:)`` returns it: `false` when the database
  /// was opened without attachment contents (``LoadOptions/loadsAttachmentContents`` off) or the file named no
  /// content for it.
  public func isLoaded(_ attachment: Attachment) -> Bool {
    guard let binary = binaries[attachment.binaryIndex] else { return false }
    return binary.omitted == nil
  }

  /// Attaches `contents` as `name` to entry `uuid`, replacing the content of an attachment of that name or adding
  /// one at the end, as an edit (`editEntry(_:clock:_:)`: the old version goes to the history). Identical
  /// contents are stored once. Returns `false` when there is no such entry (or more than one) or nothing changed.
  @discardableResult
  public mutating func setAttachment(
    named name: String, contents: [UInt8], isProtected: Bool = false, inEntry uuid: KDBXUUID, clock: some WallClock
  ) -> Bool {
    editEntry(
      uuid, clock: clock,
      withBinaries: { entry, pool in
        entry.attach(name, data: contents, in: &pool, isProtected: isProtected)
      })
  }

  /// Renames entry `uuid`'s attachment `name` to `newName`, as an edit. An attachment already named `newName` is
  /// replaced. Returns `false` when there is no such entry or attachment, or `newName` is `name`.
  @discardableResult
  public mutating func renameAttachment(
    named name: String, to newName: String, inEntry uuid: KDBXUUID, clock: some WallClock
  ) -> Bool {
    guard name != newName else { return false }
    return editEntry(uuid, clock: clock) { entry in
      guard let index = entry.attachments.firstIndex(where: { $0.name == name }) else { return }
      var renamed: [Attachment] = []
      for (position, attachment) in entry.attachments.enumerated() {
        if position == index {
          var copy = attachment
          copy.name = newName
          renamed.append(copy)
        } else if attachment.name != newName {
          renamed.append(attachment)
        }
      }
      entry.attachments = renamed
    }
  }

  /// Removes entry `uuid`'s attachment `name`, as an edit (the content stays for the history versions that refer
  /// to it; a save drops content nothing refers to). Returns `false` when there is no such entry or attachment.
  @discardableResult
  public mutating func removeAttachment(named name: String, inEntry uuid: KDBXUUID, clock: some WallClock) -> Bool {
    editEntry(uuid, clock: clock) { entry in
      entry.attachments.removeAll { $0.name == name }
    }
  }

  /// Adds `data` to the pool (reusing an identical binary) and returns an attachment named `name` that refers to it.
  package mutating func makeAttachment(name: String, data: [UInt8], isProtected: Bool = false) -> Attachment {
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
  package func compactingBinaries() -> Database {
    // First the new pool and each old index's new one, read-only: when nothing moves (a pool that is already
    // compact, as every file this library or KeePass wrote), the database is returned as it is, without copying
    // the tree.
    var newPool = BinaryPool()
    var newIndex = [Int](repeating: -1, count: binaries.count)
    var moves = false
    // By index, reading only the fields needed: a loop over the entries would copy each whole entry.
    // Each entry with its history versions (and theirs, without recursion), in pre-order.
    func collect(_ entries: [Entry]) {
      for index in entries.indices {
        entries[index].forEveryVersion { version in
          for attachment in version.attachments {
            let old = attachment.binaryIndex
            guard let binary = binaries[old] else { continue }  // a dangling reference is left as it is
            if newIndex[old] < 0 { newIndex[old] = newPool.add(binary.data, isProtected: binary.isProtected) }
            if newIndex[old] != old { moves = true }
          }
        }
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
      entry.modifyEveryVersion { version in
        for index in version.attachments.indices {
          let old = version.attachments[index].binaryIndex
          if old >= 0 && old < newIndex.count && newIndex[old] >= 0 {
            version.attachments[index].binaryIndex = newIndex[old]
          }
        }
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
  /// is replaced, otherwise the new one is appended. Use it inside `Database.editEntry(_:clock:withBinaries:)`.
  package mutating func attach(_ name: String, data: [UInt8], in pool: inout BinaryPool, isProtected: Bool = false) {
    let index = pool.add(data, isProtected: isProtected)
    if let existing = attachments.firstIndex(where: { $0.name == name }) {
      guard attachments[existing].binaryIndex != index else { return }
      attachments[existing].binaryIndex = index
      attachments[existing].missingReference = nil
    } else {
      attachments.append(Attachment(name: name, binaryIndex: index))
    }
  }
}
