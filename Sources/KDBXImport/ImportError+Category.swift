import KDBX

extension ImportError {
  /// Which alert this error calls for (see `KDBX.VaultErrorCategory`); ``reason`` says more precisely what kind
  /// of export problem it is.
  public var category: VaultErrorCategory {
    switch reason {
    case .unrecognised, .unsupported, .unstorableText: return .unsupported
    case .malformed: return .damaged
    case .tooLarge: return .tooLarge
    case .invalidOptions: return .invalidRequest
    }
  }
}
