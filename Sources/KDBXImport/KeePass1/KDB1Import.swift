import KDBX
import KDBXCrypto

/// Maps the records of a KeePass 1.x file to a ``Database``, as KeePassXC's importer (`KeePass1Reader`) does:
///
/// - KeePass 1.x has no root group: its groups form a tree under a new root named `Root`, each group's parent being
///   the nearest group before it with a level one less (a level that skips one is refused, as KeePassXC refuses
///   it). KeePass 1.x groups have 32-bit IDs: their UUIDs are derived from them (``groupUUID(_:)``; KeePassXC
///   draws new ones), the root's is new; a top-level `Backup` group (KeePass 1.x's recycle bin) is left out of
///   searches and auto-type.
/// - Entries keep their UUIDs (a missing, zero or repeated one gets a new UUID) and go to the group with their
///   group ID, or to the root when there is none. Fields: title, user name, password (protected), URL and notes,
///   with the auto-type lines of the notes turned into auto-type settings (``KDB1AutoType``); the attachment (one
///   per entry: name and data); the times, where KeePass 1.x's "never" (2999-12-28 23:59:59) is kept as the
///   expiry time with `expires` false, and read as no time in the other fields. What the file has no time for (the new root, the metadata, location
///   changes, a missing or invalid date) gets the latest time the file records, so that the same file always
///   imports to the same database.
/// - Icons: KeePass 1.x and KDBX share the 69 standard icons; a larger number (KeePassX's custom icons) becomes
///   icon 0 for entries and 48 (folder) for groups, and the custom icon from `KPX_CUSTOM_ICONS_4`.
/// - Meta-stream entries are consumed (``KDB1MetaStream``).
enum KDB1Import {
  /// KDBX standard icons are 0...68 (KeePass `PwIcon`).
  static let standardIconCount: UInt32 = 69
  static let folderIcon: Int64 = 48
  static let rootName = "Root"
  static let backupGroupName = "Backup"

  struct Result {
    var database: Database
    /// The names of the meta-stream entries consumed, in file order.
    var metaStreams: [String]
  }

  /// Builds the database. `maxGroupDepth` bounds the nesting (`LoadOptions.maxGroupDepth`, the cap of every group
  /// tree; the new root is depth 1, so a group of level L is at depth L + 2), so that the saved file opens.
  static func database(
    _ records: inout KDB1Records, maxGroupDepth: Int, clock: some WallClock, random: inout some RandomNumberGenerator
  ) throws(KDBXError) -> Result {
    // "Now" for what the file does not say (the root, the metadata, location changes, missing times): the last time
    // the file records, so that importing the same file twice gives the same database; the clock only without one.
    let now = latestTime(records) ?? clock.now()
    let clock = FixedClock(now)
    var database = Database.new(name: rootName, clock: clock, random: &random)
    database.meta.databaseName = ""

    // Groups, and each one's parent (nil: the root), from the levels.
    var groups: [Group] = []
    var parents: [Int?] = []
    var groupIndex: [UInt32: Int] = [:]
    var path: [(level: UInt16, index: Int)] = []
    var usedUUIDs: Set<KDBXUUID> = [database.root?.uuid ?? .zero]
    groups.reserveCapacity(records.groups.count)
    for (index, record) in records.groups.enumerated() {
      let level = record.level ?? 0
      guard Int(level) + 2 <= maxGroupDepth else {
        throw .limitExceeded(
          what: "group nesting depth", value: UInt64(level) + 2, limit: UInt64(clamping: max(maxGroupDepth, 0)))
      }
      while let last = path.last, last.level >= level { path.removeLast() }
      if level == 0 {
        parents.append(nil)
      } else {
        guard let parent = path.last, parent.level == level - 1 else {
          throw .malformedRecord(
            offset: record.offset,
            reason: "group \(index + 1) has level \(level) but the group before it at a lower level is not at "
              + "level \(level - 1), so it has no parent")
        }
        parents.append(parent.index)
      }
      path.append((level, index))
      var group = Group.new(name: String(decoding: record.name, as: UTF8.self), clock: clock, random: &random)
      if let id = record.id, !usedUUIDs.contains(groupUUID(id)) { group.uuid = groupUUID(id) }
      usedUUIDs.insert(group.uuid)
      if let image = record.image { group.iconID = image < standardIconCount ? Int64(image) : folderIcon }
      group.times = times(
        record.creation, record.modification, record.access, record.expiry, now: now, base: group.times)
      group.isExpanded = (record.flags ?? 0) & 1 != 0  // KeePass 1.x PWGF_EXPANDED
      if level == 0, record.name.elementsEqual(backupGroupName.utf8) {
        group.enableSearching = .some(false)
        group.enableAutoType = .some(false)
      }
      groups.append(group)
      if let id = record.id { groupIndex[id] = index }
    }

    // Entries, in their groups; meta-streams aside.
    var groupEntries = [[Entry]](repeating: [], count: groups.count)
    var rootEntries: [Entry] = []
    var entryLocation: [KDBXUUID: (group: Int?, position: Int)] = [:]
    var metaStreams: [(name: String, data: [UInt8])] = []
    var pool = AttachmentPool()
    for index in records.entries.indices {
      defer { SecureBytes.wipe(&records.entries[index].password) }
      let record = records.entries[index]
      if KDB1MetaStream.isMetaStream(record) {
        metaStreams.append((String(decoding: record.notes, as: UTF8.self), record.binaryData ?? []))
        continue
      }
      var entry = makeEntry(record, now: now, clock: clock, random: &random, pool: &pool)
      let fileUUID = record.uuid.flatMap { KDBXUUID(bytes: $0) }
      if let fileUUID, !fileUUID.isZero, !usedUUIDs.contains(fileUUID) { entry.uuid = fileUUID }
      usedUUIDs.insert(entry.uuid)
      let owner = record.groupID.flatMap { groupIndex[$0] }
      let position: Int
      if let owner {
        position = groupEntries[owner].count
        groupEntries[owner].append(entry)
      } else {
        position = rootEntries.count
        rootEntries.append(entry)
      }
      if let fileUUID, entryLocation[fileUUID] == nil { entryLocation[fileUUID] = (owner, position) }
    }

    database.binaries = BinaryPool(binaries: pool.binaries)

    // Meta-streams.
    for stream in metaStreams {
      switch stream.name {
      case KDB1MetaStream.customIcons:
        let icons = KDB1MetaStream.readCustomIcons(stream.data)
        var iconUUIDs: [KDBXUUID?] = []
        // A set of the icons added, not a search of the list per icon (quadratic in the icons of the stream).
        var added = Set((database.meta.customIcons ?? []).map { $0.uuid })
        for data in icons.icons {
          guard !data.isEmpty else {
            iconUUIDs.append(nil)
            continue
          }
          let uuid = iconUUID(data)
          if added.insert(uuid).inserted {
            if database.meta.customIcons == nil { database.meta.customIcons = [] }
            database.meta.customIcons?.append(CustomIcon(uuid: uuid, data: data))
          }
          iconUUIDs.append(uuid)
        }
        func iconAt(_ index: UInt32) -> KDBXUUID? {
          UInt64(index) < UInt64(iconUUIDs.count) ? iconUUIDs[Int(index)] : nil
        }
        for item in icons.entries {
          guard let uuid = KDBXUUID(bytes: item.uuid), let location = entryLocation[uuid],
            let icon = iconAt(item.icon)
          else { continue }
          if let owner = location.group {
            groupEntries[owner][location.position].customIconUUID = icon
          } else {
            rootEntries[location.position].customIconUUID = icon
          }
        }
        for item in icons.groups {
          guard let index = groupIndex[item.groupID], let icon = iconAt(item.icon) else { continue }
          groups[index].customIconUUID = icon
        }
      case KDB1MetaStream.groupTreeState:
        for item in KDB1MetaStream.readGroupTreeState(stream.data) ?? [] {
          if let index = groupIndex[item.groupID] { groups[index].isExpanded = item.expanded }
        }
      case KDB1MetaStream.defaultUserName:
        database.meta.defaultUserName = String(decoding: KDB1Records.text(stream.data[...]), as: UTF8.self)
      default:
        break
      }
    }

    // The tree, from the last group back: every descendant of a group comes after it, so it is complete.
    var children = [[Int]](repeating: [], count: groups.count)
    var topLevel: [Int] = []
    for (index, parent) in parents.enumerated() {
      if let parent { children[parent].append(index) } else { topLevel.append(index) }
    }
    var built: [Group?] = groups.map { $0 }
    groups = []
    for index in built.indices.reversed() {
      guard var group = built[index] else { continue }
      group.entries = groupEntries[index]
      groupEntries[index] = []
      group.groups = children[index].compactMap { child in
        defer { built[child] = nil }
        return built[child]
      }
      built[index] = group
    }
    if var root = database.root {
      root.entries = rootEntries
      root.groups = topLevel.compactMap { built[$0] }
      database.root = root
    }
    return Result(database: database, metaStreams: metaStreams.map { $0.name })
  }

  /// The latest valid creation, modification or access time of the records (expiry times are in the future).
  static func latestTime(_ records: KDB1Records) -> Timestamp? {
    var latest: Timestamp?
    func consider(_ bytes: ArraySlice<UInt8>?) {
      guard let time = bytes.flatMap(knownTime) else { return }
      if latest.map({ time > $0 }) ?? true { latest = time }
    }
    for group in records.groups {
      consider(group.creation)
      consider(group.modification)
      consider(group.access)
    }
    for entry in records.entries {
      consider(entry.creation)
      consider(entry.modification)
      consider(entry.access)
    }
    return latest
  }

  /// The UUID of the group with KeePass 1.x ID `id`: the first 16 bytes of `SHA-256("KeePass 1.x group " ‖ id as
  /// UInt32 LE)`. The same file gives the same UUIDs every time it is imported, so that a later import merges
  /// into an earlier one group by group (entries keep their own UUIDs); KeePass 1.x draws group IDs at random.
  static func groupUUID(_ id: UInt32) -> KDBXUUID {
    var hasher = SHA256()
    hasher.update(Array("KeePass 1.x group ".utf8))
    hasher.update((0..<4).map { UInt8(truncatingIfNeeded: id >> ($0 * 8)) })
    return KDBXUUID(uncheckedBytes: Array(hasher.finalize().bytes[0..<16]))
  }

  /// The UUID of a custom icon: the first 16 bytes of `SHA-256("KeePass 1.x icon " ‖ data)`, stable across
  /// imports as ``groupUUID(_:)`` is (the same picture is one icon).
  static func iconUUID(_ data: [UInt8]) -> KDBXUUID {
    var hasher = SHA256()
    hasher.update(Array("KeePass 1.x icon ".utf8))
    hasher.update(data)
    return KDBXUUID(uncheckedBytes: Array(hasher.finalize().bytes[0..<16]))
  }

  /// The attachments' binaries, equal contents shared, found in a hash table (`Database.makeAttachment` compares
  /// the new data with every binary so far: quadratic in the number of entries with an attachment). Hashing reads
  /// each attachment once, so the work is linear in the content's size.
  struct AttachmentPool {
    var binaries: [BinaryPool.Binary] = []
    var index: [[UInt8]: Int] = [:]

    mutating func add(_ data: [UInt8]) -> Int {
      if let found = index[data] { return found }
      binaries.append(BinaryPool.Binary(data: data))
      index[data] = binaries.count - 1
      return binaries.count - 1
    }
  }

  static func makeEntry(
    _ record: KDB1Records.EntryRecord, now: Timestamp, clock: some WallClock, random: inout some RandomNumberGenerator,
    pool: inout AttachmentPool
  ) -> Entry {
    var entry = Entry.new(clock: clock, random: &random)
    if let image = record.image { entry.iconID = image < standardIconCount ? Int64(image) : 0 }
    let parsed = KDB1AutoType.parse(record.notes)
    entry[field: Entry.titleField] = .plain(String(decoding: record.title, as: UTF8.self))
    entry[field: Entry.userNameField] = .plain(String(decoding: record.userName, as: UTF8.self))
    var password = validUTF8(record.password)
    entry[field: Entry.passwordField] = .protected(ProtectedValue(bytes: password, using: &random))
    SecureBytes.wipe(&password)
    entry[field: Entry.urlField] = .plain(String(decoding: record.url, as: UTF8.self))
    entry[field: Entry.notesField] = .plain(parsed.notes)
    entry.times = times(record.creation, record.modification, record.access, record.expiry, now: now, base: entry.times)
    var autoType = entry.autoType ?? AutoType(enabled: true, dataTransferObfuscation: 0)
    autoType.defaultSequence = parsed.defaultSequence
    autoType.associations = parsed.associations
    entry.autoType = autoType
    let data = record.binaryData ?? []
    if !data.isEmpty || !record.binaryDescription.isEmpty {
      let name =
        record.binaryDescription.isEmpty ? "attachment" : String(decoding: record.binaryDescription, as: UTF8.self)
      entry.attachments.append(Attachment(name: name, binaryIndex: pool.add(data)))
    }
    return entry
  }

  /// A creation, modification or access time, or `nil` when it is not a valid date or is "never" (KeePassX writes
  /// "never" in every time of a group; KeePassXC reads it as no time).
  static func knownTime(_ bytes: ArraySlice<UInt8>) -> Timestamp? {
    KDB1Time.isNever(bytes) ? nil : KDB1Time.timestamp(bytes)
  }

  /// The record's times over `base` (which holds the fallback time for what is missing or not a valid date).
  static func times(
    _ creation: ArraySlice<UInt8>?, _ modification: ArraySlice<UInt8>?, _ access: ArraySlice<UInt8>?,
    _ expiry: ArraySlice<UInt8>?, now: Timestamp, base: Times?
  ) -> Times {
    var times = base ?? Times.created(at: now)
    if let time = creation.flatMap(knownTime) { times.creationTime = time }
    if let time = modification.flatMap(knownTime) { times.lastModificationTime = time }
    if let time = access.flatMap(knownTime) { times.lastAccessTime = time }
    if let expiry, let time = KDB1Time.timestamp(expiry) {
      times.expiryTime = time
      times.expires = !KDB1Time.isNever(expiry)
    }
    return times
  }

  /// `bytes` when they are valid UTF-8, else the UTF-8 of their decoding with U+FFFD for invalid sequences.
  static func validUTF8(_ bytes: [UInt8]) -> [UInt8] {
    ImportFormat.isUTF8(bytes) ? bytes : Array(String(decoding: bytes, as: UTF8.self).utf8)
  }
}
