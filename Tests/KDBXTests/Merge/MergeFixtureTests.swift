import KDBX
import Testing

/// Databases built in code for the merge tests, with explicit times (seconds after a fixed origin).
enum MergeFixture {
  static func time(_ seconds: Int64) -> Timestamp { Timestamp(unixSeconds: 1_700_000_000 + seconds) }
  static func uuid(_ number: UInt8) -> KDBXUUID {
    KDBXUUID(bytes: [UInt8](repeating: 0xA0, count: 15) + [number]) ?? .zero
  }
  static let root = uuid(1)
  static let groupA = uuid(2)
  static let groupB = uuid(3)
  static let entry1 = uuid(11)
  static let entry2 = uuid(12)
  static let entry3 = uuid(13)

  static func entry(_ id: KDBXUUID, title: String, password: String = "secret", at seconds: Int64 = 0) -> Entry {
    var entry = Entry(uuid: id)
    entry.times = Times.created(at: time(seconds))
    entry[field: "Title"] = .plain(title)
    entry[field: "Password"] = .plain(password)
    entry.history = []
    return entry
  }

  static func group(_ id: KDBXUUID, name: String, entries: [Entry] = [], groups: [Group] = []) -> Group {
    var group = Group(uuid: id, name: name)
    group.times = Times.created(at: time(0))
    group.entries = entries
    group.groups = groups
    group.childOrder = entries.map { _ in true } + groups.map { _ in false }
    return group
  }

  /// Root with groups A (entries 1 and 2) and B (entry 3).
  static func base() -> Database {
    let a = group(groupA, name: "A", entries: [entry(entry1, title: "one"), entry(entry2, title: "two")])
    let b = group(groupB, name: "B", entries: [entry(entry3, title: "three")])
    var meta = Meta()
    meta.databaseName = "base"
    meta.databaseNameChanged = time(0)
    var database = Database(meta: meta, root: group(root, name: "Root", groups: [a, b]))
    database.deletedObjects = []
    return database
  }

  // MARK: finding and changing objects

  static func findEntry(_ id: KDBXUUID, in group: Group, parent: KDBXUUID? = nil) -> (Entry, KDBXUUID)? {
    if let entry = group.entries.first(where: { $0.uuid == id }) { return (entry, group.uuid) }
    for child in group.groups {
      if let found = findEntry(id, in: child) { return found }
    }
    return nil
  }

  static func entry(_ id: KDBXUUID, in database: Database) -> Entry? {
    database.root.flatMap { findEntry(id, in: $0)?.0 }
  }

  static func parent(of id: KDBXUUID, in database: Database) -> KDBXUUID? {
    database.root.flatMap { findEntry(id, in: $0)?.1 }
  }

  static func findGroup(_ id: KDBXUUID, in group: Group) -> Group? {
    if group.uuid == id { return group }
    for child in group.groups {
      if let found = findGroup(id, in: child) { return found }
    }
    return nil
  }

  static func group(_ id: KDBXUUID, in database: Database) -> Group? {
    database.root.flatMap { findGroup(id, in: $0) }
  }

  static func allEntryIDs(_ group: Group) -> [KDBXUUID] {
    group.entries.map(\.uuid) + group.groups.flatMap(allEntryIDs)
  }

  static func allGroupIDs(_ group: Group) -> [KDBXUUID] { [group.uuid] + group.groups.flatMap(allGroupIDs) }

  static func mutateGroups(_ group: inout Group, _ body: (inout Group) -> Void) {
    body(&group)
    for index in group.groups.indices { mutateGroups(&group.groups[index], body) }
  }

  static func mutate(_ database: inout Database, _ body: (inout Group) -> Void) {
    guard var root = database.root else { return }
    mutateGroups(&root, body)
    database.root = root
  }

  /// Edits an entry as KeePass does: the old version goes to history, the modification time is set.
  static func edit(_ database: inout Database, _ id: KDBXUUID, at seconds: Int64, _ change: (inout Entry) -> Void) {
    mutate(&database) { group in
      guard let index = group.entries.firstIndex(where: { $0.uuid == id }) else { return }
      var old = group.entries[index]
      old.history = nil
      var entry = group.entries[index]
      change(&entry)
      entry.history = (entry.history ?? []) + [old]
      entry.times?.lastModificationTime = time(seconds)
      group.entries[index] = entry
    }
  }

  static func setPassword(_ database: inout Database, _ id: KDBXUUID, _ password: String, at seconds: Int64) {
    edit(&database, id, at: seconds) { $0[field: "Password"] = .plain(password) }
  }

  /// Moves an entry to another group and sets `LocationChanged`.
  static func move(_ database: inout Database, _ id: KDBXUUID, to target: KDBXUUID, at seconds: Int64) {
    guard var entry = entry(id, in: database) else { return }
    mutate(&database) { group in
      group.entries.removeAll { $0.uuid == id }
      group.childOrder = group.entries.map { _ in true } + group.groups.map { _ in false }
    }
    entry.times?.locationChanged = time(seconds)
    mutate(&database) { group in
      if group.uuid == target {
        group.entries.append(entry)
        group.childOrder = group.entries.map { _ in true } + group.groups.map { _ in false }
      }
    }
  }

  /// Deletes an entry or a group (with tombstones for it and everything inside), as KeePass does outside the
  /// recycle bin.
  static func delete(_ database: inout Database, _ id: KDBXUUID, at seconds: Int64) {
    var removed: [KDBXUUID] = []
    mutate(&database) { group in
      if group.entries.contains(where: { $0.uuid == id }) { removed.append(id) }
      if let child = group.groups.first(where: { $0.uuid == id }) {
        removed += allGroupIDs(child) + allEntryIDs(child)
      }
      group.entries.removeAll { $0.uuid == id }
      group.groups.removeAll { $0.uuid == id }
      group.childOrder = group.entries.map { _ in true } + group.groups.map { _ in false }
    }
    database.deletedObjects =
      (database.deletedObjects ?? []) + removed.map { DeletedObject(uuid: $0, deletionTime: time(seconds)) }
  }

  static func addEntry(_ database: inout Database, _ entry: Entry, to target: KDBXUUID) {
    mutate(&database) { group in
      if group.uuid == target {
        group.entries.append(entry)
        group.childOrder.append(true)
      }
    }
  }

  static func password(_ id: KDBXUUID, in database: Database) -> String? {
    entry(id, in: database)?[field: "Password"]?.reveal()
  }
}
