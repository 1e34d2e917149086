#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// File access for apps and tools built on swift-kdbx. The codec itself takes and returns bytes and never
/// touches the file system; this small target is the one place that does, using the C library (Glibc, Musl,
/// Bionic or Darwin; the calls that differ between them live in `Platform/`, one file per concern).
public enum FileIO {
  /// The default limit for ``readFile(atPath:maxByteCount:)``: 1 GiB, far above any real vault.
  public static let defaultMaxByteCount = 1 << 30

  /// Reads a whole regular file, refusing one larger than `maxByteCount` before allocating for it.
  ///
  /// Anything that is not a regular file is refused with ``FileIOError/notRegularFile(path:kind:)`` before a byte
  /// is read: a directory, a device, a socket, or a FIFO (opened without blocking, so that a FIFO with no writer
  /// cannot hang the caller). A symbolic link to nothing is ``FileIOError/danglingSymbolicLink(path:target:)``.
  public static func readFile(atPath path: String, maxByteCount: Int = defaultMaxByteCount) throws(FileIOError)
    -> [UInt8]
  {
    let (descriptor, status) = try openRegularFile(atPath: path)
    defer { close(descriptor) }
    return try readAll(descriptor, path: path, size: status.byteCount, maxByteCount: maxByteCount)
  }

  /// Whether a file exists at `path`.
  public static func fileExists(atPath path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }

  /// Opens `path` for reading and checks with `fstat` that it is a regular file. The open does not block (a FIFO
  /// opens at once and is then refused); the descriptor is switched back to blocking reads before it is returned.
  static func openRegularFile(atPath path: String, flags: Int32 = O_RDONLY) throws(FileIOError)
    -> (descriptor: Int32, status: FileStatus)
  {
    let descriptor = open(path, flags | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT, FileStatus.ofLink(path: path)?.kind == .symbolicLink {
        throw .danglingSymbolicLink(path: path, target: linkTarget(path) ?? "a missing file")
      }
      throw .openFailed(path: path, errno: code)
    }
    do throws(FileIOError) {
      let status = try FileStatus.of(descriptor: descriptor, path: path)
      guard status.kind == .regularFile else { throw .notRegularFile(path: path, kind: status.kind) }
      let statusFlags = fcntl(descriptor, F_GETFL)
      if statusFlags >= 0 { _ = fcntl(descriptor, F_SETFL, statusFlags & ~O_NONBLOCK) }
      return (descriptor, status)
    } catch {
      close(descriptor)
      throw error
    }
  }

  /// Reads `descriptor` from offset 0 to its end (`size` bytes as `fstat` saw them; a file that shrank meanwhile
  /// is returned shorter). Refuses a size over `maxByteCount` before allocating.
  static func readAll(_ descriptor: Int32, path: String, size: Int, maxByteCount: Int) throws(FileIOError)
    -> [UInt8]
  {
    guard size <= maxByteCount else { throw .tooLarge(path: path, byteCount: size, limit: maxByteCount) }
    var bytes = [UInt8](repeating: 0, count: size)
    var offset = 0
    while offset < size {
      // SAFETY: offset < size == bytes.count, so the slice is valid; `pread` writes at most `$0.count` (size -
      // offset) bytes into it, inside the closure.
      let count = bytes[offset...].withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .readFailed(path: path, errno: errno)
      }
      if count == 0 { break }  // the file shrank while we read it
      offset += count
    }
    if offset < size { bytes.removeLast(size - offset) }
    return bytes
  }
}
