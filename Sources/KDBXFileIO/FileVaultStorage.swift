import KDBX

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// A ``KDBX/VaultStorage`` for a file path: reads with ``FileIO/readFileAndVersion(atPath:maxByteCount:)`` and saves
/// with ``FileIO/atomicWrite(_:toPath:options:expecting:verify:)`` (temporary file beside the vault, `fsync`, read
/// back and check, optional backup, atomic `rename(2)`), so that an interrupted save leaves the old file or the new
/// one.
///
/// Its ``KDBX/VaultStorage/Version`` is a ``FileVersion`` (SHA-256 of the content, device, inode, modification
/// time). A save (``write(_:replacing:)``) is a compare-and-replace under the vault's lock (``VaultFileLock``): it
/// replaces the file only while it still holds the content of the version given, and the lock keeps cooperating
/// writers (other `kdbx` commands, other sessions) out between that check and the rename. A file that changed
/// fails with ``KDBX/VaultStorageError/changedSinceRead(location:)``: read again and decide. Symbolic links are
/// followed: the real file is replaced and the link stays.
///
/// ```swift
/// import KDBX
///
/// var storage = FileVaultStorage(path: "/home/me/vault.kdbx")
/// storage.writeOptions.keepsBackup = true                  // keep the previous version as vault.kdbx.old
/// let session = try SynchronousVaultSession(storage: storage, key: key)  // or `try await VaultSession.open(...)`
/// ```
public struct FileVaultStorage: VaultStorage, Sendable {
  /// The vault file's path.
  public var path: String
  /// How saves replace the file (backup, read-only refusal).
  public var writeOptions: AtomicWriteOptions
  /// The largest file ``read()`` accepts.
  public var maxByteCount: Int
  /// How long a save waits for another process that holds the vault's lock.
  public var lockTimeoutSeconds: Double = 10

  /// A storage for the file at `path`; `keepsBackup` keeps the previous version at `path + ".old"` on every save.
  public init(path: String, keepsBackup: Bool = false, maxByteCount: Int = FileIO.defaultMaxByteCount) {
    self.path = path
    var options = AtomicWriteOptions()
    options.keepsBackup = keepsBackup
    writeOptions = options
    self.maxByteCount = maxByteCount
  }

  /// Reads the whole file and its version. A missing file is ``KDBX/VaultStorageError/notFound(location:)``.
  public mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: FileVersion) {
    do throws(FileIOError) {
      return try FileIO.readFileAndVersion(atPath: path, maxByteCount: maxByteCount)
    } catch {
      if case .openFailed(_, let code) = error, code == ENOENT { throw .notFound(location: path) }
      throw .readFailed(location: path, reason: error.description)
    }
  }

  /// Replaces the file atomically, under the vault's lock, if it still holds the content of `expected` (`nil`: if
  /// there is still no file). The bytes read back from the temporary file must start with a KDBX signature and
  /// version (``KDBX/KDBXFile/readVersion(bytes:)``) before the rename.
  public mutating func write(_ bytes: [UInt8], replacing expected: FileVersion?) throws(VaultStorageError)
    -> FileVersion
  {
    try write(bytes, replacing: expected, holding: nil, verify: nil)
  }

  /// ``write(_:replacing:)`` for a caller that already holds the vault's lock for a whole read-change-write (the
  /// `kdbx` tool does), and checks the new file its own way.
  ///
  /// - Parameters:
  ///   - lock: the vault's lock, held by the caller (a second `flock` from this process would wait for it); `nil`
  ///     takes the lock for the write (waiting up to ``lockTimeoutSeconds``), or goes on without one on a file
  ///     system that cannot lock, where the version check alone refuses to overwrite a newer save.
  ///   - verify: checks the bytes read back from the temporary file: `nil` when good, else the reason. `nil`
  ///     checks the KDBX signature and version.
  public mutating func write(
    _ bytes: [UInt8], replacing expected: FileVersion?, holding lock: VaultFileLock?,
    verify: (([UInt8]) -> String?)?
  ) throws(VaultStorageError) -> FileVersion {
    let target = lock?.path ?? path
    do throws(FileIOError) {
      var ownLock: VaultFileLock? = nil
      if expected != nil && lock == nil {
        do throws(FileIOError) {
          ownLock = try VaultFileLock.acquire(path, timeoutSeconds: lockTimeoutSeconds)
        } catch {
          switch error {
          case .lockFailed: break  // no locks here: the version check below still refuses a newer save
          case .openFailed(_, let code) where code == ENOENT: throw .changedSinceRead(path: path)
          default: throw error
          }
        }
      }
      defer { ownLock?.release() }
      let expectation: FileExpectation = expected.map { .unchanged($0) } ?? .absent
      return try FileIO.atomicWrite(bytes, toPath: target, options: writeOptions, expecting: expectation) {
        written in
        if let verify { return verify(written) }
        do throws(KDBXError) {
          _ = try KDBXFile.readVersion(bytes: written)
          return nil
        } catch {
          return error.description
        }
      }
    } catch {
      switch error {
      case .readOnly: throw .readOnly(location: path)
      case .changedSinceRead, .alreadyExists: throw .changedSinceRead(location: path)
      default: throw .writeFailed(location: path, reason: error.description)
      }
    }
  }
}
