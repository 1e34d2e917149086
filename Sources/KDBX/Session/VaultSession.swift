import KDBXCrypto

// The actor needs the concurrency runtime; Embedded builds keep ``SynchronousVaultSession``.
#if !$Embedded

  /// What a ``VaultSession`` is doing, for a user interface to follow (``VaultSession/stateUpdates()``).
  ///
  /// ```swift
  /// for await state in await session.stateUpdates() {
  ///   switch state {
  ///   case .locked: disableVaultAccess()
  ///   case .changedOnDisk: show("Vault", "Changed on another device")
  ///   default: break
  ///   }
  /// }
  /// ```
  public enum VaultSessionState: Sendable, Equatable, CustomStringConvertible {
    /// No database and no key in memory.
    case locked
    /// Opening the file: the key derivation runs (``VaultSession/open(storage:key:options:maxConcurrency:progress:)``,
    /// ``VaultSession/unlock(key:progress:)``).
    case unlocking
    /// The database is in memory and the file on disk is, as far as the session knows, the version it read or wrote.
    case unlocked
    /// A save is running (a key derivation, a merge, the write).
    case saving
    /// Unlocked, but the file on disk is no longer the version the session read or wrote (found by
    /// ``VaultSession/checkForChangesOnDisk()`` or by a save with ``VaultConflictPolicy/fail``): save again with
    /// another policy, or ``VaultSession/reload(progress:)``.
    case changedOnDisk

    /// The state's name.
    public var description: String {
      switch self {
      case .locked: return "locked"
      case .unlocking: return "unlocking"
      case .unlocked: return "unlocked"
      case .saving: return "saving"
      case .changedOnDisk: return "changed on disk"
      }
    }
  }

  /// One open vault for an app: an actor with `async` open, unlock, save and lock whose key derivations never block
  /// the caller's actor, and whose ``state`` can be followed without polling (``stateUpdates()``).
  ///
  /// ```swift
  /// import KDBXFileIO  // FileVaultStorage
  ///
  /// // `reporter`: the continuation of an AsyncStream<Double> the view model reads on the main actor (in order)
  /// let session = try await VaultSession.open(storage: FileVaultStorage(path: path), key: key) { fraction in
  ///   reporter.yield(fraction)
  /// }
  /// try await session.update { database in database.meta.databaseName = "Home" }
  /// do { try await session.save() }                        // .changedOnDisk if another device saved
  /// catch .changedOnDisk { try await session.save(onConflict: .merge(.threeWay(now: now))) }
  /// await session.lock()                                   // drops the database, wipes the key material
  /// ```
  ///
  /// It has the behaviour of ``SynchronousVaultSession`` (which it uses; see there for change detection, settings
  /// and the cached transformed key): saves are coordinated writes (``VaultStorage/write(_:replacing:)``), so a
  /// save never replaces another writer's save. The key derivations run as in
  /// ``KDBXFile/open(bytes:key:options:maxConcurrency:progress:)``: Argon2's lanes as child tasks that suspend
  /// between slices, cancellation checked at every slice (``KDBXError/cancelled``, as
  /// `.kdbx(.cancelled)`). Storage I/O runs on the actor (a vault file is read or written in one call).
  public actor VaultSession<Storage: VaultStorage> {
    let core: SynchronousVaultSession<Storage>
    /// Argon2 lanes run at once; `nil` runs as many as the file asks for.
    package let maxConcurrency: Int?
    /// What the session is doing; every change is sent to the streams of ``stateUpdates()``.
    public private(set) var state: VaultSessionState = .unlocked {
      didSet {
        guard state != oldValue else { return }
        // A stream whose consumer stopped reports `.terminated`: it is dropped then.
        for (id, continuation) in observers {
          if case .terminated = continuation.yield(state) { observers[id] = nil }
        }
      }
    }
    private var observers: [Int: AsyncStream<VaultSessionState>.Continuation] = [:]
    private var nextObserver = 0
    private var keyObservers: [Int: AsyncStream<CachedVaultKey?>.Continuation] = [:]
    /// The KDF parameters of the cached key last sent to ``cachedKeyUpdates()`` (`.some(nil)`: none was cached).
    private var publishedKDF: KDFParameters?? = .none

    init(core: SynchronousVaultSession<Storage>, maxConcurrency: Int?) {
      self.core = core
      self.maxConcurrency = maxConcurrency
    }

    deinit {
      for continuation in observers.values { continuation.finish() }
      for continuation in keyObservers.values { continuation.finish() }
    }

    /// Opens the vault in `storage` with a cached transformed key (``CachedVaultKey``): no key derivation runs and
    /// no KDF memory is reserved, so it fits an AutoFill extension's memory. Saves keep the file's KDF parameters and
    /// seed, so the key stays valid.
    ///
    /// - Throws: `.kdbx(.cachedKeyIsStale)` when another app saved the file since the key was cached (unlock with
    ///   the password and cache the new ``cachedKey``), `.kdbx(.invalidCredentials)`, `.storage(...)`, other
    ///   `.kdbx` errors for a damaged file.
    public static func open(
      storage: sending Storage, cachedKey: CachedVaultKey, options: VaultSessionOptions = VaultSessionOptions()
    ) async throws(VaultSessionError) -> VaultSession {
      var storage = storage
      let (bytes, version) = try SynchronousVaultSession<Storage>.read(&storage)
      let material = SessionKeyMaterial(cachedKey: cachedKey)
      let loaded = try await Self.open(
        bytes, version: version, material: material, options: options, maxConcurrency: nil, nil)
      let core = SynchronousVaultSession(storage: storage, options: options, loaded: loaded, material: material)
      return VaultSession(core: core, maxConcurrency: nil)
    }

    /// The key this session holds with the KDF parameters it is valid for (see
    /// ``SynchronousVaultSession/cachedKey``), to keep for opens without the password. Follow
    /// ``cachedKeyUpdates()`` to store the new one when a reload or merge adopts another app's KDF seed.
    public var cachedKey: CachedVaultKey? { core.cachedKey }

    /// A stream of ``cachedKey``: the current one first, then each new one (after an unlock, a reload or merge that
    /// read a file with a new KDF seed, a save with new KDF settings) and `nil` on lock, until the session is
    /// released or the consumer stops.
    public func cachedKeyUpdates() -> AsyncStream<CachedVaultKey?> {
      let (stream, continuation) = AsyncStream<CachedVaultKey?>.makeStream(bufferingPolicy: .bufferingNewest(4))
      let id = nextObserver
      nextObserver += 1
      keyObservers[id] = continuation
      continuation.yield(core.cachedKey)
      publishedKDF = .some(core.cachedKey?.kdf)
      return stream
    }

    /// Sends ``cachedKey`` to the streams of ``cachedKeyUpdates()`` when it changed since the last one sent.
    private func publishCachedKey() {
      guard !keyObservers.isEmpty else { return }
      let key = core.cachedKey
      if case .some(let previous) = publishedKDF, previous == key?.kdf { return }
      publishedKDF = .some(key?.kdf)
      for (id, continuation) in keyObservers {
        if case .terminated = continuation.yield(key) { keyObservers[id] = nil }
      }
    }

    /// Opens the vault in `storage` with `key`: reads the file, derives the key without blocking the caller, and
    /// returns an unlocked session.
    ///
    /// - Parameters:
    ///   - storage: where the vault file is; the session keeps it and saves through it.
    ///   - key: the composite key (password, key file) or a cached transformed key.
    ///   - options: load limits and whether the transformed key is cached for saves.
    ///   - maxConcurrency: Argon2 lanes run at once; `nil`: as many as the file asks for.
    ///   - progress: the key derivation's progress, 0...1, after every Argon2 slice or AES-KDF step.
    /// - Throws: `.kdbx(.invalidCredentials)` for a wrong key, `.kdbx(.cancelled)` when the task is cancelled,
    ///   `.storage(...)` when the file cannot be read, other `.kdbx` errors for a damaged file.
    public static func open(
      storage: sending Storage, key: CompositeKey, options: VaultSessionOptions = VaultSessionOptions(),
      maxConcurrency: Int? = nil, progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(VaultSessionError) -> VaultSession {
      var storage = storage
      let (bytes, version) = try SynchronousVaultSession<Storage>.read(&storage)
      let material = SessionKeyMaterial.make(key: key, opening: bytes, options: options)
      let loaded = try await Self.open(
        bytes, version: version, material: material, options: options, maxConcurrency: maxConcurrency, progress)
      let core = SynchronousVaultSession(storage: storage, options: options, loaded: loaded, material: material)
      return VaultSession(core: core, maxConcurrency: maxConcurrency)
    }

    /// Creates a new vault file in `storage` from `database` (for example
    /// ``Database/new(name:generator:clock:random:)``) with `key` and `settings`, and returns the unlocked session.
    /// The KDF runs once, with a fresh seed, off the caller's actor.
    ///
    /// - Throws: `.fileExists` when `storage` already holds a file (nothing is written), `.storage(...)`,
    ///   `.kdbx(...)`, `.kdbx(.cancelled)`.
    public static func create(
      _ database: Database, in storage: sending Storage, key: CompositeKey, settings: SaveSettings,
      options: VaultSessionOptions = VaultSessionOptions(), maxConcurrency: Int? = nil,
      progress: (@Sendable (Double) -> Void)? = nil
    ) async throws(VaultSessionError) -> VaultSession {
      var storage = storage
      try SynchronousVaultSession<Storage>.requireNoFile(in: &storage)
      let core = SynchronousVaultSession(
        storage: storage, options: options,
        loaded: .init(database: database, settings: settings, digest: [], version: nil),
        material: SessionKeyMaterial(key: key, cachesTransformedKey: options.cachesTransformedKey))
      let session = VaultSession(core: core, maxConcurrency: maxConcurrency)
      try await session.writeFirstVersion(progress: progress)
      return session
    }

    /// Writes the database of a session made by ``create(_:in:key:settings:options:maxConcurrency:progress:)`` as
    /// the file's first version.
    private func writeFirstVersion(progress: (@Sendable (Double) -> Void)?) async throws(VaultSessionError) {
      guard let material = core.keyMaterial, let database = core.database else { throw .locked }
      do {
        try await write(database, settings: core.settings, material: material, replacing: nil, progress: progress)
      } catch .storage(.changedSinceRead) {
        throw .fileExists  // another writer created the file meanwhile
      }
    }

    /// A stream of the session's states: the current one first, then every change, until the session is released
    /// or the stream's consumer stops (a SwiftUI `.task { for await state in await session.stateUpdates() ... }`).
    public func stateUpdates() -> AsyncStream<VaultSessionState> {
      let (stream, continuation) = AsyncStream<VaultSessionState>.makeStream(bufferingPolicy: .bufferingNewest(8))
      let id = nextObserver
      nextObserver += 1
      observers[id] = continuation
      continuation.yield(state)
      return stream
    }

    /// The decrypted database while unlocked; `nil` while locked.
    public var database: Database? { core.database }

    /// Whether ``database`` differs from the version last read or written.
    public var hasUnsavedChanges: Bool { core.hasUnsavedChanges }

    /// The container settings the next save writes with (see ``SynchronousVaultSession/settings``).
    public var settings: SaveSettings {
      get { core.settings }
    }

    /// Changes the settings the next save writes with (a changed KDF runs on that save, with a fresh seed).
    public func setSettings(_ settings: SaveSettings) {
      core.settings = settings
    }

    /// Edits the database in place, on the actor.
    /// - Throws: `.locked` while locked.
    @discardableResult
    public func update<Result: Sendable>(_ body: @Sendable (inout Database) -> Result) throws(VaultSessionError)
      -> Result
    {
      guard var database = core.database else { throw .locked }
      core.database = nil
      defer { core.database = database }
      return body(&database)
    }

    /// Edits the database in place, on the actor, with an edit that may throw. When `body` throws, the database is left as it was before the
    /// call (the edit is all or nothing) and its error is thrown as ``VaultUpdateError/failed(_:)``.
    ///
    /// ```swift
    /// try await session.update { database throws(OTPFormatError) in
    ///   var random = SystemRandomNumberGenerator()
    ///   try database.editEntry(id, clock: clock) { entry throws(OTPFormatError) in
    ///     try entry.setOneTimePassword(configuration, random: &random)
    ///   }
    /// }
    /// ```
    /// - Throws: ``VaultUpdateError/locked`` while locked; ``VaultUpdateError/failed(_:)`` with `body`'s error.
    @discardableResult
    public func update<Result: Sendable, Failure: Error>(
      _ body: @Sendable (inout Database) throws(Failure) -> Result
    ) throws(VaultUpdateError<Failure>) -> Result {
      guard let original = core.database else { throw .locked }
      var database = original
      core.database = nil
      do throws(Failure) {
        let result = try body(&database)
        core.database = database
        return result
      } catch {
        core.database = original
        throw .failed(error)
      }
    }

    /// Runs `body` with the storage, on the actor (tests simulate another device's save this way).
    package func withStorage<Result: Sendable>(_ body: @Sendable (inout Storage) -> Result) -> Result {
      body(&core.storage)
    }

    /// Locks the vault: drops the decrypted database (unsaved changes are lost: save first) and zeroes the key
    /// material. Does nothing when already locked.
    public func lock() {
      core.lock()
      state = .locked
      publishCachedKey()
    }

    /// Unlocks a locked session with `key`: re-reads the file and opens it without blocking the caller. Does
    /// nothing when the session is unlocked.
    ///
    /// - Throws: `.kdbx(.invalidCredentials)` for a wrong key, `.kdbx(.cancelled)`; the session then stays locked.
    public func unlock(key: CompositeKey, progress: (@Sendable (Double) -> Void)? = nil)
      async throws(VaultSessionError)
    {
      guard core.isLocked, state != .unlocking else { return }
      state = .unlocking
      do {
        let (bytes, version) = try SynchronousVaultSession<Storage>.read(&core.storage)
        let material = SessionKeyMaterial.make(key: key, opening: bytes, options: core.options)
        let loaded = try await Self.open(
          bytes, version: version, material: material, options: core.options, maxConcurrency: maxConcurrency,
          progress)
        core.install(loaded, material: material)
        state = .unlocked
        publishCachedKey()
      } catch {
        state = .locked
        throw error
      }
    }

    /// Checks whether the file in storage differs from the version the session last read or wrote (SHA-256 in
    /// constant time); while unlocked, the state becomes ``VaultSessionState/changedOnDisk`` or ``VaultSessionState/unlocked``.
    @discardableResult
    public func checkForChangesOnDisk() throws(VaultSessionError) -> Bool {
      let changed = try core.hasChangesOnDisk()
      if !core.isLocked && state != .saving { state = changed ? .changedOnDisk : .unlocked }
      return changed
    }

    /// Discards the local changes and loads the file as it is in storage now.
    /// - Throws: `.locked`, `.kdbx(.invalidCredentials)` when the file now has another key (the session keeps its
    ///   database), `.kdbx(.cancelled)`.
    public func reload(progress: (@Sendable (Double) -> Void)? = nil) async throws(VaultSessionError) {
      guard let material = core.keyMaterial else { throw .locked }
      let (bytes, version) = try SynchronousVaultSession<Storage>.read(&core.storage)
      let loaded = try await Self.open(
        bytes, version: version, material: material, options: core.options, maxConcurrency: maxConcurrency, progress)
      guard core.keyMaterial === material else { throw .locked }  // locked while the file was opened
      core.install(loaded, material: material)
      state = .unlocked
      publishCachedKey()
    }

    /// Writes ``database`` as ``SynchronousVaultSession/save(onConflict:progress:)`` does, with the key derivation
    /// (when one runs) off the caller's actor; the state is ``VaultSessionState/saving`` meanwhile.
    ///
    /// - Throws: `.locked`, `.changedOnDisk` (policy `.fail`; the state becomes
    ///   ``VaultSessionState/changedOnDisk``), `.storage(...)`, `.kdbx(...)`, `.kdbx(.cancelled)` (nothing
    ///   written).
    @discardableResult
    public func save(onConflict: VaultConflictPolicy = .fail, progress: (@Sendable (Double) -> Void)? = nil)
      async throws(VaultSessionError) -> VaultSaveOutcome
    {
      guard !core.isLocked else { throw .locked }
      let previous = state
      state = .saving
      var attempts = 0
      while true {
        attempts += 1
        do {
          let outcome = try await saveOnce(onConflict: onConflict, progress: progress)
          state = core.isLocked ? .locked : .unlocked
          publishCachedKey()
          return outcome
        } catch .storage(.changedSinceRead) where onConflict != .fail && attempts < Self.maxSaveAttempts {
          continue
        } catch {
          var conflict = error == .changedOnDisk
          if case .storage(.changedSinceRead) = error { conflict = true }
          state = core.isLocked ? .locked : conflict ? .changedOnDisk : previous
          throw conflict ? .changedOnDisk : error
        }
      }
    }

    static var maxSaveAttempts: Int { SynchronousVaultSession<Storage>.maxSaveAttempts }

    /// One save attempt: ``SynchronousVaultSession``'s plan (`savePlan(onConflict:)`), carried out with the key
    /// derivations awaited.
    private func saveOnce(onConflict: VaultConflictPolicy, progress: (@Sendable (Double) -> Void)?)
      async throws(VaultSessionError) -> VaultSaveOutcome
    {
      let (plan, material) = try core.savePlan(onConflict: onConflict)
      switch plan {
      case .write(let content, let expected, let outcome):
        try await write(content, settings: core.settings, material: material, replacing: expected, progress: progress)
        return outcome
      case .reload(let bytes, let version):
        let loaded = try await Self.open(
          bytes, version: version, material: material, options: core.options, maxConcurrency: maxConcurrency,
          progress)
        guard core.keyMaterial === material else { throw .locked }
        core.install(loaded, material: material)
        return .reloaded
      case .merge(let bytes, let version, let method):
        let remote = try await Self.open(
          bytes, version: version, material: material, options: core.options, maxConcurrency: maxConcurrency,
          progress)
        guard core.keyMaterial === material, let latest = core.database else { throw .locked }
        let merged = core.merge(latest, with: remote, method: method)
        try await write(
          merged.database, settings: merged.settings, material: material, replacing: version, progress: progress)
        return .merged(merged.report)
      }
    }

    /// ``SynchronousVaultSession/write(_:settings:material:replacing:progress:)`` with the key derivation awaited.
    private func write(
      _ content: Database, settings target: SaveSettings, material: SessionKeyMaterial,
      replacing expected: Storage.Version?, progress: (@Sendable (Double) -> Void)?
    ) async throws(VaultSessionError) {
      let version = VersionRequirements.effectiveVersion(for: content, settings: target)
      var written = target
      let bytes: [UInt8]
      do throws(KDBXError) {
        let key: CompositeKey
        switch try material.writePlan(kdf: target.kdf, version: version) {
        case .ready(let ready, let kdf):
          (key, written.kdf) = (ready, kdf)
        case .derive(let input, let kdf):
          var primitives = StandardPrimitives()
          primitives.argon2MemoryLimitBytes = Int(clamping: core.options.load.kdfMemoryCapBytes)
          primitives.argon2MaxConcurrency = maxConcurrency
          var derived = try await primitives.transformKey(input, parameters: kdf, progress: progress)
          key = material.finishDerivation(&derived, kdf: kdf, version: version)
          written.kdf = kdf
        }
        bytes = try await KDBXFile.save(
          content, key: key, settings: written, maxConcurrency: maxConcurrency, progress: progress)
        if !key.isTransformed {
          // KDBXFile.save drew a fresh KDF seed: record it, so that the next merge sees unchanged settings.
          written.kdf = try KDBXFile.readHeader(bytes: bytes, options: core.options.load).header.kdf
        }
      } catch {
        throw .kdbx(error)
      }
      guard core.keyMaterial === material else { throw .locked }  // locked during the key derivation
      let newVersion: Storage.Version
      do throws(VaultStorageError) {
        newVersion = try core.storage.write(bytes, replacing: expected)
      } catch {
        throw .storage(error)
      }
      core.installWritten(content, bytes: bytes, settings: written, version: newVersion)
    }

    /// Opens `bytes` with the held key (the cached transformed key when the KDF seed matches, else the composite
    /// key, whose KDF output is then cached), deriving asynchronously.
    nonisolated(nonsending) private static func open(
      _ bytes: [UInt8], version: Storage.Version, material: SessionKeyMaterial, options: VaultSessionOptions,
      maxConcurrency: Int?, _ progress: (@Sendable (Double) -> Void)?
    ) async throws(VaultSessionError) -> SynchronousVaultSession<Storage>.Loaded {
      do throws(KDBXError) {
        // The KDF memory budget applies only when a KDF runs (the open checks it then).
        let header = try KDBXFile.readHeader(bytes: bytes, options: options.load.withoutMemoryBudget).header
        let key = try material.key(for: header.kdf, version: header.version)
        let opened = try await KDBXFile.open(
          bytes: bytes, key: key, options: options.load, maxConcurrency: maxConcurrency, progress: progress)
        let settings = SaveSettings(keeping: opened)
        if !key.isTransformed { material.remember(opened.transformedKey, kdf: header.kdf, version: header.version) }
        return SynchronousVaultSession<Storage>.Loaded(
          database: opened.database, settings: settings, digest: SHA256.hash(bytes).bytes, version: version)
      } catch {
        throw .kdbx(error)
      }
    }
  }

  extension VaultSession: CustomStringConvertible {
    /// The session's state; never shows content or keys.
    public nonisolated var description: String { "VaultSession" }
  }

  /// Why `VaultSession.update(_:)` with an edit that may throw failed: the session was locked, or the edit threw (the database is then as
  /// it was before the call). With a body that cannot throw, only ``locked`` occurs.
  ///
  /// A one-time password scanned inside an edit that may throw:
  ///
  /// ```swift
  /// do {
  ///   try await session.update { (database: inout Database) throws(OTPFormatError) in
  ///     var random = SystemRandomNumberGenerator()
  ///     let configuration = try OTPAuthURI.parse(scannedText)
  ///     try database.editEntry(entryID, clock: clock) { (entry: inout Entry) throws(OTPFormatError) in
  ///       try entry.setOneTimePassword(configuration, random: &random)
  ///     }
  ///   }
  /// } catch .failed(let error) {
  ///   show("One-time password not saved", error.description)  // the edit was undone
  /// } catch {
  ///   show("Vault", error.description)  // .locked
  /// }
  /// ```
  public enum VaultUpdateError<Failure: Error>: Error {
    /// The session is locked: unlock it first.
    case locked
    /// The edit threw `Failure`; none of its changes were kept.
    case failed(Failure)
  }

  extension VaultUpdateError: Equatable where Failure: Equatable {}

  extension VaultUpdateError: CustomStringConvertible {
    /// A one-line description; never contains key material.
    public var description: String {
      switch self {
      case .locked: return "the vault is locked"
      case .failed(let error): return "the edit failed and was undone: \(error)"
      }
    }

    /// Which alert this error calls for (see ``VaultErrorCategory``): a locked session or a refused edit is
    /// `.invalidRequest`.
    public var category: VaultErrorCategory { .invalidRequest }
  }

#endif
