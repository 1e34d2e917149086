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
  /// The file a save of `path` must replace: `path` itself when it is a regular file or does not exist yet, and
  /// the real file when `path` is a symbolic link (resolved with `realpath(3)`, every link of the chain).
  ///
  /// Saving replaces a file by renaming a new one over it; renaming over a link would replace the link with a
  /// regular file and leave its target unchanged. So the temporary file, the backup and the rename go beside the
  /// real file, as KeePassXC's `QSaveFile` does, and the link stays a link.
  ///
  /// - Throws: ``FileIOError/danglingSymbolicLink(path:target:)`` for a link to nothing,
  ///   ``FileIOError/notRegularFile(path:kind:)`` for a directory, a device, a FIFO (or a link to one),
  ///   ``FileIOError/openFailed(path:errno:)`` for a loop of links and other failures.
  public static func resolveDestination(_ path: String) throws(FileIOError) -> String {
    guard let link = FileStatus.ofLink(path: path) else {
      let code = errno
      if code == ENOENT { return path }  // a new file; a missing directory fails when the file is created
      throw .openFailed(path: path, errno: code)
    }
    switch link.kind {
    case .regularFile:
      return path
    case .symbolicLink:
      guard let resolved = realpath(path, nil) else {
        let code = errno
        if code == ENOENT { throw .danglingSymbolicLink(path: path, target: linkTarget(path) ?? "a missing file") }
        throw .openFailed(path: path, errno: code)
      }
      let real = String(cString: resolved)
      free(resolved)
      guard let target = FileStatus.ofLink(path: real) else { throw .openFailed(path: real, errno: errno) }
      guard target.kind == .regularFile else { throw .notRegularFile(path: real, kind: target.kind) }
      return real
    default:
      throw .notRegularFile(path: path, kind: link.kind)
    }
  }

  /// The text of the symbolic link at `path` (`readlink(2)`), or `nil`.
  static func linkTarget(_ path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    // SAFETY: readlink writes at most `count` bytes into the buffer it is given and returns how many.
    let count = buffer.withUnsafeMutableBytes { raw -> Int in
      guard let base = raw.baseAddress else { return -1 }
      return readlink(path, base.assumingMemoryBound(to: CChar.self), raw.count)
    }
    guard count > 0, count <= buffer.count else { return nil }
    return String(decoding: buffer[0..<count], as: UTF8.self)
  }
}
