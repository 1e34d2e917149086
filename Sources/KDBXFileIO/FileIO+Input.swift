#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

extension FileIO {
  /// Reads content that a user hands over by path, such as a file to attach: a regular file, or a stream (a pipe
  /// or FIFO such as the shell's `<(command)`, or a character device such as `/dev/stdin`) read to its end.
  ///
  /// Unlike ``readFile(atPath:maxByteCount:)``, which serves vaults and refuses anything but a regular file, a
  /// stream is accepted here because the user named it on purpose (as `cat` would read it); opening a FIFO waits
  /// for its writer, as any reader of a FIFO does. Directories, block devices and sockets are refused with
  /// ``FileIOError/notRegularFile(path:kind:)``. Content over `maxByteCount` is refused with
  /// ``FileIOError/tooLarge(path:byteCount:limit:)`` once that many bytes have arrived, before more are held.
  public static func readInput(atPath path: String, maxByteCount: Int = defaultMaxByteCount) throws(FileIOError)
    -> [UInt8]
  {
    var status = stat()
    if stat(path, &status) == 0 {
      let kind = FileKind(mode: UInt32(status.st_mode))
      if kind == .regularFile { return try readFile(atPath: path, maxByteCount: maxByteCount) }
      guard kind == .fifo || kind == .characterDevice else { throw .notRegularFile(path: path, kind: kind) }
    }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT, FileStatus.ofLink(path: path)?.kind == .symbolicLink {
        throw .danglingSymbolicLink(path: path, target: linkTarget(path) ?? "a missing file")
      }
      throw .openFailed(path: path, errno: code)
    }
    defer { close(descriptor) }
    let kind = try FileStatus.of(descriptor: descriptor, path: path).kind
    guard kind == .fifo || kind == .characterDevice || kind == .regularFile else {
      throw .notRegularFile(path: path, kind: kind)
    }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
      // SAFETY: `read` writes at most `$0.count` bytes into the chunk's own storage, inside the closure; only the
      // first `count` it reports are appended.
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 {
        if errno == EINTR { continue }
        throw .readFailed(path: path, errno: errno)
      }
      if count == 0 { return bytes }
      guard count <= maxByteCount - bytes.count else {
        throw .tooLarge(path: path, byteCount: bytes.count + count, limit: maxByteCount)
      }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }
}
