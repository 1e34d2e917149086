import KDBX

extension VaultFileError {
  /// Which alert this error calls for (see ``KDBX/VaultErrorCategory``): the wrapped error's category.
  public var category: VaultErrorCategory {
    switch self {
    case .storage(let error): return error.category
    case .kdbx(let error): return error.category
    }
  }
}
