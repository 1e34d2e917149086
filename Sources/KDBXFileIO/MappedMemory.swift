#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Anonymous memory mapped straight from the kernel, for large short-lived buffers such as Argon2's block
/// memory, plus the machine facts that go with choosing how to use it.
package enum MappedMemory {
  /// The number of processors online now (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
  package static var onlineProcessorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

  /// Maps `byteCount` bytes of zeroed, page-aligned, private memory, or returns `nil` when the kernel refuses.
  ///
  /// With `hugePages`, the range is advised `MADV_HUGEPAGE`, so that where transparent huge pages are enabled
  /// (`/sys/kernel/mm/transparent_hugepage/enabled` set to `always` or `madvise`) the first touch of each 2 MiB
  /// faults it in at once instead of 512 faults of 4 KiB: a large part of a first Argon2 pass over fresh memory.
  // SAFETY: the buffer is exactly the fresh private mapping (byteCount > 0 bytes, page-aligned, zero-filled by
  // the kernel, MAP_FAILED checked); the caller owns it until it passes the same buffer to unmap once.
  package static func map(byteCount: Int, hugePages: Bool) -> UnsafeMutableRawBufferPointer? {
    guard byteCount > 0 else { return nil }
    guard let address = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
      address != MAP_FAILED
    else { return nil }
    if hugePages { PageAdvice.hugePages(address, byteCount) }
    return UnsafeMutableRawBufferPointer(start: address, count: byteCount)
  }

  /// Whether transparent huge pages are enabled for advised memory
  /// (`/sys/kernel/mm/transparent_hugepage/enabled` is `always` or `madvise`). Whether they are also *faster* at a
  /// given moment is another matter, which ``AdaptivePageMapping`` measures.
  /// Always `false` on systems other than Linux.
  package static let transparentHugePagesEnabled: Bool = PageAdvice.transparentHugePagesEnabled()

  /// Maps every page of `memory` (a part of what ``map(byteCount:hugePages:)`` returned) now, in one system call,
  /// without changing its contents: `madvise(MADV_POPULATE_WRITE)` (Linux 5.14). That costs about a third less
  /// than a page fault on each first write (measured here: 23 ms against 34 ms for 64 MiB of 4 KiB pages). On an
  /// older kernel the call fails with `EINVAL` and the pages are mapped on first write as usual; on systems other
  /// than Linux nothing is done here and the pages are mapped on first write.
  ///
  /// Returns `false` only when the kernel refused the memory (`ENOMEM`, or `EFAULT`/`EHWPOISON` for pages it could
  /// not supply): writing to those pages would then get the process killed, so the caller must not. Any other
  /// failure (an older kernel, an interrupted call) returns `true`.
  @discardableResult
  // SAFETY: `memory` is part of a mapping from map(byteCount:hugePages:), which consists of whole pages, so the
  // range [start, end) (start rounded up inside it, end > start checked) and the page holding `end` are mapped;
  // MADV_POPULATE_WRITE changes no contents and no pointer is kept.
  package static func populate(_ memory: UnsafeMutableRawBufferPointer) -> Bool {
    guard let address = memory.baseAddress, memory.count > 0 else { return true }
    let page = 4096
    // madvise wants a page-aligned start: round it up (the first partial page is mapped on first write).
    let start = (Int(bitPattern: address) + page - 1) / page * page
    let end = Int(bitPattern: address) + memory.count
    guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return true }
    guard let code = PageAdvice.populateWrite(aligned, end - start) else { return true }
    return !refusesMemory(code)
  }

  /// Whether `madvise(MADV_POPULATE_WRITE)` failing with `code` means the memory is not there: `ENOMEM`, or
  /// `EFAULT` and `EHWPOISON` (133 on Linux) for pages that could not be populated.
  static func refusesMemory(_ code: Int32) -> Bool { PageAdvice.refusesMemory(code) }

  /// Unmaps memory returned by ``map(byteCount:hugePages:)``.
  // SAFETY: the caller passes the whole buffer map returned, once, after its last use (munmap of that exact
  // range; nothing else in the process shares an anonymous private mapping).
  package static func unmap(_ memory: UnsafeMutableRawBufferPointer) {
    guard let address = memory.baseAddress else { return }
    munmap(address, memory.count)
  }
}
