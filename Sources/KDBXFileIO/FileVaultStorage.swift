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
/// Each save is a compare-and-replace under the vault's lock (``VaultFileLock``): the storage remembers the version
/// of the file it last read or wrote, and a save replaces the file only while it still holds that content, so a
/// save never overwrites one that another program made after the session's check (``VaultSession`` compares the
/// SHA-256 first, then the storage closes the window up to the rename). Such a save fails with
/// ``KDBX/VaultStorageError/writeFailed(location:reason:)`` saying the file changed; read again and decide.
/// Symbolic links are followed: the real file is replaced and the link stays.
///
/// ```swift
/// var storage = FileVaultStorage(path: "/home/me/vault.kdbx")
/// storage.writeOptions.keepsBackup = true                  // keep the previous version as vault.kdbx.old
/// let session = try VaultSession(storage: storage, key: key)
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
  /// What the next ``write(_:)`` expects on disk: the version last read or written (`.absent` after a read found
  /// no file; `.anything` before the first read).
  public var expectedFile: FileExpectation = .anything

  /// A storage for the file at `path`; `keepsBackup` keeps the previous version at `path + ".old"` on every save.
  public init(path: String, keepsBackup: Bool = false, maxByteCount: Int = FileIO.defaultMaxByteCount) {
    self.path = path
    var options = AtomicWriteOptions()
    options.keepsBackup = keepsBackup
    writeOptions = options
    self.maxByteCount = maxByteCount
  }

  /// Reads the whole file and remembers its version. A missing file is
  /// ``KDBX/VaultStorageError/notFound(location:)``.
  public mutating func read() throws(VaultStorageError) -> [UInt8] {
    do throws(FileIOError) {
      let (bytes, version) = try FileIO.readFileAndVersion(atPath: path, maxByteCount: maxByteCount)
      expectedFile = .unchanged(version)
      return bytes
    } catch {
      if case .openFailed(_, let code) = error, code == ENOENT {
        expectedFile = .absent
        throw .notFound(location: path)
      }
      throw .readFailed(location: path, reason: error.description)
    }
  }

  /// Replaces the file atomically, under the vault's lock, if it still holds the version last read or written.
  /// The bytes read back from the temporary file must start with a KDBX signature and version
  /// (``KDBX/KDBXFile/readVersion(bytes:)``) before the rename.
  public mutating func write(_ bytes: [UInt8]) throws(VaultStorageError) {
    do throws(FileIOError) {
      var lock: VaultFileLock? = nil
      if expectedFile != .absent && FileIO.fileExists(atPath: path) {
        do throws(FileIOError) {
          lock = try VaultFileLock.acquire(path, timeoutSeconds: lockTimeoutSeconds)
        } catch {
          // A file system without locks: the version check below still refuses to overwrite a newer save.
          guard case .lockFailed = error else { throw error }
        }
      }
      defer { lock?.release() }
      let written = try FileIO.atomicWrite(bytes, toPath: path, options: writeOptions, expecting: expectedFile) {
        written in
        do throws(KDBXError) {
          _ = try KDBXFile.readVersion(bytes: written)
          return nil
        } catch {
          return error.description
        }
      }
      expectedFile = .unchanged(written)
    } catch {
      if case .readOnly = error { throw .readOnly(location: path) }
      throw .writeFailed(location: path, reason: error.description)
    }
  }
}
