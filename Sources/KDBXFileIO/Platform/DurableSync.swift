// Platform concern: flushing a file to stable storage.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Flushes `descriptor`'s data and metadata to stable storage, as far as the system can promise it; returns 0,
/// or -1 with `errno` set.
///
/// - Linux, Android: `fsync(2)`, which waits for the device to acknowledge the write (and its cache flush).
/// - Darwin: `fcntl(F_FULLFSYNC)`. On Apple systems `fsync(2)` only hands the data to the drive, whose cache may
///   still lose it at a power cut; `F_FULLFSYNC` also asks the drive to flush that cache (Apple's `fsync(2)` man
///   page). File systems that do not support it (some network and FAT volumes) refuse it, and `fsync` is used.
func durableSync(_ descriptor: Int32) -> Int32 {
  #if canImport(Darwin)
    if fcntl(descriptor, F_FULLFSYNC) == 0 { return 0 }
    return fsync(descriptor)
  #else
    return fsync(descriptor)
  #endif
}
