import KDBXFileIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// A file read a chunk at a time, with bounded memory whatever its size (`analyze --hibp`, whose list is many GB).
enum ChunkedFile {
  /// The size of a chunk.
  static let chunkSize = 1 << 20

  /// Fails, naming the reason, when `path` cannot be opened for reading.
  static func checkReadable(_ path: String) throws(CLIError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .failure("cannot read \(path): \(FileIO.describe(errno: errno))") }
    close(descriptor)
  }

  /// Calls `body` with each chunk of the file at `path` (at most ``chunkSize`` bytes), in order, to its end.
  static func forEachChunk(_ path: String, _ body: (ArraySlice<UInt8>) throws(CLIError) -> Void) throws(CLIError) {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .failure("cannot read \(path): \(FileIO.describe(errno: errno))") }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: chunkSize)
    while true {
      // SAFETY: `read` writes at most `$0.count` bytes into the buffer's own storage, inside the closure.
      let got = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0 && errno == EINTR { continue }
      if got < 0 { throw .failure("cannot read \(path): \(FileIO.describe(errno: errno))") }
      if got == 0 { return }
      try body(buffer[0..<got])
    }
  }
}
