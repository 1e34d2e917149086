/// Errors from reading and saving files. Each names the path and says what went wrong in words
/// (``FileIO/describe(errno:)``); the system's `errno` is kept for callers that branch on it.
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
  /// The path names something other than a regular file (a directory, a FIFO, a device, a socket).
  case notRegularFile(path: String, kind: FileKind)
  /// The path is a symbolic link whose target does not exist.
  case danglingSymbolicLink(path: String, target: String)
  /// The file on disk is no longer the version that was read (another program replaced, changed or removed it);
  /// nothing was written. See ``FileExpectation``.
  case changedSinceRead(path: String)
  /// A new file was to be created, but a file of that name appeared meanwhile; nothing was written.
  case alreadyExists(path: String)
  /// Another process held the file's lock for longer than the caller was willing to wait.
  case lockTimeout(path: String, seconds: Double, holder: FileLockHolder?)
  /// The lock could not be taken for another reason than another holder (for example a file system without
  /// locks: `ENOLCK`).
  case lockFailed(path: String, errno: Int32)
  /// A key file that is not in any key file form (a damaged XML key file).
  case invalidKeyFile(path: String, reason: String)

  public var description: String {
    switch self {
    case .openFailed(let path, let code): return "cannot open \(path): \(FileIO.describe(errno: code))"
    case .readFailed(let path, let code): return "cannot read \(path): \(FileIO.describe(errno: code))"
    case .writeFailed(let path, let code): return "cannot write \(path): \(FileIO.describe(errno: code))"
    case .syncFailed(let path, let code): return "cannot flush \(path) to disk: \(FileIO.describe(errno: code))"
    case .renameFailed(let from, let to, let code):
      return "cannot rename \(from) to \(to): \(FileIO.describe(errno: code))"
    case .backupFailed(let path, let code):
      return "cannot write the backup \(path): \(FileIO.describe(errno: code))"
    case .tooLarge(let path, let count, let limit): return "\(path) is \(count) bytes, over the limit of \(limit)"
    case .readOnly(let path): return "\(path) is read-only"
    case .verificationFailed(let path, let reason): return "the new file \(path) did not verify: \(reason)"
    case .injectedFailure(let stage): return "injected failure at stage \(stage)"
    case .notRegularFile(let path, let kind): return "\(path) is \(kind.description), not a regular file"
    case .danglingSymbolicLink(let path, let target):
      return "\(path) is a symbolic link to \(target), which does not exist"
    case .changedSinceRead(let path):
      return "\(path) changed since it was read (another program saved it); nothing was saved"
    case .alreadyExists(let path): return "\(path) already exists; nothing was saved"
    case .lockTimeout(let path, let seconds, let holder):
      let who = holder.map { " (\($0.description))" } ?? ""
      let wait = seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
      return "\(path) is locked by another program\(who) that is changing it; gave up after \(wait) s"
    case .lockFailed(let path, let code): return "cannot lock \(path): \(FileIO.describe(errno: code))"
    case .invalidKeyFile(let path, let reason): return "key file \(path): \(reason)"
    }
  }
}

/// What kind of file system object a path names, for messages.
public enum FileKind: Equatable, Sendable, CustomStringConvertible {
  case regularFile
  case directory
  case fifo
  case characterDevice
  case blockDevice
  case socket
  case symbolicLink
  case unknown

  /// "a directory", "a FIFO (named pipe)", ...
  public var description: String {
    switch self {
    case .regularFile: return "a regular file"
    case .directory: return "a directory"
    case .fifo: return "a FIFO (named pipe)"
    case .characterDevice: return "a character device"
    case .blockDevice: return "a block device"
    case .socket: return "a socket"
    case .symbolicLink: return "a symbolic link"
    case .unknown: return "an unknown kind of file"
    }
  }
}
