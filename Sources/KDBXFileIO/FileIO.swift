import Glibc

/// File access for apps and tools built on swift-kdbx. The codec itself takes and returns bytes and never
/// touches the file system; this small target is the one place that does, using Glibc.
public enum FileIO {
  /// The default limit for ``readFile(atPath:maxByteCount:)``: 1 GiB, far above any real vault.
  public static let defaultMaxByteCount = 1 << 30

  /// Reads a whole file, refusing one larger than `maxByteCount` before allocating for it.
  public static func readFile(atPath path: String, maxByteCount: Int = defaultMaxByteCount) throws(FileIOError)
    -> [UInt8]
  {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .openFailed(path: path, errno: errno) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { throw .readFailed(path: path, errno: errno) }
    let size = Int(status.st_size)
    guard size <= maxByteCount else { throw .tooLarge(path: path, byteCount: size, limit: maxByteCount) }
    var bytes = [UInt8](repeating: 0, count: size)
    var offset = 0
    while offset < size {
      let count = bytes[offset...].withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
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

  /// Whether a file exists at `path`.
  public static func fileExists(atPath path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
  }
}
