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
  /// The words for a system error number (`errno`), for messages people read: "permission denied", "is a
  /// directory", "no space left on device (disk full)". Never the bare number.
  ///
  /// The common file errors have fixed wording here, so that messages read the same on every system; any other
  /// number gets the C library's `strerror` text (lowercased first letter), and the number only when the C
  /// library has no text for it either.
  public static func describe(errno code: Int32) -> String {
    switch code {
    case EACCES: return "permission denied"
    case EPERM: return "operation not permitted"
    case ENOENT: return "no such file or directory"
    case EISDIR: return "is a directory"
    case ENOTDIR: return "a component of the path is not a directory"
    case ENOSPC: return "no space left on device (disk full)"
    case EDQUOT: return "disk quota exceeded"
    case EROFS: return "read-only file system"
    case EEXIST: return "it already exists"
    case ELOOP: return "too many levels of symbolic links"
    case ENAMETOOLONG: return "file name too long"
    case EMFILE, ENFILE: return "too many open files"
    case EIO: return "input/output error (the disk or network file system failed)"
    case EBUSY: return "device or resource busy"
    case ETXTBSY: return "text file busy"
    case EXDEV: return "the paths are on different file systems"
    case EFBIG: return "file too large for the file system"
    case ENOMEM: return "out of memory"
    case ESTALE: return "stale file handle (the network file system lost the file)"
    case ENXIO: return "no such device or address"
    case ENODEV: return "no such device"
    case ENOLCK: return "no locks available (the file system does not support locking)"
    case EWOULDBLOCK: return "the resource is temporarily unavailable"
    case EINVAL: return "invalid argument"
    case EBADF: return "bad file descriptor"
    default:
      guard let text = strerror(code) else { return "system error \(code)" }
      var words = String(cString: text)
      if words.isEmpty { return "system error \(code)" }
      if let first = words.first, first.isUppercase, words.dropFirst().first?.isLowercase ?? true {
        words = first.lowercased() + words.dropFirst()
      }
      return words
    }
  }
}
