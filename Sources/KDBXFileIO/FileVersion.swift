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

/// One version of a file as it was read: the SHA-256 (FIPS 180-4) of its bytes, and where and when it was
/// (device, inode, size, modification time).
///
/// A save that must not overwrite another program's save passes the version it read as
/// ``FileExpectation/unchanged(_:)`` to ``FileIO/atomicWrite(_:toPath:options:expecting:verify:)``, which
/// compares it with the file on disk just before the rename. The content decides: a file replaced by identical
/// bytes (a sync client re-downloading it, a `touch`) is unchanged, and a file rewritten in place within the
/// file system's timestamp granularity is changed. The size is the cheap first test; the digests are compared
/// in constant time.
public struct FileVersion: Equatable, Sendable {
  /// The SHA-256 of the file's bytes.
  public let sha256: [UInt8]
  /// The file's size in bytes.
  public let byteCount: Int
  /// The device and inode (`st_dev`, `st_ino`): which file system object it was.
  public let device: UInt64
  public let inode: UInt64
  /// The modification time (`st_mtime`), seconds and nanoseconds since 1970.
  public let modificationSeconds: Int64
  public let modificationNanoseconds: Int64

  /// A version from the bytes read and the `fstat` of the descriptor they were read from.
  init(bytes: [UInt8], status: FileStatus) {
    self.init(sha256: SHA256.hash(bytes).bytes, byteCount: bytes.count, status: status)
  }

  init(sha256: [UInt8], byteCount: Int, status: FileStatus) {
    self.sha256 = sha256
    self.byteCount = byteCount
    device = status.device
    inode = status.inode
    modificationSeconds = status.modificationSeconds
    modificationNanoseconds = status.modificationNanoseconds
  }

  /// Whether `other` holds the same bytes (size, then SHA-256 in constant time).
  public func hasSameContent(as other: FileVersion) -> Bool {
    byteCount == other.byteCount && ConstantTime.equals(sha256, other.sha256)
  }
}

/// What a save expects to find at its destination just before it replaces it.
public enum FileExpectation: Equatable, Sendable {
  /// No check: whatever is there is replaced.
  case anything
  /// There must be no file: a new file is created, and one that appeared meanwhile is not replaced.
  case absent
  /// The file must still hold the content of this version (the one the caller read).
  case unchanged(FileVersion)
}

extension FileIO {
  /// Reads a whole regular file (as ``readFile(atPath:maxByteCount:)``) and returns its version with it.
  public static func readFileAndVersion(atPath path: String, maxByteCount: Int = defaultMaxByteCount)
    throws(FileIOError) -> (bytes: [UInt8], version: FileVersion)
  {
    let (bytes, status) = try readFileAndStatus(atPath: path, maxByteCount: maxByteCount)
    return (bytes, FileVersion(bytes: bytes, status: status))
  }

  /// ``readFileAndVersion(atPath:maxByteCount:)`` with the version's SHA-256 computed on a helper, so that the
  /// caller can decrypt the bytes meanwhile: ``StartedWork/result()`` gives the version.
  package static func readFileStartingVersion(atPath path: String, maxByteCount: Int = defaultMaxByteCount)
    throws(FileIOError) -> (bytes: [UInt8], version: StartedWork<FileVersion>)
  {
    let (bytes, status) = try readFileAndStatus(atPath: path, maxByteCount: maxByteCount)
    return (bytes, ParallelWork.start { FileVersion(bytes: bytes, status: status) })
  }

  /// ``readFileAndVersion(atPath:maxByteCount:)`` for a caller that rarely needs the version (a command that only
  /// reads the vault): its SHA-256 is computed only when ``StartedWork/result()`` asks for it.
  package static func readFileDeferringVersion(atPath path: String, maxByteCount: Int = defaultMaxByteCount)
    throws(FileIOError) -> (bytes: [UInt8], version: StartedWork<FileVersion>)
  {
    let (bytes, status) = try readFileAndStatus(atPath: path, maxByteCount: maxByteCount)
    return (bytes, StartedWork(deferred: { FileVersion(bytes: bytes, status: status) }))
  }

  private static func readFileAndStatus(atPath path: String, maxByteCount: Int) throws(FileIOError)
    -> (bytes: [UInt8], status: FileStatus)
  {
    let (descriptor, status) = try openRegularFile(atPath: path)
    defer { close(descriptor) }
    return (try readAll(descriptor, path: path, size: status.byteCount, maxByteCount: maxByteCount), status)
  }

  /// The version of the file at `path` now, hashed in a stream of 64 KiB reads (memory does not grow with the
  /// file), or `nil` when there is no file.
  public static func currentVersion(ofFileAtPath path: String) throws(FileIOError) -> FileVersion? {
    let descriptor: Int32
    let status: FileStatus
    do throws(FileIOError) {
      (descriptor, status) = try openRegularFile(atPath: path)
    } catch {
      if case .openFailed(_, let code) = error, code == ENOENT { return nil }
      throw error
    }
    defer { close(descriptor) }
    let (digest, count) = try streamSHA256(descriptor, path: path, prefix: [], limit: nil)
    return FileVersion(sha256: digest, byteCount: count, status: status)
  }

  /// The SHA-256 of `prefix` followed by the rest of `descriptor` from its current offset, read in 64 KiB pieces,
  /// with the total byte count. With a `limit`, a file that grows past it is refused (``FileIOError/tooLarge``).
  static func streamSHA256(_ descriptor: Int32, path: String, prefix: [UInt8], limit: Int?) throws(FileIOError)
    -> (digest: [UInt8], byteCount: Int)
  {
    var hash = SHA256()
    // SAFETY: the hasher reads the array's own bytes inside the closure only.
    prefix.withUnsafeBytes { hash.update($0) }
    var total = prefix.count
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      // SAFETY: `read` writes at most `$0.count` bytes into the buffer's own storage, inside the closure; the hash
      // below reads only the first `count` (0 < count <= buffer.count: read never reports more than asked).
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .readFailed(path: path, errno: errno)
      }
      if count == 0 { break }
      buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
      total += count
      if let limit, total > limit { throw .tooLarge(path: path, byteCount: total, limit: limit) }
    }
    return (hash.finalize().bytes, total)
  }

  /// Throws unless the file at `path` is what `expectation` says: ``FileIOError/changedSinceRead(path:)`` when an
  /// expected version was replaced, changed or removed, ``FileIOError/alreadyExists(path:)`` when a file appeared
  /// where none was expected.
  static func check(_ expectation: FileExpectation, path: String) throws(FileIOError) {
    switch expectation {
    case .anything:
      return
    case .absent:
      if FileStatus.ofLink(path: path) != nil { throw .alreadyExists(path: path) }
    case .unchanged(let expected):
      guard let current = try currentVersion(ofFileAtPath: path), current.hasSameContent(as: expected) else {
        throw .changedSinceRead(path: path)
      }
    }
  }
}
