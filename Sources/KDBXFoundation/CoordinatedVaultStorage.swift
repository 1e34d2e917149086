import Foundation
import KDBX
import KDBXFileIO

/// A ``KDBX/VaultStorage`` for a file URL in a place other processes also write: iCloud Drive, a file provider
/// such as Dropbox's, a folder the Files app shares.
///
/// On Apple platforms every read is a coordinated read and every save a coordinated write (`NSFileCoordinator`),
/// so the iCloud daemon or a file provider never replaces the file in the middle of one; inside the write, the
/// save still replaces the file only while it is the version the session read (``KDBXFileIO/FileVaultStorage``'s
/// compare-and-replace under the vault's lock, then an atomic rename). A file that another process changed makes
/// the save throw ``KDBX/VaultStorageError/changedSinceRead(location:)``, which a `VaultSession` reports as changed
/// on disk and resolves by its conflict policy. For a URL resolved from a security-scoped bookmark, each read and
/// write starts and stops access to it.
///
/// Elsewhere (Linux, Windows, Android) there is no file coordination: the same type reads and writes through
/// ``KDBXFileIO/FileVaultStorage`` alone, so code that uses it builds and behaves the same everywhere.
///
/// The Apple branch is type-checked in CI against a stand-in of the Foundation declarations it uses
/// (`.ci/darwin-check.sh`); no Mac runs it in CI.
///
/// ```swift
/// import KDBX
///
/// let storage = CoordinatedVaultStorage(url: documentURL, isSecurityScoped: true)
/// let session = try await VaultSession.open(storage: storage, key: key)
/// ```
public struct CoordinatedVaultStorage: VaultStorage, Sendable {
  /// The vault file.
  public let url: URL
  /// Whether each access starts and stops security-scoped access to ``url`` (a URL resolved from a
  /// security-scoped bookmark, or handed over by a document picker).
  public var isSecurityScoped: Bool
  /// The reads and writes done inside the coordination: path, atomic-write options, size limit, lock timeout.
  public var file: FileVaultStorage

  /// A storage for the file at `url`, which must be a file URL (others fail on the first read or write).
  public init(url: URL, isSecurityScoped: Bool = false, keepsBackup: Bool = false) {
    self.url = url
    self.isSecurityScoped = isSecurityScoped
    file = FileVaultStorage(path: url.isFileURL ? url.path : "", keepsBackup: keepsBackup)
  }

  /// Reads the whole file and its version, inside a coordinated read on Apple platforms.
  public mutating func read() throws(VaultStorageError) -> (bytes: [UInt8], version: FileVersion) {
    try checkFileURL()
    var result: Result<(bytes: [UInt8], version: FileVersion), VaultStorageError> = .failure(notRun)
    try FileCoordination.coordinate(.reading, url, isSecurityScoped: isSecurityScoped) { actualPath in
      var actual = file
      actual.path = actualPath
      do throws(VaultStorageError) {
        result = .success(try actual.read())
      } catch {
        result = .failure(error)
      }
    }
    return try result.get()
  }

  /// Replaces the file with `bytes` if it is still the version `expected` (`nil`: if there is still no file),
  /// inside a coordinated write on Apple platforms; see ``KDBXFileIO/FileVaultStorage/write(_:replacing:)``.
  public mutating func write(_ bytes: [UInt8], replacing expected: FileVersion?) throws(VaultStorageError)
    -> FileVersion
  {
    try checkFileURL()
    var result: Result<FileVersion, VaultStorageError> = .failure(notRun)
    try FileCoordination.coordinate(.writing, url, isSecurityScoped: isSecurityScoped) { actualPath in
      var actual = file
      actual.path = actualPath
      do throws(VaultStorageError) {
        result = .success(try actual.write(bytes, replacing: expected))
      } catch {
        result = .failure(error)
      }
    }
    return try result.get()
  }

  private func checkFileURL() throws(VaultStorageError) {
    guard url.isFileURL else { throw .readFailed(location: url.absoluteString, reason: "not a file URL") }
  }

  private var notRun: VaultStorageError {
    .readFailed(location: url.path, reason: "the file coordinator did not run the access")
  }
}
