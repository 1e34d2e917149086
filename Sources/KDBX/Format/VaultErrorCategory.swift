import KDBXCompression
import KDBXCrypto
import KDBXXML

/// The question an app's alert answers about a failed vault operation: what the user can do next.
///
/// Every error a vault operation throws (``KDBXError``, ``VaultSessionError``, ``VaultStorageError``, and in the
/// other modules `FileIOError`, `VaultFileError`, `ImportError` and `PasskeyError`) has a `category`. The error's
/// `description` says in one sentence what happened and where; the category says which alert to show:
///
/// ```swift
/// do {
///   _ = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: "wrong"))
/// } catch {
///   switch error.category {
///   case .wrongKey: print("Wrong password or key file.")
///   case .damaged: print("The file is damaged: \(error)")
///   default: print(error)
///   }
/// }
/// ```
public enum VaultErrorCategory: Sendable, Equatable, CaseIterable {
  /// The password, key file or key does not open the file, or the key file is unusable: ask again.
  case wrongKey
  /// A cached key no longer fits the file (another app saved it with a new key derivation seed) or the cached
  /// bytes are not a key: unlock with the password and cache the new key.
  case staleCachedKey
  /// The file is not a KeePass database or is damaged (truncated, a failed checksum, malformed content).
  case damaged
  /// A format, version, algorithm or export form this library does not read.
  case unsupported
  /// A value in the file is beyond the caller's ``LoadOptions`` limits or the memory the caller can give.
  case tooLarge
  /// The operation was cancelled; nothing was written.
  case cancelled
  /// Another writer changed the file since it was read; nothing was written.
  case changedOnDisk
  /// The file could not be read or written (missing, no permission, a disk or lock failure).
  case io
  /// The request does not fit the current state or its arguments: a locked session, a file that already exists,
  /// a database opened without part of its content, options that do not fit the input.
  case invalidRequest
}

extension KDBXError {
  /// Which alert this error calls for (see ``VaultErrorCategory``).
  public var category: VaultErrorCategory {
    switch self {
    case .invalidCredentials, .invalidKeyFile: return .wrongKey
    case .cachedKeyIsStale, .invalidCachedKey: return .staleCachedKey
    case .unsupportedKDB1, .unsupportedPreReleaseFormat, .unsupportedVersion, .unsupportedCipher, .unsupportedKDF,
      .unsupportedInnerRandomStream, .unsupportedCompression:
      return .unsupported
    case .notKeePassFile, .truncated, .malformedHeader, .malformedInnerHeader, .malformedVariantDictionary,
      .headerChecksumMismatch, .headerHashMismatch, .corruptedBlock, .malformedValue, .malformedDocument,
      .damagedContent, .malformedRecord:
      return .damaged
    case .limitExceeded, .insufficientMemory: return .tooLarge
    case .cancelled: return .cancelled
    case .incompleteDatabase: return .invalidRequest
    case .crypto(let error):
      switch error {
      case .memoryLimitExceeded, .memoryUnavailable: return .tooLarge
      case .cancelled: return .cancelled
      case .invalidPadding, .invalidKeySize, .invalidNonceSize, .invalidCiphertextLength, .invalidParameter,
        .counterOverflow:
        return .damaged
      }
    case .compression(let error):
      if case .outputLimitExceeded = error { return .tooLarge }
      return .damaged
    case .xml(let error):
      switch error.kind {
      case .limitExceeded: return .tooLarge
      case .unsupportedEncoding: return .unsupported
      // The writer's errors: a value the app set that XML 1.0 cannot carry.
      case .unrepresentableCharacter, .unwritable: return .invalidRequest
      default: return .damaged
      }
    }
  }
}
