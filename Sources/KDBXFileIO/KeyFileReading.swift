import KDBX

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
  /// The largest key file ``readKeyFile(atPath:maxByteCount:)`` accepts by default: 64 MiB. Real key files are
  /// 32 bytes to a few kilobytes (KeePass writes 32-byte keys in XML); a larger file is most likely a mistake
  /// (a disk image, a video), so the caller must ask for it.
  public static let defaultMaxKeyFileByteCount = 64 << 20

  /// Key files up to this size are read whole and given to ``KDBX/KeyFile/init(contents:)``.
  static let wholeKeyFileByteCount = 1 << 20

  /// Reads the key file at `path` with bounded memory.
  ///
  /// The file must be a regular file: it is opened without blocking and checked with `fstat` before a byte is
  /// read, so a FIFO, a device or a directory is refused at once (``FileIOError/notRegularFile(path:kind:)``)
  /// instead of blocking or reading forever. Files of up to 1 MiB are read whole and take the library's path
  /// (XML v1/v2, 32 bytes, 64 hex digits, else SHA-256). A larger file whose start rules out an XML key file
  /// (``KDBX/KeyFile/isCertainlyHashedForm(byteCount:prefix:)``) is the SHA-256 of its content, hashed in 64 KiB
  /// pieces; one that might be an XML key file is read whole, up to ``defaultMaxKeyFileByteCount`` whatever the
  /// limit.
  ///
  /// - Parameters:
  ///   - maxByteCount: the largest file accepted (``FileIOError/tooLarge(path:byteCount:limit:)`` above it);
  ///     `nil` for no limit.
  public static func readKeyFile(atPath path: String, maxByteCount: Int? = defaultMaxKeyFileByteCount)
    throws(FileIOError) -> KeyFile
  {
    let (descriptor, status) = try openRegularFile(atPath: path)
    defer { close(descriptor) }
    let size = status.byteCount
    if let maxByteCount, size > maxByteCount { throw .tooLarge(path: path, byteCount: size, limit: maxByteCount) }
    if size <= wholeKeyFileByteCount {
      return try keyFile(try readAll(descriptor, path: path, size: size, maxByteCount: size), path: path)
    }
    let prefix = try readAll(descriptor, path: path, size: 1 << 16, maxByteCount: 1 << 16)
    guard KeyFile.isCertainlyHashedForm(byteCount: size, prefix: prefix) else {
      let limit = min(maxByteCount ?? .max, defaultMaxKeyFileByteCount)
      return try keyFile(try readAll(descriptor, path: path, size: size, maxByteCount: limit), path: path)
    }
    guard lseek(descriptor, off_t(prefix.count), SEEK_SET) >= 0 else { throw .readFailed(path: path, errno: errno) }
    let (digest, _) = try streamSHA256(descriptor, path: path, prefix: prefix, limit: maxByteCount)
    do throws(KDBXError) {
      return try KeyFile(sha256OfContents: digest)
    } catch {
      throw .invalidKeyFile(path: path, reason: error.description)
    }
  }

  private static func keyFile(_ contents: [UInt8], path: String) throws(FileIOError) -> KeyFile {
    do throws(KDBXError) {
      return try KeyFile(contents: contents)
    } catch {
      throw .invalidKeyFile(path: path, reason: error.description)
    }
  }
}
