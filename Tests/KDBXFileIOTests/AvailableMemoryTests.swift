import KDBXFileIO
import Testing

@testable import KDBXFileIO

/// Issue #19 item 6: what the machine can supply is read from /proc/meminfo, the cgroup limit and the resource
/// limits, so that a key derivation it cannot supply is refused before anything is mapped.
@Suite struct AvailableMemoryTests {
  // The optional figures are unwrapped before `#expect` compares them: comparing a `UInt64?` tuple element with a
  // `UInt64` expression inside `#expect` made Swift 6.2's debug build read 9 bytes from an 8-byte stack slot
  // (AddressSanitizer: stack-buffer-overflow in `_convertToAnyHashable`).
  @Test func memAvailableIsReadInKibibytes() throws {
    let text = "MemTotal:       24684084 kB\nMemFree:        24335876 kB\nMemAvailable:    2097152 kB\nBuffers: 8 kB\n"
    let available = try #require(AvailableMemory.memAvailable(meminfo: text))
    #expect(available == 2 << 30)
    #expect(AvailableMemory.memAvailable(meminfo: "MemTotal: 1 kB\n") == nil)
    let status = AvailableMemory.statusFields("Name:\tkdbx\nVmSize:\t  3896 kB\nVmData:\t   428 kB\n")
    let virtualBytes = try #require(status.virtualBytes)
    let dataBytes = try #require(status.dataBytes)
    #expect(virtualBytes == 3_896 * 1_024)
    #expect(dataBytes == 428 * 1_024)
  }

  @Test func cgroupDirectoriesCoverTheGroupAndItsAncestors() {
    #expect(
      AvailableMemory.cgroupDirectories(membership: "0::/user.slice/app.scope\n")
        == ["/sys/fs/cgroup/user.slice/app.scope", "/sys/fs/cgroup/user.slice", "/sys/fs/cgroup"])
    #expect(
      AvailableMemory.cgroupDirectories(membership: "5:cpu,cpuacct:/x\n4:memory:/process_api/abc\n1:name=systemd:/\n")
        == ["/sys/fs/cgroup/memory/process_api/abc", "/sys/fs/cgroup/memory/process_api", "/sys/fs/cgroup/memory"])
  }

  @Test func cgroupHeadroomCountsAnonymousMemoryOnly() throws {
    let unified = try #require(AvailableMemory.anonymousBytes(stat: "anon 1048576\nfile 999999999\n"))
    #expect(unified == 1 << 20)
    let version1 = try #require(AvailableMemory.anonymousBytes(stat: "cache 5\nrss 7\ntotal_rss 9\n"))
    #expect(version1 == 9)
    #expect(AvailableMemory.anonymousBytes(stat: "nothing here\n") == nil)
  }

  @Test func theCurrentFigureIsKnownOnLinux() {
    let current = AvailableMemory.current()
    #if os(Linux)
      #expect((current.bytes ?? 0) > 0)
      #expect(current.limitedBy != nil)
      #expect(current.description.contains("available"))
    #endif
  }

  @Test func aRefusedPopulateIsRecognised() {
    #expect(MappedMemory.refusesMemory(ENOMEM_VALUE))
    #expect(!MappedMemory.refusesMemory(EINVAL_VALUE))
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif
private let ENOMEM_VALUE: Int32 = ENOMEM
private let EINVAL_VALUE: Int32 = EINVAL

/// `madvise(MADV_POPULATE_WRITE)` refusing a range is reported, so that Argon2 never writes pages it could not get.
/// Linux only: elsewhere there is no such advice and pages are mapped on first write.
#if os(Linux)
  @Suite struct PopulateRefusalTests {
    @Test func populatingARangeWithAHoleReportsARefusal() throws {
      let page = 4_096
      let memory = try #require(MappedMemory.map(byteCount: 3 * page, hugePages: false))
      defer { MappedMemory.unmap(memory) }
      #expect(MappedMemory.populate(memory), "an intact mapping populates (or the kernel is older than 5.14)")
      // Unmapping the middle page makes the kernel refuse the range with ENOMEM, as it does when memory runs out.
      let hole = try #require(memory.baseAddress).advanced(by: page)
      #expect(munmap(hole, page) == 0)
      defer { _ = mmap(hole, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) }
      let probe = madvise(try #require(memory.baseAddress), page, 23)  // MADV_POPULATE_WRITE
      guard probe == 0 else {
        print("PopulateRefusalTests SKIPPED: MADV_POPULATE_WRITE is not supported (Linux before 5.14)")
        return
      }
      #expect(!MappedMemory.populate(memory))
    }
  }
#endif
