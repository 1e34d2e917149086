import KDBXCrypto

extension SynchronousVaultSession {
  /// Writes ``database`` to storage with ``settings``, after checking that the file on disk is still the version
  /// the session last read or wrote (SHA-256, compared in constant time).
  ///
  /// When the file changed on disk, `onConflict` decides (see ``VaultConflictPolicy``): by default nothing is
  /// written and `.changedOnDisk` is thrown, so that the app can ask the user and save again with
  /// `.overwrite`, `.reload` or `.merge(...)`. A merge opens the version on disk with the session's key; when the
  /// local ``settings`` are unchanged, the merged file takes the settings found on disk (another device may have
  /// strengthened the KDF), else the local ones.
  ///
  /// A file that disappeared from storage counts as changed: `.overwrite` writes it again, the other policies throw
  /// `.storage(.notFound(...))`. The session's state (database, settings, digest) changes only when the whole
  /// operation succeeds.
  ///
  /// - Parameters:
  ///   - onConflict: what to do when the file changed on disk since it was read or last written.
  ///   - progress: the key derivation's progress, 0...1, when a KDF runs (a changed KDF, a merge with a file
  ///     whose KDF seed differs); return `false` to cancel.
  /// - Returns: what the save did.
  /// - Throws: `.locked`, `.changedOnDisk` (policy `.fail`), `.storage(...)`, `.kdbx(...)`
  ///   (`.kdbx(.invalidCredentials)` when a reload or merge finds a file with another key).
  @discardableResult
  public func save(onConflict: VaultConflictPolicy = .fail, progress: ((Double) -> Bool)? = nil)
    throws(VaultSessionError) -> VaultSaveOutcome
  {
    // A coordinated write that finds yet another version (a writer slipped in after the check) starts over, a few
    // times, so that the policy decides about the newest version; with `.fail` it is a conflict like any other.
    var attempts = 0
    while true {
      attempts += 1
      do {
        return try saveOnce(onConflict: onConflict, progress: progress)
      } catch .storage(.changedSinceRead) {
        if onConflict == .fail || attempts >= Self.maxSaveAttempts { throw .changedOnDisk }
      }
    }
  }

  /// How many times a save reads again after its coordinated write found a newer version.
  static var maxSaveAttempts: Int { 3 }

  private func saveOnce(onConflict: VaultConflictPolicy, progress: ((Double) -> Bool)?)
    throws(VaultSessionError) -> VaultSaveOutcome
  {
    let (plan, material) = try savePlan(onConflict: onConflict)
    switch plan {
    case .write(let content, let expected, let outcome):
      try write(content, settings: settings, material: material, replacing: expected, progress: progress)
      return outcome
    case .reload(let bytes, let version):
      install(
        try Self.open(bytes, version: version, material: material, options: options, progress: progress),
        material: material)
      return .reloaded
    case .merge(let bytes, let version, let method):
      let remote = try Self.open(bytes, version: version, material: material, options: options, progress: progress)
      guard let local = database else { throw .locked }
      let merged = merge(local, with: remote, method: method)
      try write(merged.database, settings: merged.settings, material: material, replacing: version, progress: progress)
      return .merged(merged.report)
    }
  }

  /// What one save attempt does, decided from what storage holds now and the conflict policy: the one decision
  /// both session kinds follow (``VaultSession`` runs the same plan with its key derivations awaited).
  enum SavePlan {
    /// Write `content` over `expected` (`nil`: no file), reporting `outcome` (`.saved` or `.overwrote`).
    case write(Database, replacing: Storage.Version?, outcome: VaultSaveOutcome)
    /// Load the version on disk, dropping the local changes.
    case reload(bytes: [UInt8], version: Storage.Version)
    /// Open the version on disk, merge it with the local one and write the result over it.
    case merge(bytes: [UInt8], version: Storage.Version, method: VaultMergeMethod)
  }

  /// Reads storage and decides (see ``SavePlan``); throws `.locked`, `.changedOnDisk` (policy `.fail` and the file
  /// changed) or the storage's error (a missing file counts as changed: only `.overwrite` writes it again).
  func savePlan(onConflict: VaultConflictPolicy) throws(VaultSessionError) -> (SavePlan, SessionKeyMaterial) {
    guard let material = keyMaterial, let local = database else { throw .locked }
    let current: [UInt8]
    let version: Storage.Version
    do throws(VaultStorageError) {
      (current, version) = try storage.read()
    } catch {
      guard case .notFound = error, onConflict == .overwrite else { throw .storage(error) }
      return (.write(local, replacing: nil, outcome: .overwrote), material)
    }
    if ConstantTime.equals(SHA256.hash(current).bytes, knownFileDigest) {
      return (.write(local, replacing: version, outcome: .saved), material)
    }
    switch onConflict {
    case .fail: throw .changedOnDisk
    case .overwrite: return (.write(local, replacing: version, outcome: .overwrote), material)
    case .reload: return (.reload(bytes: current, version: version), material)
    case .merge(let method): return (.merge(bytes: current, version: version, method: method), material)
    }
  }

  /// `local` merged with the version on disk, `remote`, by `method`, and the settings the result is written with:
  /// those found on disk when the local ``settings`` are unchanged (another device may have strengthened the KDF),
  /// else the local ones.
  func merge(_ local: Database, with remote: Loaded, method: VaultMergeMethod)
    -> (database: Database, settings: SaveSettings, report: MergeReport)
  {
    let result: MergeResult
    switch method {
    case .threeWay(let now):
      result = DatabaseMerge.threeWay(
        base: base ?? remote.database, local: local, remote: remote.database, now: now)
    case .synchronize(let mode):
      result = DatabaseMerge.synchronize(local: local, remote: remote.database, mode: mode)
    }
    return (result.database, settings == loadedSettings ? remote.settings : settings, result.report)
  }

  /// Saves `content` with `target` settings over the storage's version `expected` (a coordinated write) and, once
  /// storage accepted the bytes, makes it the session's state.
  func write(
    _ content: Database, settings target: SaveSettings, material: SessionKeyMaterial,
    replacing expected: Storage.Version?, progress: ((Double) -> Bool)?
  ) throws(VaultSessionError) {
    let version = VersionRequirements.effectiveVersion(for: content, settings: target)
    var primitives = StandardPrimitives(progress: progress)
    primitives.argon2MemoryLimitBytes = Int(clamping: options.load.kdfMemoryCapBytes)
    let bytes: [UInt8]
    var written = target
    do throws(KDBXError) {
      let (key, kdf) = try material.keyForWriting(kdf: target.kdf, version: version, primitives: primitives)
      written.kdf = kdf
      bytes = try KDBXFile.saveBlocking(content, key: key, settings: written, progress: progress)
      if !key.isTransformed {
        // KDBXFile.save drew a fresh KDF seed: record it, so that the next merge sees unchanged settings.
        written.kdf = try KDBXFile.readHeader(bytes: bytes, options: options.load).header.kdf
      }
    } catch {
      throw .kdbx(error)
    }
    let newVersion: Storage.Version
    do throws(VaultStorageError) {
      newVersion = try storage.write(bytes, replacing: expected)
    } catch {
      throw .storage(error)
    }
    installWritten(content, bytes: bytes, settings: written, version: newVersion)
  }

  /// Makes `content`, just written as `bytes` with `written` settings, the session's state.
  func installWritten(_ content: Database, bytes: [UInt8], settings written: SaveSettings, version: Storage.Version) {
    settings = written
    loadedSettings = written
    knownFileDigest = SHA256.hash(bytes).bytes
    knownVersion = version
    base = content
    database = content
  }
}
