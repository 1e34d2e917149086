import KDBX
import KDBXBase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// How much memory this process can still get, from every source that can cap it, so that a key derivation the
/// machine cannot supply is refused before anything is mapped.
///
/// Asking `mmap` is not enough: with overcommit (Linux's default) the kernel maps 4 GiB on a 2 GiB machine and
/// refuses only when the pages are written, by killing the process. So the sources are read instead:
/// - `MemAvailable` in `/proc/meminfo` (the kernel's estimate of what can be allocated without swapping), or
///   the free pages (`sysconf(_SC_AVPHYS_PAGES)`) where that file is missing;
/// - the cgroup memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`) of this process's cgroup and its
///   ancestors, minus the anonymous memory the group holds (`anon` or `total_rss` in `memory.stat`: page cache
///   is reclaimable and not counted), since `MemAvailable` shows the host's memory inside a container;
/// - `RLIMIT_AS` minus the address space in use (`VmSize`), and `RLIMIT_DATA` minus `VmData` (Linux 4.7 and
///   later count private anonymous mappings against it).
///
/// Each read is a few small files (about 0.1 ms); nothing is cached, as the figure changes from moment to moment.
public struct AvailableMemory: Sendable, Equatable, CustomStringConvertible {
  /// What limits the figure.
  public enum Source: Sendable, Equatable {
    /// The machine's free and reclaimable memory (`MemAvailable`).
    case system
    /// The memory limit of the process's cgroup (a container's limit).
    case containerLimit
    /// The address-space limit (`RLIMIT_AS`, `ulimit -v`).
    case addressSpaceLimit
    /// The data-segment limit (`RLIMIT_DATA`, `ulimit -d`).
    case dataLimit
  }

  /// The bytes this process can still get, or `nil` when no source is known.
  public var bytes: UInt64?
  /// The source of the smallest figure, or `nil` when no source is known.
  public var limitedBy: Source?

  public init(bytes: UInt64?, limitedBy: Source?) {
    self.bytes = bytes
    self.limitedBy = limitedBy
  }

  /// The memory available now.
  public static func current() -> AvailableMemory {
    var result = AvailableMemory(bytes: nil, limitedBy: nil)
    func consider(_ bytes: UInt64?, _ source: Source) {
      guard let bytes else { return }
      if result.bytes.map({ bytes < $0 }) ?? true { result = AvailableMemory(bytes: bytes, limitedBy: source) }
    }
    consider(systemAvailableBytes(), .system)
    consider(cgroupHeadroom(), .containerLimit)
    let status = readSmallFile("/proc/self/status").map(Self.statusFields)
    consider(limitHeadroom(.addressSpace, inUse: status?.virtualBytes), .addressSpaceLimit)
    consider(limitHeadroom(.data, inUse: status?.dataBytes), .dataLimit)
    return result
  }

  /// For messages: "2 GiB available", and what limits it when that is not the machine's own memory ("2 GiB
  /// available under the address-space limit (ulimit -v)").
  public var description: String {
    guard let bytes else { return "an unknown amount of memory available" }
    let amount = ByteCountText.describe(bytes) + " available"
    switch limitedBy {
    case .containerLimit: return amount + " under the container's memory limit"
    case .addressSpaceLimit: return amount + " under the address-space limit (ulimit -v)"
    case .dataLimit: return amount + " under the data-segment limit (ulimit -d)"
    case .system, nil: return amount
    }
  }

  // MARK: Sources

  static func systemAvailableBytes() -> UInt64? {
    if let text = readSmallFile("/proc/meminfo"), let bytes = memAvailable(meminfo: text) { return bytes }
    #if os(Linux) || os(Android)
      // Free pages only (no reclaimable cache): a cautious figure where /proc is not mounted.
      let pages = sysconf(Int32(_SC_AVPHYS_PAGES))
      let pageSize = sysconf(Int32(_SC_PAGESIZE))
      guard pages > 0, pageSize > 0 else { return nil }
      return UInt64(pages).multipliedReportingOverflow(by: UInt64(pageSize)).partialValue
    #else
      return nil
    #endif
  }

  /// `MemAvailable` from the text of `/proc/meminfo`, in bytes.
  static func memAvailable(meminfo: String) -> UInt64? {
    for line in meminfo.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
      return kibibytes(in: line.dropFirst("MemAvailable:".count))
    }
    return nil
  }

  /// The fields of `/proc/self/status` that limits apply to, in bytes.
  static func statusFields(_ text: String) -> (virtualBytes: UInt64?, dataBytes: UInt64?) {
    var fields: (virtualBytes: UInt64?, dataBytes: UInt64?) = (nil, nil)
    for line in text.split(separator: "\n") {
      if line.hasPrefix("VmSize:") { fields.virtualBytes = kibibytes(in: line.dropFirst("VmSize:".count)) }
      if line.hasPrefix("VmData:") { fields.dataBytes = kibibytes(in: line.dropFirst("VmData:".count)) }
    }
    return fields
  }

  /// "   123456 kB" as bytes.
  static func kibibytes(in text: Substring) -> UInt64? {
    let digits = text.drop { $0 == " " || $0 == "\t" }.prefix { $0.isASCII && $0.isNumber }
    guard let value = UInt64(digits) else { return nil }
    let (bytes, overflow) = value.multipliedReportingOverflow(by: 1_024)
    return overflow ? .max : bytes
  }

  /// The smallest headroom of the process's memory cgroup and its ancestors, or `nil` without a limit.
  static func cgroupHeadroom() -> UInt64? {
    guard let membership = readSmallFile("/proc/self/cgroup") else { return nil }
    var smallest: UInt64?
    for directory in cgroupDirectories(membership: membership) {
      guard let headroom = cgroupHeadroom(in: directory) else { continue }
      smallest = min(smallest ?? .max, headroom)
    }
    return smallest
  }

  /// The cgroup directories whose memory limits apply to this process, from the text of `/proc/self/cgroup`: the
  /// v2 group (line `0::PATH`) or the v1 memory group (`N:...memory...:PATH`) and each of its ancestors up to the
  /// mount point. In a cgroup namespace the path may not exist under the mount; the mount's own root is always
  /// included.
  static func cgroupDirectories(membership: String) -> [String] {
    var directories: [String] = []
    for line in membership.split(separator: "\n") {
      let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
      guard parts.count == 3 else { continue }
      let mount: String
      if parts[0] == "0" && parts[1].isEmpty {
        mount = "/sys/fs/cgroup"
      } else if parts[1].split(separator: ",").contains("memory") {
        mount = "/sys/fs/cgroup/memory"
      } else {
        continue
      }
      var path = parts[2].split(separator: "/").map(String.init)
      while true {
        directories.append(([mount] + path).joined(separator: "/"))
        guard !path.isEmpty else { break }
        path.removeLast()
      }
    }
    return directories
  }

  /// The limit of the cgroup at `directory` minus the anonymous memory its processes hold; `nil` without a limit
  /// (v2 `max`, or v1's "unlimited" of about 2^63).
  static func cgroupHeadroom(in directory: String) -> UInt64? {
    let limitText = readSmallFile(directory + "/memory.max") ?? readSmallFile(directory + "/memory.limit_in_bytes")
    guard let limitText, let limit = UInt64(limitText.prefix { $0.isASCII && $0.isNumber }), limit < 1 << 62 else {
      return nil
    }
    let held = readSmallFile(directory + "/memory.stat").flatMap(anonymousBytes) ?? 0
    return limit > held ? limit - held : 0
  }

  /// The anonymous memory in a cgroup's `memory.stat`: v2 `anon`, v1 `total_rss` (or `rss`).
  static func anonymousBytes(stat: String) -> UInt64? {
    var values: [Substring: UInt64] = [:]
    for line in stat.split(separator: "\n") {
      let parts = line.split(separator: " ")
      guard parts.count == 2, let value = UInt64(parts[1]) else { continue }
      values[parts[0]] = value
    }
    return values["anon"] ?? values["total_rss"] ?? values["rss"]
  }

  /// A resource limit's soft value minus what is in use, or `nil` when unlimited or unknown.
  static func limitHeadroom(_ resource: ResourceLimit, inUse: UInt64?) -> UInt64? {
    guard let soft = resource.softLimit else { return nil }
    let used = inUse ?? 0
    return soft > used ? soft - used : 0
  }

  /// The text of a small file (at most 64 KiB), read with `read(2)` until its end: `/proc` files report a size of
  /// zero. `nil` when it cannot be opened.
  static func readSmallFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4_096)
    while bytes.count < 64 << 10 {
      // SAFETY: `read` writes at most `$0.count` (4096) bytes into the buffer's own storage, inside the closure;
      // only the first `count` it reports are appended.
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}
