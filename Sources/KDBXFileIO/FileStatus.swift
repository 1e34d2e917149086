#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The parts of `stat(2)` that file saves and locks look at, read the same way on Linux (Glibc, Musl) and Darwin.
struct FileStatus: Equatable, Sendable {
  var device: UInt64
  var inode: UInt64
  var byteCount: Int
  var modificationSeconds: Int64
  var modificationNanoseconds: Int64
  /// The permission bits (`st_mode & 0o7777`).
  var permissions: UInt32
  var owner: UInt32
  var group: UInt32
  var kind: FileKind

  init(_ status: stat) {
    device = UInt64(truncatingIfNeeded: status.st_dev)
    inode = UInt64(truncatingIfNeeded: status.st_ino)
    byteCount = Int(truncatingIfNeeded: status.st_size)
    #if canImport(Darwin)
      modificationSeconds = Int64(status.st_mtimespec.tv_sec)
      modificationNanoseconds = Int64(status.st_mtimespec.tv_nsec)
    #else
      modificationSeconds = Int64(status.st_mtim.tv_sec)
      modificationNanoseconds = Int64(status.st_mtim.tv_nsec)
    #endif
    permissions = UInt32(status.st_mode) & 0o7777
    owner = UInt32(status.st_uid)
    group = UInt32(status.st_gid)
    kind = FileKind(mode: UInt32(status.st_mode))
  }

  /// `stat(2)` (follows symbolic links), or the `errno` on failure.
  static func of(path: String) -> Result<FileStatus, FileIOError> {
    var status = stat()
    guard stat(path, &status) == 0 else { return .failure(.openFailed(path: path, errno: errno)) }
    return .success(FileStatus(status))
  }

  /// `lstat(2)` (the link itself), or `nil` with `errno` set.
  static func ofLink(path: String) -> FileStatus? {
    var status = stat()
    guard lstat(path, &status) == 0 else { return nil }
    return FileStatus(status)
  }

  /// `fstat(2)` of an open descriptor.
  static func of(descriptor: Int32, path: String) throws(FileIOError) -> FileStatus {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .readFailed(path: path, errno: errno) }
    return FileStatus(status)
  }

  /// Whether both describe the same file system object (device and inode).
  func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
}

extension FileKind {
  /// The kind named by the `S_IFMT` bits of a `st_mode`.
  init(mode: UInt32) {
    switch mode & UInt32(S_IFMT) {
    case UInt32(S_IFREG): self = .regularFile
    case UInt32(S_IFDIR): self = .directory
    case UInt32(S_IFIFO): self = .fifo
    case UInt32(S_IFCHR): self = .characterDevice
    case UInt32(S_IFBLK): self = .blockDevice
    case UInt32(S_IFSOCK): self = .socket
    case UInt32(S_IFLNK): self = .symbolicLink
    default: self = .unknown
    }
  }
}
