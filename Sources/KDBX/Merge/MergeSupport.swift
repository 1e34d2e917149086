/// Helpers shared by the two-way and three-way merges: content comparison, history union, attachment remapping
/// into the local binary pool, and tombstones.
enum MergeSupport {
  /// An entry without what a merge does not compare: history, access time, usage count and location data.
  static func content(_ entry: Entry) -> Entry {
    var copy = entry
    copy.history = nil
    copy.historyLayout = XMLLayout()
    copy.times = comparable(copy.times)
    copy.previousParentGroup = nil
    return copy
  }

  /// A group without what a merge does not compare (children, access data, location data).
  static func content(_ group: Group) -> Group {
    var copy = group
    copy.entries = []
    copy.groups = []
    copy.childOrder = []
    copy.times = comparable(copy.times)
    copy.previousParentGroup = nil
    copy.isExpanded = nil
    copy.lastTopVisibleEntry = nil
    return copy
  }

  /// Times without what a merge does not compare: access time, usage count and location change.
  static func comparable(_ times: Times?) -> Times? {
    guard var times else { return nil }
    times.lastAccessTime = nil
    times.usageCount = nil
    times.locationChanged = nil
    return times
  }

  static func modified(_ times: Times?) -> Timestamp { times?.lastModificationTime ?? .minimum }
  static func located(_ times: Times?) -> Timestamp { times?.locationChanged ?? .minimum }

  /// The union of `history` and `extra` (each stripped of its own history), ordered by modification time, with
  /// exact duplicates dropped. Returns the merged list and how many items came from `extra`.
  static func unionHistory(_ history: [Entry]?, adding extra: [Entry]) -> (history: [Entry], added: Int) {
    var merged = history ?? []
    var added = 0
    for item in extra {
      var item = item
      item.history = nil
      let candidate = content(item)
      if merged.contains(where: { content($0) == candidate }) { continue }
      merged.append(item)
      added += 1
    }
    // Nothing new: keep the list exactly as it was (also its order, whatever the clocks said).
    guard added > 0 else { return (merged, 0) }
    // Stable sort by modification time (oldest first, as KeePass keeps history).
    let indexed = merged.enumerated().map { ($0.offset, $0.element) }
    merged = indexed.sorted { lhs, rhs in
      let l = modified(lhs.1.times)
      let r = modified(rhs.1.times)
      return l == r ? lhs.0 < rhs.0 : l < r
    }.map { $0.1 }
    return (merged, added)
  }

  /// `entry` (and its history) with attachments pointing into `pool`, copying binaries from `source`.
  static func remapAttachments(_ entry: Entry, from source: BinaryPool, into pool: inout BinaryPool) -> Entry {
    var copy = entry
    for index in copy.attachments.indices {
      if let binary = source[copy.attachments[index].binaryIndex] {
        copy.attachments[index].binaryIndex = pool.add(binary.data, isProtected: binary.isProtected)
      }
    }
    if let history = copy.history {
      copy.history = history.map { remapAttachments($0, from: source, into: &pool) }
    }
    return copy
  }

  /// The latest deletion time per UUID over both lists, in first-seen order.
  static func tombstones(_ lists: [[DeletedObject]?]) -> (order: [KDBXUUID], byUUID: [KDBXUUID: DeletedObject]) {
    var order: [KDBXUUID] = []
    var byUUID: [KDBXUUID: DeletedObject] = [:]
    for list in lists {
      for object in list ?? [] {
        if let existing = byUUID[object.uuid] {
          if (object.deletionTime ?? .minimum) > (existing.deletionTime ?? .minimum) { byUUID[object.uuid] = object }
        } else {
          order.append(object.uuid)
          byUUID[object.uuid] = object
        }
      }
    }
    return (order, byUUID)
  }
}
