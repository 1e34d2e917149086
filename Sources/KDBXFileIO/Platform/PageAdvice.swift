// Platform concern: advice to the kernel about how to map anonymous memory. Linux only: elsewhere every advice is
// skipped and pages are mapped on first write, which changes only speed, never contents.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// `madvise(2)` advice that only Linux has, by its uapi value (the C library headers may be older than the
/// kernel: `MADV_POPULATE_WRITE` is Linux 5.14).
enum PageAdvice {
  /// Whether this system takes the advice below at all.
  static var isSupported: Bool {
    #if os(Linux) || os(Android)
      return true
    #else
      return false
    #endif
  }

  /// `MADV_HUGEPAGE` (14): back the range with transparent huge pages where enabled. Returns whether the kernel
  /// took the advice.
  @discardableResult
  // SAFETY: (all four below) the callers pass a page-aligned range inside a mapping from MappedMemory.map;
  // madvise only changes how those pages are backed, never their contents, and a bad range fails with an errno.
  static func hugePages(_ address: UnsafeMutableRawPointer, _ count: Int) -> Bool {
    advise(address, count, 14)
  }

  /// `MADV_NOHUGEPAGE` (15): keep the range in 4 KiB pages.
  @discardableResult
  // SAFETY: as hugePages: advice only, inside the caller's mapping.
  static func noHugePages(_ address: UnsafeMutableRawPointer, _ count: Int) -> Bool {
    advise(address, count, 15)
  }

  /// `MADV_POPULATE_WRITE` (23): map every page of the range now, as a write would, without writing. Returns
  /// `nil` on success or where the advice does not exist, else the `errno` of the failure.
  // SAFETY: as hugePages: populating maps pages without writing them (MappedMemory.populate's range).
  static func populateWrite(_ address: UnsafeMutableRawPointer, _ count: Int) -> Int32? {
    #if os(Linux) || os(Android)
      return madvise(address, count, 23) == 0 ? nil : errno
    #else
      return nil
    #endif
  }

  /// Whether `code`, from a failed ``populateWrite(_:_:)``, means the memory is not there: `ENOMEM`, or `EFAULT`
  /// and `EHWPOISON` (133 on Linux) for pages that could not be populated.
  static func refusesMemory(_ code: Int32) -> Bool {
    #if os(Linux) || os(Android)
      return code == ENOMEM || code == EFAULT || code == 133
    #else
      return code == ENOMEM || code == EFAULT
    #endif
  }

  /// Whether transparent huge pages are enabled for advised memory (`/sys/kernel/mm/transparent_hugepage/enabled`
  /// is `always` or `madvise`); `false` where there are none.
  static func transparentHugePagesEnabled() -> Bool {
    #if os(Linux) || os(Android)
      guard let file = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r") else { return false }
      defer { fclose(file) }
      var buffer = [CChar](repeating: 0, count: 256)
      guard fgets(&buffer, Int32(buffer.count), file) != nil else { return false }
      let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return line.contains("[always]") || line.contains("[madvise]")
    #else
      return false
    #endif
  }

  // SAFETY: as hugePages: advice only, inside the caller's mapping.
  private static func advise(_ address: UnsafeMutableRawPointer, _ count: Int, _ advice: Int32) -> Bool {
    #if os(Linux) || os(Android)
      return madvise(address, count, advice) == 0
    #else
      return false
    #endif
  }
}
