import KDBXCrypto

/// One open vault: the file's storage, its decrypted database and its key, with lock, unlock and saves that notice
/// when another device changed the file (KeePassXC's database widget: lock, unlock, "the file changed on disk:
/// reload, merge or overwrite").
///
/// ```swift
/// import KDBXFileIO  // FileVaultStorage
///
/// let session = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: CompositeKey(password: pw))
/// session.database?.meta.databaseName = "Home"
/// do { try session.save() }                              // throws .changedOnDisk if another device wrote
/// catch VaultSessionError.changedOnDisk { try session.save(onConflict: .merge(.threeWay(now: now))) }
/// session.lock()                                         // drops the database, wipes the key material
/// try session.unlock(key: CompositeKey(password: pw))    // re-reads the file
/// ```
///
/// Change detection: the session records the SHA-256 (FIPS 180-4 §6.2) of the bytes it read or wrote and, before
/// every save, compares it in constant time with the SHA-256 of what the storage holds now. Saves keep the
/// container settings the file was read with (version, cipher, KDF, compression), see ``settings``. The write
/// itself is coordinated (``VaultStorage/write(_:replacing:)``): it replaces only the version the session checked,
/// so another writer that slips in between the check and the write is caught too (`FileVaultStorage` holds the
/// vault's lock and compares the content just before the rename).
///
/// This is the synchronous form, for command-line tools and Embedded builds: its key derivations block the calling
/// thread. Apps use ``VaultSession``, an actor with `async` operations and observable state, built on this type.
/// A synchronous session is a reference type that owns its key: it is not `Sendable`. Keep it in one isolation
/// domain; ``database`` is a `Sendable` value and can be handed elsewhere.
public final class SynchronousVaultSession<Storage: VaultStorage> {
  /// Where the file is read from and written to. Apps and tests may reach into it (a path, in-memory bytes).
  public var storage: Storage
  /// The session's settings.
  public let options: VaultSessionOptions

  /// The decrypted database while unlocked; `nil` while locked. Edit it in place
  /// (`session.database?.editEntry(...)`). It stays `nil` while locked; setting it to `nil` does not lock (use
  /// ``lock()``), it only makes ``save(onConflict:progress:)`` throw `.locked`.
  public var database: Database? {
    didSet { if keyMaterial == nil { database = nil } }
  }

  /// The container settings the next save writes with: those the file was read with (KDBX 2.x and 3.0 files are
  /// written as 3.1). Change them to change the cipher, KDF or version; a changed KDF gets a fresh seed and runs on
  /// the next save (``VaultSessionOptions/cachesTransformedKey``).
  public var settings: SaveSettings

  /// The SHA-256 of the file as the session last read or wrote it.
  package internal(set) var knownFileDigest: [UInt8]
  /// The storage's version of the file as the session last read or wrote it: a save replaces only that version
  /// (``VaultStorage/write(_:replacing:)``); `nil` before the file exists.
  package internal(set) var knownVersion: Storage.Version?

  /// The settings as read or last written: a merge adopts the settings on disk unless ``settings`` changed.
  var loadedSettings: SaveSettings
  /// The database as read or last written: the common ancestor of a three-way merge.
  var base: Database?
  /// The key material; `nil` while locked. Kept in one object so that ``lock()`` can wipe it.
  var keyMaterial: SessionKeyMaterial?

  /// Opens the vault in `storage` with `key`: reads the file, decrypts it and returns an unlocked session.
  ///
  /// - Parameters:
  ///   - storage: where the vault file is; the session keeps it and saves through it.
  ///   - key: the composite key (password, key file) or a cached transformed key.
  ///   - options: load limits and whether the transformed key is cached for saves.
  ///   - progress: the key derivation's progress, 0...1; return `false` to cancel.
  /// - Throws: `.kdbx(.invalidCredentials)` for a wrong key, `.storage(...)` when the file cannot be read,
  ///   other `.kdbx` errors for a damaged file.
  public convenience init(
    storage: Storage, key: CompositeKey, options: VaultSessionOptions = VaultSessionOptions(),
    progress: ((Double) -> Bool)? = nil
  ) throws(VaultSessionError) {
    var storage = storage
    let (bytes, version) = try Self.read(&storage)
    let material = SessionKeyMaterial.make(key: key, opening: bytes, options: options)
    let opened = try Self.open(bytes, version: version, material: material, options: options, progress: progress)
    self.init(storage: storage, options: options, loaded: opened, material: material)
  }

  /// Opens the vault in `storage` with a cached transformed key (``CachedVaultKey``, from
  /// ``OpenedDatabase/cachedKey`` or another session's ``cachedKey``): no key derivation runs and no KDF memory is
  /// reserved. Saves keep the file's KDF parameters and seed, so the key stays valid for the next open.
  ///
  /// - Throws: `.kdbx(.cachedKeyIsStale)` when the file's KDF seed is not the key's (another app saved it since:
  ///   unlock with the password), `.kdbx(.invalidCredentials)`, `.storage(...)`, other `.kdbx` errors.
  public convenience init(
    storage: Storage, cachedKey: CachedVaultKey, options: VaultSessionOptions = VaultSessionOptions()
  ) throws(VaultSessionError) {
    var storage = storage
    let (bytes, version) = try Self.read(&storage)
    let material = SessionKeyMaterial(cachedKey: cachedKey)
    let opened = try Self.open(bytes, version: version, material: material, options: options, progress: nil)
    self.init(storage: storage, options: options, loaded: opened, material: material)
  }

  /// The key this session holds, with the KDF parameters it is valid for, to cache for opens without the password
  /// (an AutoFill extension's): valid for the file as the session last read or wrote it. It changes when a reload
  /// or a merge reads a file another app saved with a new KDF seed, or a save changes the KDF settings. `nil` while
  /// locked, or when ``VaultSessionOptions/cachesTransformedKey`` is off.
  public var cachedKey: CachedVaultKey? { keyMaterial?.cachedKey }

  /// Creates a new vault file in `storage` from `database` (for example ``Database/new(name:generator:clock:random:)``)
  /// with `key` and `settings`, and returns the unlocked session. The KDF runs once, with a fresh seed.
  ///
  /// - Throws: `.fileExists` when `storage` already holds a file (nothing is written), `.storage(...)`,
  ///   `.kdbx(...)`.
  public static func create(
    _ database: Database, in storage: Storage, key: CompositeKey, settings: SaveSettings,
    options: VaultSessionOptions = VaultSessionOptions(), progress: ((Double) -> Bool)? = nil
  ) throws(VaultSessionError) -> SynchronousVaultSession {
    var storage = storage
    try requireNoFile(in: &storage)
    let material = SessionKeyMaterial(key: key, cachesTransformedKey: options.cachesTransformedKey)
    let session = SynchronousVaultSession(
      storage: storage, options: options,
      loaded: Loaded(database: database, settings: settings, digest: [], version: nil), material: material)
    do {
      try session.write(database, settings: settings, material: material, replacing: nil, progress: progress)
    } catch .storage(.changedSinceRead) {
      throw .fileExists  // another writer created the file meanwhile
    }
    return session
  }

  /// Throws `.fileExists` when `storage` already holds a file (what a create must not replace), `.storage(...)` when
  /// it cannot tell.
  static func requireNoFile(in storage: inout Storage) throws(VaultSessionError) {
    let exists: Bool
    do throws(VaultStorageError) {
      _ = try storage.read()
      exists = true
    } catch {
      guard case .notFound = error else { throw .storage(error) }
      exists = false
    }
    if exists { throw .fileExists }
  }

  init(storage: Storage, options: VaultSessionOptions, loaded: Loaded, material: SessionKeyMaterial) {
    self.storage = storage
    self.options = options
    settings = loaded.settings
    loadedSettings = loaded.settings
    knownFileDigest = loaded.digest
    knownVersion = loaded.version
    base = loaded.database
    keyMaterial = material
    database = loaded.database
  }

  deinit { keyMaterial?.wipe() }

  /// Whether the session is locked (no database, no key).
  public var isLocked: Bool { keyMaterial == nil }

  /// Whether ``database`` differs from the version last read or written (compares the whole tree).
  public var hasUnsavedChanges: Bool {
    guard let database else { return false }
    return database != base
  }

  /// Locks the vault: drops the decrypted database (unsaved changes are lost: save first), overwrites the key
  /// material the session holds with zeros and drops it. Does nothing when already locked.
  public func lock() {
    keyMaterial?.wipe()
    keyMaterial = nil
    database = nil
    base = nil
  }

  /// Unlocks a locked session with `key`: re-reads the file (which may have changed meanwhile) and opens it.
  /// Does nothing when the session is unlocked.
  ///
  /// - Throws: `.kdbx(.invalidCredentials)` for a wrong key; the session then stays locked.
  public func unlock(key: CompositeKey, progress: ((Double) -> Bool)? = nil) throws(VaultSessionError) {
    guard isLocked else { return }
    let (bytes, version) = try Self.read(&storage)
    let material = SessionKeyMaterial.make(key: key, opening: bytes, options: options)
    let opened = try Self.open(bytes, version: version, material: material, options: options, progress: progress)
    install(opened, material: material)
  }

  /// Whether the file in storage differs from the version the session last read or wrote (SHA-256, compared in
  /// constant time). Works while locked.
  public func hasChangesOnDisk() throws(VaultSessionError) -> Bool {
    let bytes = try Self.read(&storage).bytes
    return !ConstantTime.equals(SHA256.hash(bytes).bytes, knownFileDigest)
  }

  /// Discards the local changes and loads the file as it is in storage now, with the session's key.
  ///
  /// - Throws: `.locked` when locked; `.kdbx(.invalidCredentials)` when the file on disk now has another key
  ///   (the session then keeps its current database).
  public func reload(progress: ((Double) -> Bool)? = nil) throws(VaultSessionError) {
    guard let material = keyMaterial else { throw .locked }
    let (bytes, version) = try Self.read(&storage)
    install(
      try Self.open(bytes, version: version, material: material, options: options, progress: progress),
      material: material)
  }

  /// A file read and decrypted, with what the session keeps of it.
  struct Loaded {
    var database: Database
    var settings: SaveSettings
    var digest: [UInt8]
    var version: Storage.Version?
  }

  func install(_ loaded: Loaded, material: SessionKeyMaterial) {
    keyMaterial = material
    settings = loaded.settings
    loadedSettings = loaded.settings
    knownFileDigest = loaded.digest
    knownVersion = loaded.version
    base = loaded.database
    database = loaded.database
  }

  static func read(_ storage: inout Storage) throws(VaultSessionError) -> (bytes: [UInt8], version: Storage.Version) {
    do throws(VaultStorageError) { return try storage.read() } catch { throw .storage(error) }
  }

  /// Opens `bytes` with the held key: the cached transformed key when the file's KDF seed matches, else the
  /// composite key (running the KDF), whose output is then cached.
  static func open(
    _ bytes: [UInt8], version: Storage.Version?, material: SessionKeyMaterial, options: VaultSessionOptions,
    progress: ((Double) -> Bool)?
  ) throws(VaultSessionError) -> Loaded {
    do throws(KDBXError) {
      // The KDF memory budget applies only when a KDF runs (the open checks it then).
      let header = try KDBXFile.readHeader(bytes: bytes, options: options.load.withoutMemoryBudget).header
      let key = try material.key(for: header.kdf, version: header.version)
      let opened = try KDBXFile.openBlocking(bytes: bytes, key: key, options: options.load, progress: progress)
      let settings = SaveSettings(keeping: opened)
      if !key.isTransformed { material.remember(opened.transformedKey, kdf: header.kdf, version: header.version) }
      return Loaded(database: opened.database, settings: settings, digest: SHA256.hash(bytes).bytes, version: version)
    } catch {
      throw .kdbx(error)
    }
  }
}

extension SynchronousVaultSession: CustomStringConvertible {
  /// Says whether the session is locked; never shows content or keys.
  public var description: String { isLocked ? "VaultSession(locked)" : "VaultSession(unlocked)" }
}
