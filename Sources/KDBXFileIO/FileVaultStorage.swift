import Glibc
import KDBX

/// A ``KDBX/VaultStorage`` for a file path: reads with ``FileIO/readFile(atPath:maxByteCount:)`` and saves with
/// ``FileIO/atomicWrite(_:toPath:options:verify:)`` (temporary file beside the vault, `fsync`, read back and check,
/// optional backup, atomic `rename(2)`), so that an interrupted save leaves the old file or the new one.
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

  /// A storage for the file at `path`; `keepsBackup` keeps the previous version at `path + ".old"` on every save.
  public init(path: String, keepsBackup: Bool = false, maxByteCount: Int = FileIO.defaultMaxByteCount) {
    self.path = path
    var options = AtomicWriteOptions()
    options.keepsBackup = keepsBackup
    writeOptions = options
    self.maxByteCount = maxByteCount
  }

  /// Reads the whole file. A missing file is ``KDBX/VaultStorageError/notFound(location:)``.
  public mutating func read() throws(VaultStorageError) -> [UInt8] {
    do throws(FileIOError) {
      return try FileIO.readFile(atPath: path, maxByteCount: maxByteCount)
    } catch {
      if case .openFailed(_, let code) = error, code == ENOENT { throw .notFound(location: path) }
      throw .readFailed(location: path, reason: error.description)
    }
  }

  /// Replaces the file atomically. The bytes read back from the temporary file must start with a KDBX signature
  /// and version (``KDBX/KDBXFile/readVersion(bytes:)``) before the rename.
  public mutating func write(_ bytes: [UInt8]) throws(VaultStorageError) {
    do throws(FileIOError) {
      try FileIO.atomicWrite(bytes, toPath: path, options: writeOptions) { written in
        do throws(KDBXError) {
          _ = try KDBXFile.readVersion(bytes: written)
          return nil
        } catch {
          return error.description
        }
      }
    } catch {
      if case .readOnly = error { throw .readOnly(location: path) }
      throw .writeFailed(location: path, reason: error.description)
    }
  }
}
