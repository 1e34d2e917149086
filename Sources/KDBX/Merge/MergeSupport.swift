/// Helpers shared by the two-way and three-way merges: history union, attachment remapping into the local binary
/// pool, and tombstones. Objects are compared with ``MergeEquivalence``.
enum MergeSupport {
  static func modified(_ times: Times?) -> Timestamp { times?.lastModificationTime ?? .minimum }
  static func located(_ times: Times?) -> Timestamp { times?.locationChanged ?? .minimum }

  /// A set of history items (entries without history) that answers "is an equivalent version already here?" in
  /// constant expected time, by ``MergeEquivalence/digest(_:pool:)``.
  struct VersionSet {
    let pool: BinaryPool
    private(set) var items: [Entry] = []
    private var buckets: [Int: [Int]] = [:]
    /// At most this many candidates with one digest are compared. Equal digests with different content take
    /// crafted input (they differ only in unknown elements or custom data); past the bound, a version counts as
    /// new and is kept, which loses nothing and keeps the work linear.
    static let maxCandidates = 32

    init(_ items: [Entry], pool: BinaryPool) {
      self.pool = pool
      self.items.reserveCapacity(items.count)
      for item in items { insert(item) }
    }

    func contains(_ entry: Entry) -> Bool { contains(entry, digest: MergeEquivalence.digest(entry, pool: pool)) }

    private func contains(_ entry: Entry, digest: Int) -> Bool {
      for position in (buckets[digest] ?? []).prefix(Self.maxCandidates)
      where MergeEquivalence.same(items[position], entry, pool: pool) {
        return true
      }
      return false
    }

    /// Adds `entry` unless an equivalent version is present; returns whether it was added.
    @discardableResult
    mutating func insertIfNew(_ entry: Entry) -> Bool {
      let digest = MergeEquivalence.digest(entry, pool: pool)
      guard !contains(entry, digest: digest) else { return false }
      buckets[digest, default: []].append(items.count)
      items.append(entry)
      return true
    }

    private mutating func insert(_ entry: Entry) {
      buckets[MergeEquivalence.digest(entry, pool: pool), default: []].append(items.count)
      items.append(entry)
    }
  }

  /// The union of `history` and `extra` (each stripped of its own history): an item of `extra` is added unless an
  /// equivalent version (``MergeEquivalence``) is already there, and the list is then ordered by modification time
  /// (oldest first, as KeePass keeps history; stable). Linear in the number of items. Returns the merged list and
  /// how many items came from `extra`.
  static func unionHistory(_ history: [Entry]?, adding extra: [Entry], pool: BinaryPool) -> (
    history: [Entry], added: Int
  ) {
    let current = history ?? []
    // The common case of a synchronised vault: the same list on both sides.
    if extra.count == current.count,
      zip(current, extra).allSatisfy({ MergeEquivalence.same($0, $1, pool: pool) })
    {
      return (current, 0)
    }
    var set = VersionSet(current, pool: pool)
    var added = 0
    for item in extra {
      var item = item
      item.history = nil
      item.historyLayout = XMLLayout()
      if set.insertIfNew(item) { added += 1 }
    }
    // Nothing new: keep the list exactly as it was (also its order, whatever the clocks said).
    guard added > 0 else { return (current, 0) }
    let merged = set.items.enumerated().sorted { lhs, rhs in
      let l = modified(lhs.element.times)
      let r = modified(rhs.element.times)
      return l == r ? lhs.offset < rhs.offset : l < r
    }.map { $0.element }
    return (merged, added)
  }

  /// Maps the binaries of one database into the merge's pool, each source binary once, by content.
  struct BinaryRemap {
    let source: BinaryPool
    private var mapped: [Int: Int] = [:]
    private var byContent: [[UInt8]: Int]? = nil

    init(source: BinaryPool) { self.source = source }

    mutating func index(of sourceIndex: Int, into pool: inout BinaryPool) -> Int {
      if let known = mapped[sourceIndex] { return known }
      // A reference the source pool does not have stays dangling (``Attachment/missingBinaryIndex``) instead of
      // pointing at another attachment of the merged pool.
      guard let binary = source[sourceIndex] else { return Attachment.missingBinaryIndex }
      if byContent == nil {
        var table: [[UInt8]: Int] = [:]
        for position in 0..<pool.count {
          if let data = pool[position]?.data, table[data] == nil { table[data] = position }
        }
        byContent = table
      }
      let result: Int
      if let existing = byContent?[binary.data] {
        if binary.isProtected, pool[existing]?.isProtected == false {
          _ = pool.add(binary.data, isProtected: true)
        }
        result = existing
      } else {
        pool.appendAsRead(binary)
        result = pool.count - 1
        byContent?[binary.data] = result
      }
      mapped[sourceIndex] = result
      return result
    }

    /// `entry` (and its history) with attachments pointing into `pool`.
    mutating func remap(_ entry: Entry, into pool: inout BinaryPool) -> Entry {
      var copy = entry
      copy.modifyEveryVersion { version in
        for index in version.attachments.indices {
          version.attachments[index].binaryIndex = self.index(of: version.attachments[index].binaryIndex, into: &pool)
        }
      }
      return copy
    }

    /// `group` and everything below it with attachments pointing into `pool`.
    mutating func remap(_ group: Group, into pool: inout BinaryPool) -> Group {
      var copy = group
      copy.modifyEveryGroup { group in
        for index in group.entries.indices { group.entries[index] = remap(group.entries[index], into: &pool) }
      }
      return copy
    }
  }

  /// The tree of `database`, with its binaries remapped into `pool` (its own copy, freed a group at a time as it
  /// may be of any depth, once the tree is built); a missing root is an empty group with `rootUUID`, and the root
  /// matches `alias`, the result's root.
  static func remappedTree(
    _ database: Database, into pool: inout BinaryPool, rootUUID: KDBXUUID, alias: KDBXUUID
  ) -> MergeTree {
    var remap = BinaryRemap(source: database.binaries)
    let root = remap.remap(database.root ?? Group(uuid: rootUUID, name: nil), into: &pool)
    let tree = MergeTree(root: root, rootAlias: alias)
    var remapped = [consume root]
    Group.releaseIteratively(&remapped)
    return tree
  }

  /// What every merge starts from: both sides with versions nested in versions (only an app builds them) merged as
  /// one list, as the save writes them; the result's binary pool (the local one) and tree (the local one); the
  /// remote tree with its binaries in that pool.
  struct Sides {
    let local: Database
    let remote: Database
    var pool: BinaryPool
    let tree: MergeTree
    let remoteTree: MergeTree

    init(local: Database, remote: Database) {
      self.local = local.flatteningNestedHistory()
      self.remote = remote.flatteningNestedHistory()
      pool = self.local.binaries
      let localRoot = self.local.root ?? self.remote.root ?? Group(uuid: .zero, name: nil)
      tree = MergeTree(root: localRoot)
      remoteTree = MergeSupport.remappedTree(self.remote, into: &pool, rootUUID: localRoot.uuid, alias: tree.rootUUID)
    }
  }

  /// Trims the history of each entry in `uuids` to `meta`'s limits (``Entry/trimHistory(maxItems:maxSize:binaries:)``,
  /// KeePassLib `PwEntry.MaintainBackups`: while there are more than `HistoryMaxItems` versions, or their total
  /// size exceeds `HistoryMaxSize`, the one with the oldest modification time goes; -1 means no limit).
  static func trimHistory(of uuids: [KDBXUUID], in tree: inout MergeTree, meta: Meta, pool: BinaryPool) {
    let maxItems = meta.effectiveHistoryMaxItems
    let maxSize = meta.effectiveHistoryMaxSize
    for uuid in uuids {
      tree.entries[uuid]?.entry.trimHistory(maxItems: maxItems, maxSize: maxSize, binaries: pool)
    }
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
