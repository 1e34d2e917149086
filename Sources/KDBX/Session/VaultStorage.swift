/// Where a ``VaultSession`` reads and writes its file: a path, a document in a file provider, a blob in memory.
///
/// The codec never touches the file system itself; a session does all of its I/O through this protocol, so the
/// `KDBX` module stays standard-library only. `KDBXFileIO` provides `FileVaultStorage` (a path, crash-safe saves);
/// ``InMemoryVaultStorage`` serves tests and apps that do their own I/O.
///
/// Both calls move the whole file: KDBX files are read and written as one unit (the header HMAC and the block
/// stream cover everything, KDBX 4.1 specification "File structure").
///
/// ## Coordinated writes
///
/// A save must never silently replace another writer's save. ``read()`` therefore returns, with the bytes, a
/// ``Version`` of what it read: whatever the storage can compare (a SHA-256 of the content, an inode and a
/// modification time, a cloud provider's ETag or revision). ``write(_:replacing:)`` takes that version back and
/// replaces the file only if it is still that version, as one step where the storage allows it (under a file
/// lock, inside a file coordinator's write block, with an HTTP `If-Match`). When another writer got there first,
/// it writes nothing and throws ``VaultStorageError/changedSinceRead(location:)``; the session then reads again
/// and lets its conflict policy decide (``VaultConflictPolicy``).
///
/// ```swift
/// var storage = InMemoryVaultStorage(bytes: bytes)
/// let (current, version) = try storage.read()
/// let newVersion = try storage.write(edited(current), replacing: version)   // or .changedSinceRead
/// ```
public protocol VaultStorage {
  /// What identifies one version of the file, as far as this storage can tell versions apart (a content hash,
  /// inode and modification time, an ETag). Only the storage compares versions; a session keeps them and hands
  /// them back.
  associatedtype Version: Sendable

  /// Returns the whole current content of the vault file and its version.
  ///
  /// Throws ``VaultStorageError/notFound(location:)`` when there is no file, other cases for I/O failures.
  mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: Version)

  /// Replaces the whole vault file with `bytes` if it is still the version `expected` (`nil`: if there is still
  /// no file, which creates it), and returns the version written.
  ///
  /// The comparison and the replacement are one step where the storage allows it: no other cooperating writer can
  /// save in between. A conforming type should also make the replacement atomic (either the old or the new
  /// content survives an interruption), as `FileVaultStorage` does.
  ///
  /// - Throws: ``VaultStorageError/changedSinceRead(location:)`` when the file is no longer `expected` (another
  ///   writer saved, or created the file, since it was read): nothing is written. Other cases for I/O failures;
  ///   the previous content is then still in place.
  mutating func write(_ bytes: [UInt8], replacing expected: Version?) throws(VaultStorageError) -> Version
}

/// Why a ``VaultStorage`` could not read or write. `location` names the file (a path, a URL, a label), never its
/// content.
///
/// ```swift
/// do {
///   try await session.save()
/// } catch .storage(.readOnly(let location)) {
///   show("Read-only", "\(location) cannot be written: save a copy elsewhere")
/// } catch {
///   show("Not saved", error.description)
/// }
/// ```
public enum VaultStorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// There is no file at `location`.
  case notFound(location: String)
  /// The file could not be read; `reason` says why.
  case readFailed(location: String, reason: String)
  /// The file could not be written; `reason` says why. The previous content is still in place.
  case writeFailed(location: String, reason: String)
  /// The file may not be written (no permission, read-only mount or share).
  case readOnly(location: String)
  /// A coordinated write found another version than the one it was to replace (another writer saved, created or
  /// removed the file since it was read): nothing was written.
  case changedSinceRead(location: String)

  /// A one-line description naming the location and the failure.
  public var description: String {
    switch self {
    case .notFound(let location): return "no vault file at \(location)"
    case .readFailed(let location, let reason): return "cannot read \(location): \(reason)"
    case .writeFailed(let location, let reason): return "cannot write \(location): \(reason)"
    case .readOnly(let location): return "\(location) is read-only"
    case .changedSinceRead(let location):
      return "\(location) changed since it was read (another program saved it meanwhile); nothing was written"
    }
  }
}

/// A vault file held in memory: for tests, previews, and apps that move bytes themselves, handing the session the
/// bytes they read.
///
/// Its `Version` is a generation number that every change of ``bytes`` increments, so a coordinated write
/// (``write(_:replacing:)``) refuses to replace content that changed since it was read. To simulate another device
/// writing the file, assign ``bytes`` of a copy that shares nothing with the session's, or wrap one storage in an
/// ``AnyVaultStorage`` (shared by reference) and write through it.
///
/// ```swift
/// let session = try SynchronousVaultSession(storage: InMemoryVaultStorage(bytes: fileBytes), key: key)
/// session.database?.meta.databaseName = "Preview"
/// try session.save()
/// let written = session.storage.bytes  // the saved file, for the app to upload
/// ```
public struct InMemoryVaultStorage: VaultStorage, Sendable, Equatable {
  /// The file's content, or `nil` when there is no file. Every assignment makes a new generation (version).
  public var bytes: [UInt8]? {
    didSet { generation &+= 1 }
  }
  /// The version of ``bytes``: incremented by every change.
  package private(set) var generation: UInt64 = 0
  /// How many times ``write(_:replacing:)`` replaced the content.
  package private(set) var writeCount = 0
  /// When set, ``write(_:replacing:)`` fails with this error and keeps the content (for failure tests).
  package var failingWrite: VaultStorageError?

  /// A storage holding `bytes` (`nil`: no file yet).
  public init(bytes: [UInt8]? = nil) {
    self.bytes = bytes
  }

  /// Returns ``bytes`` and its generation number, or throws ``VaultStorageError/notFound(location:)`` when there is no
  /// file.
  public mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: UInt64) {
    guard let bytes else { throw .notFound(location: "memory") }
    return (bytes, generation)
  }

  /// Replaces ``bytes`` if they are still at generation `expected` (`nil`: if there are none), unless a test set
  /// its failure hook.
  public mutating func write(_ bytes: [UInt8], replacing expected: UInt64?) throws(VaultStorageError) -> UInt64 {
    if let failingWrite { throw failingWrite }
    switch expected {
    case nil: guard self.bytes == nil else { throw .changedSinceRead(location: "memory") }
    case let version?:
      guard self.bytes != nil, version == generation else { throw .changedSinceRead(location: "memory") }
    }
    self.bytes = bytes
    writeCount += 1
    return generation
  }
}
