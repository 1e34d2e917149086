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
  /// How old a temporary file of ours must be before a save removes it even though its process id is in use
  /// (process ids are reused): one hour, far longer than any save.
  public static let staleTemporaryFileAge: Int64 = 3600

  /// Removes temporary files that an interrupted save of `path` left beside it (a crash, `kill -9`, a power cut
  /// between creating the temporary file and renaming it), and returns their names.
  ///
  /// Only files of exactly our name pattern are candidates, `.NAME.tmp-PID-RANDOM` with decimal `PID` and `RANDOM`
  /// (see `temporaryPath(for:)`): regular files owned by this user. Of those, a file is removed only when its
  /// process is gone (`kill(PID, 0)` fails with `ESRCH`) or it is older than ``staleTemporaryFileAge``, so that a
  /// save in progress in another process is left alone (callers that hold ``VaultFileLock`` also keep other
  /// cooperating savers out meanwhile). Other programs' files never match the pattern. Best effort: failures are
  /// ignored.
  @discardableResult
  public static func removeStaleTemporaryFiles(for path: String, now: Int64 = Int64(time(nil))) -> [String] {
    let (directory, name) = split(path)
    let prefix = "." + name + ".tmp-"
    var removed: [String] = []
    for candidate in directoryEntries(directory.isEmpty ? "." : directory) where candidate.hasPrefix(prefix) {
      guard let pid = temporaryFileProcessID(candidate.dropFirst(prefix.count)) else { continue }
      let file = directory + candidate
      guard let status = FileStatus.ofLink(path: file), status.kind == .regularFile,
        status.owner == UInt32(geteuid())
      else { continue }
      let processGone = kill(pid, 0) != 0 && errno == ESRCH
      let old = now - status.modificationSeconds > staleTemporaryFileAge
      guard processGone || old else { continue }
      if unlink(file) == 0 { removed.append(candidate) }
    }
    return removed
  }

  /// The process id of a temporary file name's `PID-RANDOM` tail, or `nil` when the tail is not exactly two runs
  /// of decimal digits joined by one `-`.
  static func temporaryFileProcessID(_ tail: Substring) -> pid_t? {
    let parts = tail.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 10 && $0.allSatisfy(\.isASCIIDigit) })
    else { return nil }
    guard let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil else { return nil }
    return pid
  }

  /// The names in `directory` (without `.` and `..`); empty when it cannot be read.
  static func directoryEntries(_ directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      // SAFETY: `d_name` is a fixed-size array inside the entry readdir returned, valid until the next readdir;
      // it is copied out here, up to its NUL terminator, without reading past the array.
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names
  }
}

extension Character {
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
