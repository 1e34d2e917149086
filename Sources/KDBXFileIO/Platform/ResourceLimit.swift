// Platform concern: the process's resource limits (`getrlimit(2)`), whose resource type differs between C
// libraries (an enum on Glibc, an `Int32` elsewhere).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// A resource limit that bounds how much memory the process can get.
enum ResourceLimit {
  /// `RLIMIT_AS`: the address space (`ulimit -v`).
  case addressSpace
  /// `RLIMIT_DATA`: the data segment (`ulimit -d`; Linux 4.7 and later count private anonymous mappings).
  case data

  /// The soft limit in bytes, or `nil` when unlimited or unknown.
  var softLimit: UInt64? {
    var limit = rlimit()
    #if canImport(Glibc)
      let resource = self == .addressSpace ? RLIMIT_AS : RLIMIT_DATA
      guard getrlimit(__rlimit_resource_t(resource.rawValue), &limit) == 0 else { return nil }
    #else
      let resource = self == .addressSpace ? RLIMIT_AS : RLIMIT_DATA
      guard getrlimit(Int32(resource), &limit) == 0 else { return nil }
    #endif
    let soft = UInt64(limit.rlim_cur)
    return soft < 1 << 62 ? soft : nil  // RLIM_INFINITY is all ones (Linux) or 2^63 - 1 (Darwin)
  }
}
