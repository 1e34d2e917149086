extension VaultSessionError {
  /// Which alert this error calls for (see ``VaultErrorCategory``): a wrapped storage or file error gives its own.
  public var category: VaultErrorCategory {
    switch self {
    case .locked, .fileExists: return .invalidRequest
    case .changedOnDisk: return .changedOnDisk
    case .storage(let error): return error.category
    case .kdbx(let error): return error.category
    }
  }
}

extension VaultStorageError {
  /// Which alert this error calls for (see ``VaultErrorCategory``).
  public var category: VaultErrorCategory {
    switch self {
    case .notFound, .readFailed, .writeFailed, .readOnly: return .io
    case .changedSinceRead: return .changedOnDisk
    }
  }
}
