extension Database {
  /// A new, empty database with KeePass's defaults for a new file (KeePass `PwDatabase.New`): a root group named
  /// `name`, recycle bin enabled, 10 history items of at most 6 MiB, passwords protected in memory, maintenance
  /// history 365 days, no forced master key change. Times come from `clock`, UUIDs from `random`.
  public static func new(
    name: String, generator: String = "swift-kdbx", clock: some WallClock, random: inout some RandomNumberGenerator
  ) -> Database {
    let now = clock.now()
    var meta = Meta()
    meta.generator = generator
    meta.settingsChanged = now
    meta.databaseName = name
    meta.databaseNameChanged = now
    meta.databaseDescription = ""
    meta.databaseDescriptionChanged = now
    meta.defaultUserName = ""
    meta.defaultUserNameChanged = now
    meta.maintenanceHistoryDays = 365
    meta.color = ""
    meta.masterKeyChanged = now
    meta.masterKeyChangeRec = -1
    meta.masterKeyChangeForce = -1
    meta.memoryProtection = MemoryProtection()
    meta.customIcons = []
    meta.recycleBinEnabled = true
    meta.recycleBinUUID = .zero
    meta.recycleBinChanged = now
    meta.entryTemplatesGroup = .zero
    meta.entryTemplatesGroupChanged = now
    meta.historyMaxItems = 10
    meta.historyMaxSize = 6 * 1_024 * 1_024
    meta.lastSelectedGroup = .zero
    meta.lastTopVisibleGroup = .zero
    var root = Group.new(name: name, clock: clock, random: &random)
    root.isExpanded = true
    var database = Database(meta: meta, root: root)
    database.deletedObjects = []
    return database
  }
}

extension Group {
  /// A new group with a random UUID and all times set to now (KeePass `PwGroup` defaults: icon 48 folder,
  /// auto-type and searching inherited).
  public static func new(name: String, clock: some WallClock, random: inout some RandomNumberGenerator) -> Group {
    var group = Group(uuid: KDBXUUID.random(using: &random), name: name)
    group.notesText = ""
    group.iconID = 48
    group.times = Times.created(at: clock.now())
    group.isExpanded = false
    group.defaultAutoTypeSequence = ""
    group.enableAutoType = .some(nil)
    group.enableSearching = .some(nil)
    group.lastTopVisibleEntry = .zero
    return group
  }
}

extension Entry {
  /// The standard field names (KeePass `PwDefs`).
  package static let titleField = "Title"
  package static let userNameField = "UserName"
  package static let passwordField = "Password"
  package static let urlField = "URL"
  package static let notesField = "Notes"

  /// A new entry with a random UUID, all times set to now and the five standard fields empty (the password
  /// protected), as KeePass creates it.
  public static func new(clock: some WallClock, random: inout some RandomNumberGenerator) -> Entry {
    var entry = Entry(uuid: KDBXUUID.random(using: &random))
    entry.iconID = 0
    entry.foregroundColor = ""
    entry.backgroundColor = ""
    entry.overrideURL = ""
    entry.tagsText = ""
    entry.times = Times.created(at: clock.now())
    // One array of exactly five (appended one by one, it would hold room for eight).
    entry.fields = [
      EntryField(key: titleField, value: .plain("")), EntryField(key: userNameField, value: .plain("")),
      EntryField(key: passwordField, value: .protected(ProtectedValue(bytes: [], using: &random))),
      EntryField(key: urlField, value: .plain("")), EntryField(key: notesField, value: .plain("")),
    ]
    entry.autoType = AutoType(enabled: true, dataTransferObfuscation: 0)
    entry.history = []
    return entry
  }

  /// Updates the last-modification and last-access times to `clock`'s now and counts a use (KeePass `Touch`).
  package mutating func touch(modified: Bool, clock: some WallClock) {
    let now = clock.now()
    var times = self.times ?? Times()
    times.lastAccessTime = now
    if modified { times.lastModificationTime = now }
    times.usageCount = (times.usageCount ?? 0) &+ 1
    self.times = times
  }
}
