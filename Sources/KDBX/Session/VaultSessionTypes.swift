/// Errors from a ``SynchronousVaultSession``.
///
/// ```swift
/// do {
///   try await session.save()
/// } catch .changedOnDisk {
///   show("Vault", "Changed on another device: merge, or keep yours?")
/// } catch {
///   show(error.category == .io ? "Cannot write the file" : "Not saved", error.description)
/// }
/// ```
public enum VaultSessionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The session is locked (or holds no database): unlock it first.
  case locked
  /// The file changed on disk since the session read or last wrote it (its SHA-256 differs), and the conflict
  /// policy was ``VaultConflictPolicy/fail``. Nothing was written; save again with another policy.
  case changedOnDisk
  /// ``SynchronousVaultSession/create(_:in:key:settings:options:progress:)`` found a file already in storage and wrote
  /// nothing.
  case fileExists
  /// The storage could not read or write the file.
  case storage(VaultStorageError)
  /// The file could not be opened or written. A wrong key is `.kdbx(.invalidCredentials)`, also when another
  /// device changed the key of the file on disk.
  case kdbx(KDBXError)

  /// A one-line description; never contains key material.
  public var description: String {
    switch self {
    case .locked: return "the vault is locked"
    case .changedOnDisk: return "the vault file changed on disk since it was opened"
    case .fileExists: return "a vault file already exists there"
    case .storage(let error): return error.description
    case .kdbx(let error): return error.description
    }
  }
}

/// What ``SynchronousVaultSession/save(onConflict:progress:)`` does when the file changed on disk since the session read or
/// last wrote it (KeePassXC: "The database file has changed. Do you want to load the changes?").
///
/// ```swift
/// let outcome = try await session.save(onConflict: .merge(.threeWay(now: now)))
/// if case .merged(let report) = outcome, !report.conflicts.isEmpty {
///   show("Merged", "\(report.conflicts.count) conflicts, resolved without losing either version")
/// }
/// ```
public enum VaultConflictPolicy: Sendable, Equatable {
  /// Write nothing and throw ``VaultSessionError/changedOnDisk`` (the default): the app asks the user.
  case fail
  /// Replace the file on disk with the local version; the changes on disk are lost.
  case overwrite
  /// Discard the local changes and load the version on disk; nothing is written.
  case reload
  /// Open the version on disk with the session's key, merge it with the local version and write the result.
  case merge(VaultMergeMethod)
}

/// How ``VaultConflictPolicy/merge(_:)`` combines the local version and the version on disk.
///
/// ```swift
/// // the version the session last read or wrote is the common ancestor; or .synchronize(.synchronize),
/// // KeePassXC's timestamp-based "Synchronize"
/// try await session.save(onConflict: .merge(.threeWay(now: now)))
/// ```
public enum VaultMergeMethod: Sendable, Equatable {
  /// ``DatabaseMerge/threeWay(base:local:remote:now:)`` with the version the session last read or wrote as the
  /// common ancestor: a change made on one side only is taken whatever the clocks say, and changes made on both
  /// sides are resolved loss-free and listed as conflicts in the report. `now` stamps new tombstones.
  case threeWay(now: Timestamp)
  /// ``DatabaseMerge/synchronize(local:remote:mode:)``: KeePass's and KeePassXC's timestamp-based
  /// synchronisation.
  case synchronize(DatabaseMerge.Mode)
}

/// What a save did.
///
/// ```swift
/// switch try await session.save(onConflict: .reload) {
/// case .saved, .overwrote: break
/// case .reloaded: show("Vault", "Changed on another device: its version is loaded")
/// case .merged(let report): show("Vault", "Merged \(report.changes.count) changes")
/// }
/// ```
public enum VaultSaveOutcome: Sendable, Equatable {
  /// The file had not changed on disk; the local version was written.
  case saved
  /// The file had changed on disk; the local version replaced it (``VaultConflictPolicy/overwrite``).
  case overwrote
  /// The file had changed on disk; the local changes were dropped and the version on disk loaded, nothing was
  /// written (``VaultConflictPolicy/reload``).
  case reloaded
  /// The file had changed on disk; both versions were merged and the result written and loaded. The report lists
  /// what the merge changed in the local version and, for a three-way merge, the conflicts.
  case merged(MergeReport)
}

/// Settings of a ``SynchronousVaultSession``.
///
/// ```swift
/// var options = VaultSessionOptions()
/// options.load.availableMemoryBytes = 50_000_000
/// options.cachesTransformedKey = false  // every save draws a new KDF seed and runs the KDF
/// let session = try await VaultSession.open(storage: storage, key: key, options: options)
/// ```
public struct VaultSessionOptions: Sendable {
  /// Resource limits applied to every file the session opens (the first open, unlocks, reloads, merges).
  public var load: LoadOptions
  /// Keep the KDF output while unlocked, so that saves (which then keep the file's KDF seed and draw a fresh
  /// master seed and IV) and re-reads of a file with the same seed skip the KDF, as KeePassXC does; a changed KDF
  /// runs once, with a fresh seed. When `false`, every save draws a fresh KDF seed and runs the KDF, except with a
  /// challenge-response key: for KDBX 4 its response answers the KDF seed (KeePassXC's challenge), so that seed is
  /// always kept. The cache is wiped on ``SynchronousVaultSession/lock()``.
  public var cachesTransformedKey: Bool

  /// Default limits, transformed key cached.
  public init(load: LoadOptions = .default, cachesTransformedKey: Bool = true) {
    self.load = load
    self.cachesTransformedKey = cachesTransformedKey
  }
}
