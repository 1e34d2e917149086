// Entry history as KeePass keeps it (KeePassLib `PwEntry.CreateBackup`, `MaintainBackups`, `GetSize`).

extension Entry {
  /// KeePass's approximate size of the entry in memory (KeePassLib `PwEntry.GetSize`): 128 bytes of fixed data,
  /// plus the length of every string field name and value, attachment name and content, auto-type sequence and
  /// window, override URL, tag and custom data item, plus the size of every history entry. Lengths of text count
  /// UTF-16 code units, as .NET's `String.Length` does; attachment contents count bytes (looked up in `binaries`).
  package func approximateSize(binaries: BinaryPool) -> Int {
    var size = 0
    forEveryVersion { version in size += version.ownApproximateSize(binaries: binaries) }
    return size
  }

  /// ``approximateSize(binaries:)`` without the history.
  private func ownApproximateSize(binaries: BinaryPool) -> Int {
    var size = 128
    for field in fields {
      size += field.key.utf16.count
      switch field.value {
      case .plain(let text): size += text.utf16.count
      case .protected(let value): size += value.reveal().utf16.count
      }
    }
    for attachment in attachments {
      size += attachment.name.utf16.count
      size += binaries[attachment.binaryIndex]?.data.count ?? 0
    }
    if let autoType {
      size += autoType.defaultSequence?.utf16.count ?? 0
      for association in autoType.associations {
        size += association.window.utf16.count + (association.keystrokeSequence?.utf16.count ?? 0)
      }
    }
    size += overrideURL?.utf16.count ?? 0
    for tag in tags { size += tag.utf16.count }
    for item in customData?.items ?? [] { size += item.key.utf16.count + item.value.utf16.count }
    return size
  }

  /// Appends a copy of the entry, without its own history, to ``history`` (KeePassLib `PwEntry.CreateBackup`).
  package mutating func createBackup() {
    var snapshot = self
    snapshot.history = nil
    snapshot.historyLayout = XMLLayout()
    var list = history ?? []
    list.append(snapshot)
    history = list
  }

  /// Removes history entries, oldest modification time first, until at most `maxItems` remain and their total
  /// ``approximateSize(binaries:)`` is at most `maxSize` (KeePassLib `PwEntry.MaintainBackups`). A negative limit
  /// means no limit. Returns the removed entries, in the order KeePass removes them: oldest first, and among equal
  /// times (or none) the earliest in the list first.
  ///
  /// One stable sort of the positions by time, then one pass: O(n log n) for n history entries. KeePass finds and
  /// removes the oldest entry once per removal, which took seconds for a few thousand entries and minutes for
  /// 20,000 (each scan copied every entry).
  @discardableResult
  package mutating func trimHistory(maxItems: Int64, maxSize: Int64, binaries: BinaryPool) -> [Entry] {
    // Versions nested in versions count as versions of this entry (and are released a version at a time).
    flattenHistory()
    guard let list = history, !list.isEmpty else { return [] }
    let times = list.map { $0.times?.lastModificationTime ?? .minimum }
    // The removal order: by time, ties in list order (the first minimum is the one KeePass's scan finds).
    let order = list.indices.sorted { times[$0] < times[$1] || (times[$0] == times[$1] && $0 < $1) }
    var removedCount = 0
    if maxItems >= 0, Int64(list.count) > maxItems { removedCount = list.count - Int(maxItems) }
    if maxSize >= 0 {
      let sizes = list.map { $0.approximateSize(binaries: binaries) }
      var total = 0
      for position in order[removedCount...] { total += sizes[position] }
      while removedCount < list.count && Int64(total) > maxSize {
        total -= sizes[order[removedCount]]
        removedCount += 1
      }
    }
    guard removedCount > 0 else { return [] }
    var isRemoved = [Bool](repeating: false, count: list.count)
    for position in order[..<removedCount] { isRemoved[position] = true }
    var kept: [Entry] = []
    kept.reserveCapacity(list.count - removedCount)
    for position in list.indices where !isRemoved[position] { kept.append(list[position]) }
    history = kept
    return order[..<removedCount].map { list[$0] }
  }
}

extension Meta {
  /// ``historyMaxItems``, or KeePass's default of 10 when the file has none.
  public var effectiveHistoryMaxItems: Int64 { historyMaxItems ?? 10 }
  /// ``historyMaxSize``, or KeePass's default of 6 MiB when the file has none.
  public var effectiveHistoryMaxSize: Int64 { historyMaxSize ?? 6 * 1_024 * 1_024 }
}

/// What the entries' history holds, and what trimming it to the database's limits would free.
///
/// ```swift
/// let report = database.historyReport()
/// if report.trimmableEntryCount > 0 {
///   show("History", "\(report.trimmableEntryCount) old versions over the limits, \(report.trimmableSize) bytes")
///   database.trimAllHistory()
/// }
/// ```
public struct HistoryReport: Sendable, Equatable {
  /// The number of history entries over all entries.
  public var historyEntryCount: Int
  /// The total approximate size of all history entries (attachments included).
  public var historySize: Int
  /// The bytes of attachment contents that only history entries refer to: deleting all history frees them.
  public var attachmentBytesOnlyInHistory: Int
  /// The history entries that trimming to ``Meta/historyMaxItems`` and ``Meta/historyMaxSize`` would remove.
  public var trimmableEntryCount: Int
  /// Their total approximate size.
  public var trimmableSize: Int
  /// The bytes of attachment contents no entry would refer to any more after trimming.
  public var attachmentBytesFreedByTrimming: Int
}

extension Database {
  /// Edits the current entry `uuid` as KeePass's entry dialog does: when `edit` changes the entry, the old version
  /// (without its history) is appended to the history, the entry is touched (last modification and access time
  /// from `clock`, usage count + 1) and the history is trimmed to the Meta limits. Returns `false` when there is
  /// no such entry, more than one entry has that UUID (a damaged file), or `edit`
  /// changed nothing. When `edit` throws, nothing is changed and the error is passed on.
  ///
  /// To add, replace, rename or remove an attachment, use ``setAttachment(named:contents:isProtected:inEntry:clock:)``
  /// and its siblings, which edit the entry this way.
  ///
  /// ```swift
  /// database.editEntry(uuid, clock: clock) { $0.userName = "octocat" }
  /// ```
  @discardableResult
  public mutating func editEntry(_ uuid: KDBXUUID, clock: some WallClock, _ edit: (inout Entry) -> Void) -> Bool {
    guard let position = uniquePosition(ofEntry: uuid) else { return false }
    return editEntry(at: position, clock: clock, edit)
  }

  /// `editEntry(_:clock:_:)` with a closure that throws: when it throws, nothing is changed and the error is
  /// passed on. (The non-throwing form is kept beside it: the Swift 6 compiler crashes on a typed-throws generic
  /// called through optional chaining, `session.database?.editEntry(...)`.)
  @discardableResult
  public mutating func editEntry<Failure: Error>(
    _ uuid: KDBXUUID, clock: some WallClock, _ edit: (inout Entry) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    guard let position = uniquePosition(ofEntry: uuid) else { return false }
    return try editEntry(at: position, clock: clock, edit)
  }

  /// Edits the entry at `position` as `editEntry(_:clock:_:)` does. Returns `false` when there is no entry
  /// there or `edit` changed nothing. The entry keeps its UUID. When `edit` throws, nothing is changed.
  @discardableResult
  package mutating func editEntry<Failure: Error>(
    at position: EntryPosition, clock: some WallClock, _ edit: (inout Entry) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    guard let current = entry(at: position) else { return false }
    var edited = current
    try edit(&edited)
    return commitEdit(edited, replacing: current, at: position, clock: clock)
  }

  /// Edits entry `uuid` as `editEntry(_:clock:_:)` does, with the database's attachment pool passed to `edit`
  /// as well, so that attachments can be added in the same edit. When `edit` throws, neither the entry nor the pool is
  /// changed.
  @discardableResult
  package mutating func editEntry<Failure: Error>(
    _ uuid: KDBXUUID, clock: some WallClock, withBinaries edit: (inout Entry, inout BinaryPool) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    guard let position = uniquePosition(ofEntry: uuid), let current = entry(at: position) else { return false }
    var edited = current
    var pool = binaries
    try edit(&edited, &pool)
    binaries = pool
    return commitEdit(edited, replacing: current, at: position, clock: clock)
  }

  /// Stores `edited` over `current` at `position` with a history snapshot, as `editEntry(_:clock:_:)` describes.
  private mutating func commitEdit(
    _ edited: Entry, replacing current: Entry, at position: EntryPosition, clock: some WallClock
  ) -> Bool {
    var edited = edited
    guard edited != current else { return false }
    edited.uuid = current.uuid
    var snapshot = current
    snapshot.history = nil
    edited.history = (current.history ?? []) + [snapshot]
    edited.touch(modified: true, clock: clock)
    let pool = binaries
    let limits = (meta.effectiveHistoryMaxItems, meta.effectiveHistoryMaxSize)
    edited.trimHistory(maxItems: limits.0, maxSize: limits.1, binaries: pool)
    return modifyEntry(at: position) { $0 = edited }
  }

  /// Trims every entry's history to the Meta limits; returns the number of history entries removed.
  @discardableResult
  public mutating func trimAllHistory() -> Int {
    let pool = binaries
    let limits = (meta.effectiveHistoryMaxItems, meta.effectiveHistoryMaxSize)
    guard var tree = takeRoot() else { return 0 }
    var removed = 0
    tree.modifyEveryGroup { group in
      for index in group.entries.indices {
        removed += group.entries[index].trimHistory(maxItems: limits.0, maxSize: limits.1, binaries: pool).count
      }
    }
    root = tree
    return removed
  }

  /// A report of the bytes held by history and what ``trimAllHistory()`` would free.
  public func historyReport() -> HistoryReport {
    var report = HistoryReport(
      historyEntryCount: 0, historySize: 0, attachmentBytesOnlyInHistory: 0, trimmableEntryCount: 0,
      trimmableSize: 0, attachmentBytesFreedByTrimming: 0)
    var currentRefs = Set<Int>()
    var historyRefs = Set<Int>()
    var keptRefs = Set<Int>()
    let limits = (meta.effectiveHistoryMaxItems, meta.effectiveHistoryMaxSize)
    root?.forEachEntry { entry, _ in
      for attachment in entry.attachments { currentRefs.insert(attachment.binaryIndex) }
      for old in entry.history ?? [] {
        report.historyEntryCount += 1
        report.historySize += old.approximateSize(binaries: binaries)
        for attachment in old.attachments { historyRefs.insert(attachment.binaryIndex) }
      }
      var trimmed = entry
      let removed = trimmed.trimHistory(maxItems: limits.0, maxSize: limits.1, binaries: binaries)
      report.trimmableEntryCount += removed.count
      report.trimmableSize += removed.reduce(0) { $0 + $1.approximateSize(binaries: binaries) }
      for old in trimmed.history ?? [] {
        for attachment in old.attachments { keptRefs.insert(attachment.binaryIndex) }
      }
    }
    func bytes(_ indices: Set<Int>) -> Int { indices.reduce(0) { $0 + (binaries[$1]?.data.count ?? 0) } }
    report.attachmentBytesOnlyInHistory = bytes(historyRefs.subtracting(currentRefs))
    report.attachmentBytesFreedByTrimming = bytes(historyRefs.subtracting(currentRefs).subtracting(keptRefs))
    return report
  }
}
