/// Errors from reading and saving files. Each names the path and, where the system gave one, the `errno`.
public enum FileIOError: Error, Equatable, Sendable, CustomStringConvertible {
  case openFailed(path: String, errno: Int32)
  case readFailed(path: String, errno: Int32)
  case writeFailed(path: String, errno: Int32)
  case syncFailed(path: String, errno: Int32)
  case renameFailed(from: String, to: String, errno: Int32)
  case backupFailed(path: String, errno: Int32)
  /// The file is larger than the caller's limit.
  case tooLarge(path: String, byteCount: Int, limit: Int)
  /// The destination exists and has no write permission.
  case readOnly(path: String)
  /// The bytes read back from the temporary file did not pass the caller's check.
  case verificationFailed(path: String, reason: String)
  /// A fault injected by a test at this stage (see ``AtomicWriteOptions/injectedFailure``).
  case injectedFailure(stage: AtomicWriteStage)

  public var description: String {
    switch self {
    case .openFailed(let path, let code): return "cannot open \(path) (errno \(code))"
    case .readFailed(let path, let code): return "cannot read \(path) (errno \(code))"
    case .writeFailed(let path, let code): return "cannot write \(path) (errno \(code))"
    case .syncFailed(let path, let code): return "cannot flush \(path) to disk (errno \(code))"
    case .renameFailed(let from, let to, let code): return "cannot rename \(from) to \(to) (errno \(code))"
    case .backupFailed(let path, let code): return "cannot write the backup \(path) (errno \(code))"
    case .tooLarge(let path, let count, let limit): return "\(path) is \(count) bytes, over the limit of \(limit)"
    case .readOnly(let path): return "\(path) is read-only"
    case .verificationFailed(let path, let reason): return "the new file \(path) did not verify: \(reason)"
    case .injectedFailure(let stage): return "injected failure at stage \(stage)"
    }
  }
}
