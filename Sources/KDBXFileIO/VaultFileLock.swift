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

/// An exclusive advisory lock on a vault file, held for a whole read-change-write so that two cooperating writers
/// (two `kdbx` commands, or apps using ``FileVaultStorage``) take turns instead of overwriting each other's saves.
///
/// The lock is `flock(2)` on the vault file itself, not a lock file beside it:
/// - nothing is left behind: the kernel drops the lock when the process ends, even by `kill -9` or a crash, so
///   there is no stale lock file to clean up, and no lock file for a sync client (Dropbox, Syncthing, iCloud
///   Drive) to copy between devices;
/// - on NFS, Linux maps `flock` onto `fcntl` byte-range locks, which the server enforces between clients (an
///   exclusive lock there needs the file open for writing, which ``acquire(_:timeoutSeconds:onWait:)`` retries
///   with when a read-only open is refused with `EBADF`);
/// - a save renames a new file over the vault, so the lock's inode is replaced: after waiting, the lock checks
///   that the path still names the inode it locked, and locks the new file otherwise.
///
/// It is advisory: programs that do not take it (KeePassXC, a sync client) are not stopped, which is why saves also
/// pass the version read to ``FileIO/atomicWrite(_:toPath:options:expecting:verify:)`` (a compare-and-replace).
///
/// ```swift
/// let lock = try VaultFileLock.acquire("vault.kdbx", timeoutSeconds: 10)
/// let (bytes, version) = try lock.read()
/// // ... open, change, save to `newBytes` ...
/// try FileIO.atomicWrite(newBytes, toPath: lock.path, expecting: .unchanged(version))
/// lock.release()                                     // or let it go out of scope
/// ```
public final class VaultFileLock {
  /// The locked file: the path given, with symbolic links resolved (``FileIO/resolveDestination(_:)``).
  public let path: String
  private var descriptor: Int32

  private init(path: String, descriptor: Int32) {
    self.path = path
    self.descriptor = descriptor
  }

  deinit { release() }

  /// Waits up to `timeoutSeconds` for the exclusive lock on the file at `path` (which must exist) and takes it.
  ///
  /// - Parameters:
  ///   - timeoutSeconds: how long to wait for another holder; 0 tries once.
  ///   - onWait: called once, when the lock is found held, with the holder when it can be named (Linux:
  ///     `/proc/locks`), so that a tool can say what it is waiting for.
  /// - Throws: ``FileIOError/lockTimeout(path:seconds:holder:)`` when the lock stays held;
  ///   ``FileIOError/lockFailed(path:errno:)`` when the file system cannot lock (`ENOLCK`, `EOPNOTSUPP`): callers
  ///   may then go on without the lock and rely on the version check alone; ``FileIOError/openFailed(path:errno:)``,
  ///   ``FileIOError/notRegularFile(path:kind:)``, ``FileIOError/danglingSymbolicLink(path:target:)``.
  public static func acquire(
    _ path: String, timeoutSeconds: Double = 10, onWait: ((FileLockHolder?) -> Void)? = nil
  ) throws(FileIOError) -> VaultFileLock {
    let real = try FileIO.resolveDestination(path)
    let clock = ContinuousClock()
    let start = clock.now
    let timeout = Duration.milliseconds(Int64(max(0, min(timeoutSeconds, 86_400)) * 1000))
    var notified = false
    var delayMilliseconds: Int64 = 2
    while true {
      var (descriptor, status) = try FileIO.openRegularFile(atPath: real)
      var result = flock(descriptor, LOCK_EX | LOCK_NB)
      if result != 0 && errno == EBADF {
        // NFS: flock is emulated with an fcntl write lock, which needs a descriptor open for writing.
        close(descriptor)
        (descriptor, status) = try FileIO.openRegularFile(atPath: real, flags: O_RDWR)
        result = flock(descriptor, LOCK_EX | LOCK_NB)
      }
      if result == 0 {
        // A save renames a new file over the path: lock the file the path names now, not one replaced meanwhile.
        if case .success(let current) = FileStatus.of(path: real), current.isSameFile(as: status) {
          return VaultFileLock(path: real, descriptor: descriptor)
        }
        close(descriptor)
        continue
      }
      let code = errno
      close(descriptor)
      guard code == EWOULDBLOCK || code == EAGAIN || code == EINTR else { throw .lockFailed(path: real, errno: code) }
      let elapsed = start.duration(to: clock.now)
      if elapsed >= timeout {
        throw .lockTimeout(path: real, seconds: timeoutSeconds, holder: FileLockHolder.find(locking: status))
      }
      if !notified {
        notified = true
        onWait?(FileLockHolder.find(locking: status))
      }
      let remaining = timeout - elapsed
      let pause = min(Duration.milliseconds(delayMilliseconds), remaining)
      let (seconds, attoseconds) = pause.components
      var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
      _ = nanosleep(&request, nil)
      delayMilliseconds = min(delayMilliseconds * 2, 50)
    }
  }

  /// Whether the lock is still held (``release()`` not called yet).
  public var isHeld: Bool { descriptor >= 0 }

  /// Reads the whole locked file through the locked descriptor, with its version (see ``FileVersion``).
  public func read(maxByteCount: Int = FileIO.defaultMaxByteCount) throws(FileIOError)
    -> (bytes: [UInt8], version: FileVersion)
  {
    let (bytes, status) = try readBytesAndStatus(maxByteCount: maxByteCount)
    return (bytes, FileVersion(bytes: bytes, status: status))
  }

  /// ``read(maxByteCount:)`` with the version's SHA-256 computed on a helper, so that the caller can decrypt the
  /// bytes meanwhile: ``StartedWork/result()`` gives the version.
  package func readStartingVersion(maxByteCount: Int = FileIO.defaultMaxByteCount) throws(FileIOError)
    -> (bytes: [UInt8], version: StartedWork<FileVersion>)
  {
    let (bytes, status) = try readBytesAndStatus(maxByteCount: maxByteCount)
    return (bytes, ParallelWork.start { FileVersion(bytes: bytes, status: status) })
  }

  /// The whole locked file, read through the locked descriptor, and the `fstat` it was read with.
  private func readBytesAndStatus(maxByteCount: Int) throws(FileIOError) -> (bytes: [UInt8], status: FileStatus) {
    guard descriptor >= 0 else { throw .readFailed(path: path, errno: EBADF) }
    let status = try FileStatus.of(descriptor: descriptor, path: path)
    return (try FileIO.readAll(descriptor, path: path, size: status.byteCount, maxByteCount: maxByteCount), status)
  }

  /// Releases the lock (closing the descriptor). Also done when the object is released or the process ends.
  public func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }
}

/// The process that holds a lock, as far as the system tells.
public struct FileLockHolder: Equatable, Sendable, CustomStringConvertible {
  /// The holder's process id (in the reader's PID namespace; 0 when the lock is held from another namespace).
  public var processID: Int32
  /// The holder's command name (`/proc/PID/comm`), when readable.
  public var command: String?

  /// "pid 1234, kdbx".
  public var description: String {
    command.map { "pid \(processID), \($0)" } ?? "pid \(processID)"
  }

  /// The process holding a `flock` on the file `status` describes, from `/proc/locks` (Linux); `nil` elsewhere,
  /// when no holder is listed, or when the listed process is not visible any more.
  static func find(locking status: FileStatus) -> FileLockHolder? {
    #if os(Linux)
      guard let table = readProcFile("/proc/locks") else { return nil }
      let major = ((status.device >> 8) & 0xfff) | ((status.device >> 32) & ~UInt64(0xfff))
      let minor = (status.device & 0xff) | ((status.device >> 12) & ~UInt64(0xff))
      let wanted =
        Hex.encode(major, minimumDigits: 2) + ":" + Hex.encode(minor, minimumDigits: 2) + ":" + String(status.inode)
      for line in table.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        // "1: FLOCK  ADVISORY  WRITE 1234 fe:00:5342566 0 EOF"; waiters are listed as "1: -> FLOCK ...".
        guard fields.count >= 6, fields[1] == "FLOCK", fields[5] == wanted, let pid = Int32(fields[4]) else { continue }
        // The listed process is the one that took the lock; when it is gone (the lock lives on in a descriptor it
        // passed on) or out of sight (another PID namespace), its number would mislead.
        guard let comm = readProcFile("/proc/\(pid)/comm") else { return nil }
        let command = String(comm.prefix { $0 != "\n" })
        return FileLockHolder(processID: pid, command: command.isEmpty ? nil : command)
      }
      return nil
    #else
      return nil
    #endif
  }

  /// A `/proc` file's text (its size is reported as 0, so it is read to its end), at most 4 MiB.
  private static func readProcFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 14)
    while bytes.count < 1 << 22 {
      // SAFETY: `read` writes at most `$0.count` bytes into the buffer's own storage, inside the closure; only the
      // first `count` it reports are appended.
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
