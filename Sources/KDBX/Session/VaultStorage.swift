/// Where a ``VaultSession`` reads and writes its file: a path, a document in a file provider, a blob in memory.
///
/// The codec never touches the file system itself; a session does all of its I/O through this protocol, so the
/// `KDBX` module stays standard-library only. `KDBXFileIO` provides `FileVaultStorage` (a path, crash-safe saves);
/// ``InMemoryVaultStorage`` serves tests and apps that do their own I/O.
///
/// Both calls move the whole file: KDBX files are read and written as one unit (the header HMAC and the block
/// stream cover everything, KDBX 4.1 specification "File structure").
public protocol VaultStorage {
  /// Returns the whole current content of the vault file.
  ///
  /// Throws ``VaultStorageError/notFound(location:)`` when there is no file, other cases for I/O failures.
  mutating func read() throws(VaultStorageError) -> [UInt8]

  /// Replaces the whole vault file with `bytes`. A conforming type should make the replacement atomic (either the
  /// old or the new content survives an interruption), as `FileVaultStorage` does.
  mutating func write(_ bytes: [UInt8]) throws(VaultStorageError)
}

/// Why a ``VaultStorage`` could not read or write. `location` names the file (a path, a URL, a label), never its
/// content.
public enum VaultStorageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// There is no file at `location`.
  case notFound(location: String)
  /// The file could not be read; `reason` says why.
  case readFailed(location: String, reason: String)
  /// The file could not be written; `reason` says why. The previous content is still in place.
  case writeFailed(location: String, reason: String)
  /// The file may not be written (no permission, read-only mount or share).
  case readOnly(location: String)

  /// A one-line description naming the location and the failure.
  public var description: String {
    switch self {
    case .notFound(let location): return "no vault file at \(location)"
    case .readFailed(let location, let reason): return "cannot read \(location): \(reason)"
    case .writeFailed(let location, let reason): return "cannot write \(location): \(reason)"
    case .readOnly(let location): return "\(location) is read-only"
    }
  }
}

/// A vault file held in memory: for tests, previews, and apps that move bytes themselves (for example through
/// `NSFileCoordinator`, handing the session the bytes they read).
///
/// To simulate another device writing the file, assign ``bytes`` directly (for a session's storage:
/// `session.storage.bytes = otherBytes`).
public struct InMemoryVaultStorage: VaultStorage, Sendable, Equatable {
  /// The file's content, or `nil` when there is no file.
  public var bytes: [UInt8]?
  /// How many times ``write(_:)`` replaced the content.
  public private(set) var writeCount = 0
  /// When set, ``write(_:)`` fails with this error and keeps the content (for failure tests).
  public var failingWrite: VaultStorageError?

  /// A storage holding `bytes` (`nil`: no file yet).
  public init(bytes: [UInt8]? = nil) {
    self.bytes = bytes
  }

  /// Returns ``bytes``, or throws ``VaultStorageError/notFound(location:)`` when there is no file.
  public mutating func read() throws(VaultStorageError) -> [UInt8] {
    guard let bytes else { throw .notFound(location: "memory") }
    return bytes
  }

  /// Replaces ``bytes`` (unless ``failingWrite`` is set).
  public mutating func write(_ bytes: [UInt8]) throws(VaultStorageError) {
    if let failingWrite { throw failingWrite }
    self.bytes = bytes
    writeCount += 1
  }
}
