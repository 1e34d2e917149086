import KDBX

// The edits, creations and merges of `KDBX` without a clock or a random source: the system's (``SystemClock`` and
// the standard library's `SystemRandomNumberGenerator`). `KDBX` itself keeps both as parameters, so that tests and
// reproducible saves inject their own; an app that imports `KDBXFileIO` (or `KDBXFoundation`, which imports it)
// calls these.
//
// ```swift
// var database = Database.new(name: "Home")
// var entry = Entry.new()
// entry.title = "Forum"
// database.addEntry(entry, to: database.root.uuid)
// database.editEntry(entry.uuid) { $0.userName = "me" }
// database.deleteEntry(entry.uuid)  // to the recycle bin
// ```

extension Database {
  /// A new, empty database named `name`, created now (``Database/new(name:generator:clock:random:)`` with the
  /// system clock and random source).
  public static func new(name: String, generator: String = "swift-kdbx") -> Database {
    var random = SystemRandomNumberGenerator()
    return new(name: name, generator: generator, clock: SystemClock(), random: &random)
  }

  /// Edits the entry `uuid` now, its previous version kept in the history
  /// (`editEntry(_:clock:_:)` with the system clock). Returns whether the
  /// entry exists.
  @discardableResult
  public mutating func editEntry(_ uuid: KDBXUUID, _ edit: (inout Entry) -> Void) -> Bool {
    editEntry(uuid, clock: SystemClock(), edit)
  }

  /// Edits the entry `uuid` now with an edit that may throw; when it throws, the entry is left as it was and the
  /// error is thrown. Returns whether the entry exists.
  @discardableResult
  public mutating func editEntry<Failure: Error>(
    _ uuid: KDBXUUID, _ edit: (inout Entry) throws(Failure) -> Void
  ) throws(Failure) -> Bool {
    try editEntry(uuid, clock: SystemClock(), edit)
  }

  /// Adds a group named `name` in the group `parent`, created now. Returns its UUID, or nil when `parent` does not
  /// exist.
  @discardableResult
  public mutating func addGroup(named name: String, in parent: KDBXUUID) -> KDBXUUID? {
    var random = SystemRandomNumberGenerator()
    return addGroup(named: name, in: parent, clock: SystemClock(), random: &random)
  }

  /// Deletes the entry `uuid` as KeePass does: into the recycle bin when it is on (made when missing), for good
  /// when it is off or the entry is already in it.
  @discardableResult
  public mutating func deleteEntry(_ uuid: KDBXUUID) -> DeletionOutcome {
    var random = SystemRandomNumberGenerator()
    return deleteEntry(uuid, clock: SystemClock(), random: &random)
  }

  /// Deletes the group `uuid` with everything in it, as ``deleteEntry(_:)`` does an entry.
  @discardableResult
  public mutating func deleteGroup(_ uuid: KDBXUUID) -> DeletionOutcome {
    var random = SystemRandomNumberGenerator()
    return deleteGroup(uuid, clock: SystemClock(), random: &random)
  }

  /// Moves the entry `uuid` into the group `target`, now. Returns whether both exist.
  @discardableResult
  public mutating func moveEntry(_ uuid: KDBXUUID, to target: KDBXUUID) -> Bool {
    moveEntry(uuid, to: target, clock: SystemClock())
  }

  /// Moves the group `uuid` into the group `target`, now (not into itself or below it). Returns whether it moved.
  @discardableResult
  public mutating func moveGroup(_ uuid: KDBXUUID, to target: KDBXUUID) -> Bool {
    moveGroup(uuid, to: target, clock: SystemClock())
  }

  /// Renames the group `uuid`, now. Returns whether it exists.
  @discardableResult
  public mutating func renameGroup(_ uuid: KDBXUUID, to name: String) -> Bool {
    renameGroup(uuid, to: name, clock: SystemClock())
  }

  /// Empties the recycle bin, recording the deletions now. Returns how many entries and groups went.
  @discardableResult
  public mutating func emptyRecycleBin() -> Int {
    emptyRecycleBin(clock: SystemClock())
  }

  /// Adds or replaces the attachment `name` of the entry `uuid`, now (the previous version goes to the history).
  /// Returns whether the entry exists.
  @discardableResult
  public mutating func setAttachment(
    named name: String, contents: [UInt8], isProtected: Bool = false, inEntry uuid: KDBXUUID
  ) -> Bool {
    setAttachment(named: name, contents: contents, isProtected: isProtected, inEntry: uuid, clock: SystemClock())
  }

  /// Renames the attachment `name` of the entry `uuid`, now. Returns whether it exists.
  @discardableResult
  public mutating func renameAttachment(named name: String, to newName: String, inEntry uuid: KDBXUUID) -> Bool {
    renameAttachment(named: name, to: newName, inEntry: uuid, clock: SystemClock())
  }

  /// Removes the attachment `name` of the entry `uuid`, now. Returns whether it existed.
  @discardableResult
  public mutating func removeAttachment(named name: String, inEntry uuid: KDBXUUID) -> Bool {
    removeAttachment(named: name, inEntry: uuid, clock: SystemClock())
  }
}

extension Entry {
  /// A new entry with a fresh UUID, created now.
  public static func new() -> Entry {
    var random = SystemRandomNumberGenerator()
    return new(clock: SystemClock(), random: &random)
  }

  /// Stores `configuration` as the entry's one-time password in the fields `targets` name
  /// (``Entry/setOneTimePassword(_:formats:random:)`` with the system random source, which masks the stored
  /// secrets in memory).
  public mutating func setOneTimePassword(
    _ configuration: OTPConfiguration, formats targets: OTPStorageTargets = .interoperable
  ) throws(OTPFormatError) {
    var random = SystemRandomNumberGenerator()
    try setOneTimePassword(configuration, formats: targets, random: &random)
  }

  /// Advances the HOTP counter of every HOTP setting the entry holds, after a code was used. Returns whether any
  /// counter moved.
  @discardableResult
  public mutating func advanceHOTPCounter() -> Bool {
    var random = SystemRandomNumberGenerator()
    return advanceHOTPCounter(random: &random)
  }
}

extension Group {
  /// A new group named `name` with a fresh UUID, created now.
  public static func new(name: String) -> Group {
    var random = SystemRandomNumberGenerator()
    return new(name: name, clock: SystemClock(), random: &random)
  }
}

extension DatabaseMerge {
  /// Merges `local` and `remote` against their common ancestor `base`, as of now
  /// (``DatabaseMerge/threeWay(base:local:remote:now:)`` with the system clock's time).
  public static func threeWay(base: Database, local: Database, remote: Database) -> MergeResult {
    threeWay(base: base, local: local, remote: remote, now: SystemClock().now())
  }
}

extension VaultMergeMethod {
  /// A three-way merge as of now, for a session's save or reload (``VaultMergeMethod/threeWay(now:)`` with the
  /// system clock's time).
  public static func threeWay() -> VaultMergeMethod {
    .threeWay(now: SystemClock().now())
  }
}
