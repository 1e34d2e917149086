import Foundation
import KDBX
import KDBXFileIO

/// Why a vault file named by a URL could not be opened or saved.
public enum VaultFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file could not be read or written (``KDBX/VaultStorageError`` names the path and the reason).
  case storage(VaultStorageError)
  /// The file was read but is not a vault this key opens: a wrong key is `.kdbx(.invalidCredentials)`.
  case kdbx(KDBXError)

  /// A one-line description; never contains key material.
  public var description: String {
    switch self {
    case .storage(let error): return error.description
    case .kdbx(let error): return error.description
    }
  }
}

extension KDBXFile {
  /// Reads the vault at the file URL `url` (files over ``KDBXFileIO/FileIO/defaultMaxByteCount`` are refused before
  /// they are read) and opens it without blocking the caller's actor.
  ///
  /// This is a plain read: for a file that another process may replace while it is read (iCloud Drive, a file
  /// provider), use ``CoordinatedVaultStorage`` with a `VaultSession` instead.
  public static func open(
    contentsOf url: URL, key: CompositeKey, options: LoadOptions = .default, maxConcurrency: Int? = nil,
    progress: (@Sendable (Double) -> Void)? = nil
  ) async throws(VaultFileError) -> OpenedDatabase {
    let bytes = try readVaultFile(url)
    do throws(KDBXError) {
      return try await open(
        bytes: bytes, key: key, options: options, maxConcurrency: maxConcurrency, progress: progress)
    } catch {
      throw .kdbx(error)
    }
  }

  /// Writes `database` to the file URL `url` with ``KDBXFileIO/FileIO/atomicWrite(_:toPath:options:expecting:verify:)``
  /// (temporary file, `fsync` or `F_FULLFSYNC`, atomic rename): an interruption leaves the old file or the new one.
  ///
  /// This replaces whatever is at `url`; to save only over the version you read, use a `VaultSession`.
  public static func save(
    _ database: Database, key: CompositeKey, settings: SaveSettings, to url: URL, maxConcurrency: Int? = nil,
    progress: (@Sendable (Double) -> Void)? = nil
  ) async throws(VaultFileError) {
    let path = try filePath(url)
    let bytes: [UInt8]
    do throws(KDBXError) {
      bytes = try await save(
        database, key: key, settings: settings, maxConcurrency: maxConcurrency, progress: progress)
    } catch {
      throw .kdbx(error)
    }
    do throws(FileIOError) {
      _ = try FileIO.atomicWrite(bytes, toPath: path)
    } catch {
      if case .readOnly = error { throw .storage(.readOnly(location: path)) }
      throw .storage(.writeFailed(location: path, reason: error.description))
    }
  }

  /// The whole file at `url`, bounded by ``KDBXFileIO/FileIO/defaultMaxByteCount``.
  static func readVaultFile(_ url: URL) throws(VaultFileError) -> [UInt8] {
    var storage = FileVaultStorage(path: try filePath(url))
    do throws(VaultStorageError) {
      return try storage.read().bytes
    } catch {
      throw .storage(error)
    }
  }
}

/// The path of a file URL; other schemes are refused in words.
func filePath(_ url: URL) throws(VaultFileError) -> String {
  guard url.isFileURL else {
    throw .storage(.readFailed(location: url.absoluteString, reason: "not a file URL"))
  }
  return url.path
}
