import KDBXBase
import KDBXCrypto

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// The steps of ``FileIO/atomicWrite(_:toPath:options:expecting:verify:)``, in order.
public enum AtomicWriteStage: String, CaseIterable, Equatable, Sendable {
  /// Creating the temporary file beside the destination.
  case createTemporary
  /// Writing the new bytes into the temporary file.
  case write
  /// `fsync` of the temporary file.
  case sync
  /// Reading the temporary file back and checking it.
  case verify
  /// Keeping the previous version as a backup.
  case backup
  /// Renaming the temporary file over the destination.
  case rename
}

/// How ``FileIO/atomicWrite(_:toPath:options:expecting:verify:)`` saves.
public struct AtomicWriteOptions: Sendable {
  /// Keep the previous version of the file at `path + backupSuffix`.
  public var keepsBackup: Bool = false
  public var backupSuffix: String = ".old"
  /// Refuse to replace a destination that has no write permission bits.
  public var refusesReadOnlyDestination: Bool = true
  /// For fault-injection tests: fail at this stage as if the system call had failed.
  package var injectedFailure: AtomicWriteStage? = nil

  public init() {}
}

extension FileIO {
  /// Replaces the file at `path` with `bytes` so that an interruption at any moment leaves either the old
  /// file or the new one, never a damaged one, and (with `expecting`) never replaces another program's save.
  ///
  /// - A symbolic link is followed (``resolveDestination(_:)``): the real file is replaced and the link stays.
  /// - Temporary files that an earlier, interrupted save of this file left behind are removed first
  ///   (``removeStaleTemporaryFiles(for:now:)``).
  /// - The bytes go to a new temporary file in the real file's directory, which gets the replaced file's
  ///   permissions (exactly, whatever the umask) and, where allowed (as root), its owner and group; it is flushed
  ///   with `fsync` (`fcntl(F_FULLFSYNC)` on Apple systems, which also flushes the drive's cache), read back and given to `verify` (return `nil` when the bytes are good, or a reason).
  /// - Then the file on disk is compared with `expecting` (a compare-and-replace: see ``FileExpectation``); on a
  ///   difference nothing is replaced and ``FileIOError/changedSinceRead(path:)`` or
  ///   ``FileIOError/alreadyExists(path:)`` is thrown. A cooperating writer is kept out of the short window
  ///   between this check and the rename by holding ``VaultFileLock`` around the whole read-change-write.
  /// - Only then is the previous version kept as a backup (when asked) beside the real file, the temporary file
  ///   renamed over it (`rename(2)` is atomic within one file system; a new file expected `.absent` is linked in
  ///   with `link(2)`, which refuses to replace a file that appeared meanwhile), and the directory flushed.
  ///
  /// On any failure the temporary file is removed and `path` is untouched. A new file gets mode 0600.
  ///
  /// - Returns: the version of the file written (for the next save's `expecting`).
  @discardableResult
  public static func atomicWrite(
    _ bytes: [UInt8], toPath path: String, options: AtomicWriteOptions = AtomicWriteOptions(),
    expecting expectation: FileExpectation = .anything, verify: (([UInt8]) -> String?)? = nil
  ) throws(FileIOError) -> FileVersion {
    let target = try resolveDestination(path)
    var mode: mode_t = 0o600
    var existing: FileStatus? = nil
    if case .success(let status) = FileStatus.of(path: target) {
      existing = status
      mode = mode_t(status.permissions)
      if options.refusesReadOnlyDestination && (mode & 0o222) == 0 { throw .readOnly(path: target) }
    }
    if expectation == .absent && existing != nil { throw .alreadyExists(path: target) }
    if case .unchanged = expectation, existing == nil { throw .changedSinceRead(path: target) }
    removeStaleTemporaryFiles(for: target)
    let temporary = temporaryPath(for: target)
    func fail(_ stage: AtomicWriteStage) -> Bool { options.injectedFailure == stage }

    let descriptor = fail(.createTemporary) ? -1 : open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
    guard descriptor >= 0 else {
      throw fail(.createTemporary)
        ? .injectedFailure(stage: .createTemporary) : .openFailed(path: temporary, errno: errno)
    }
    var closed = false
    defer { if !closed { close(descriptor) } }
    let written: FileVersion
    do throws(FileIOError) {
      if let existing {
        // Keep the owner and group (allowed for root; for others only their own groups, else left as is), then
        // the exact permissions, which the umask may have narrowed at open and chown may have cleared.
        if existing.owner != UInt32(geteuid()) || existing.group != UInt32(getegid()) {
          _ = fchown(descriptor, uid_t(existing.owner), gid_t(existing.group))
        }
        _ = fchmod(descriptor, mode)
      }
      if fail(.write) { throw .injectedFailure(stage: .write) }
      // The new version's digest, computed on a helper while the file is written, read back and verified (the
      // bytes read back must equal `bytes`).
      let digest = ParallelWork.start { SHA256.hash(bytes).bytes }
      try writeAll(bytes, to: descriptor, path: temporary)
      if fail(.sync) { throw .injectedFailure(stage: .sync) }
      guard durableSync(descriptor) == 0 else { throw .syncFailed(path: temporary, errno: errno) }
      let status = try FileStatus.of(descriptor: descriptor, path: temporary)
      closed = true
      guard close(descriptor) == 0 else { throw .writeFailed(path: temporary, errno: errno) }
      if fail(.verify) { throw .injectedFailure(stage: .verify) }
      let readBack = try readFile(atPath: temporary, maxByteCount: bytes.count)
      guard ByteComparison.equal(readBack, bytes) else {
        throw .verificationFailed(path: temporary, reason: "read-back differs")
      }
      if let verify, let reason = verify(readBack) { throw .verificationFailed(path: temporary, reason: reason) }
      written = FileVersion(sha256: digest.result(), byteCount: readBack.count, status: status)
      try check(expectation, path: target)
      if options.keepsBackup && existing != nil {
        if fail(.backup) { throw .injectedFailure(stage: .backup) }
        try keepBackup(of: target, at: target + options.backupSuffix)
      }
      if fail(.rename) { throw .injectedFailure(stage: .rename) }
      if expectation == .absent {
        try linkNew(temporary, to: target)
      } else {
        guard rename(temporary, target) == 0 else {
          throw .renameFailed(from: temporary, to: target, errno: errno)
        }
      }
    } catch {
      unlink(temporary)
      throw error
    }
    syncDirectory(containing: target)
    return written
  }

  /// Puts the new file `temporary` at `target`, which must not exist: `link(2)` fails with `EEXIST` instead of
  /// replacing a file that appeared since the check. File systems without hard links fall back to `rename(2)`.
  static func linkNew(_ temporary: String, to target: String) throws(FileIOError) {
    if link(temporary, target) == 0 {
      unlink(temporary)
      return
    }
    let code = errno
    if code == EEXIST { throw .alreadyExists(path: target) }
    guard code == EPERM || code == ENOTSUP || code == EOPNOTSUPP || code == EXDEV || code == EMLINK else {
      throw .renameFailed(from: temporary, to: target, errno: code)
    }
    if FileStatus.ofLink(path: target) != nil { throw .alreadyExists(path: target) }
    guard rename(temporary, target) == 0 else { throw .renameFailed(from: temporary, to: target, errno: errno) }
  }

  static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileIOError) {
    var offset = 0
    while offset < bytes.count {
      // SAFETY: `write` reads at most `$0.count` bytes of the slice's own storage (offset < bytes.count, so the
      // slice is valid), inside the closure; it never writes to them.
      let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if written < 0 {
        if errno == EINTR { continue }
        throw .writeFailed(path: path, errno: errno)
      }
      offset += written
    }
  }

  /// Makes `backup` a copy of `path`: a hard link when the file system allows, else a flushed copy.
  static func keepBackup(of path: String, at backup: String) throws(FileIOError) {
    let staged = backup + ".tmp"
    unlink(staged)
    if link(path, staged) != 0 {
      let bytes = try readFile(atPath: path)
      let descriptor = open(staged, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else { throw .backupFailed(path: staged, errno: errno) }
      defer { close(descriptor) }
      try writeAll(bytes, to: descriptor, path: staged)
      guard durableSync(descriptor) == 0 else { throw .backupFailed(path: staged, errno: errno) }
    }
    guard rename(staged, backup) == 0 else {
      unlink(staged)
      throw .backupFailed(path: backup, errno: errno)
    }
  }

  static func temporaryPath(for path: String) -> String {
    let (directory, name) = split(path)
    return directory + "." + name + ".tmp-" + String(getpid()) + "-" + String(UInt32.random(in: 0...UInt32.max))
  }

  static func split(_ path: String) -> (directory: String, name: String) {
    guard let slash = path.lastIndex(of: "/") else { return ("", path) }
    return (String(path[...slash]), String(path[path.index(after: slash)...]))
  }

  /// Flushes the directory entry after a rename, so the new name survives a power cut. Best effort.
  static func syncDirectory(containing path: String) {
    let directory = split(path).directory
    let descriptor = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    _ = durableSync(descriptor)
    close(descriptor)
  }
}
