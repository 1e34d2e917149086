import KDBX

extension FileIOError {
  /// Which alert this error calls for (see `KDBX.VaultErrorCategory`).
  public var category: VaultErrorCategory {
    switch self {
    case .tooLarge: return .tooLarge
    case .changedSinceRead: return .changedOnDisk
    case .alreadyExists: return .invalidRequest
    case .invalidKeyFile: return .wrongKey
    case .openFailed, .readFailed, .writeFailed, .syncFailed, .renameFailed, .backupFailed, .readOnly,
      .verificationFailed, .injectedFailure, .notRegularFile, .danglingSymbolicLink, .lockTimeout, .lockFailed:
      return .io
    }
  }
}
