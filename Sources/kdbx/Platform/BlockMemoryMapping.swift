// Platform concern: Argon2 block memory mapped as unlocking maps it. `AdaptivePageMapping` needs `Synchronization`
// (macOS 15 / iOS 18 on Apple systems); older systems get plain mapped memory in 4 KiB pages.
import KDBXCrypto
import KDBXFileIO

/// Argon2 block memory mapped from the kernel, with the hook that maps its pages ahead of the first pass.
struct BlockMemoryMapping {
  /// The memory, for `Argon2.deriveKey(password:salt:parameters:memory:...)`.
  // SAFETY: the buffer is the whole mapping KDBXFileIO made (`byteCount` bytes); it stays mapped until `unmap()`,
  // which the owner calls once, after the derivation's last use of it.
  let memory: UnsafeMutableRawBufferPointer
  /// Maps a part's pages ahead of its first write (`Argon2.MemoryPrefault`).
  let prefault: Argon2.MemoryPrefault
  private let release: () -> Void

  init?(byteCount: Int, policy: PageMappingPolicy = .adaptive) {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      guard let mapping = AdaptivePageMapping(byteCount: byteCount, policy: policy) else { return nil }
      memory = mapping.memory
      prefault = { part in mapping.populate(part) }
      release = { mapping.unmap() }
    } else {
      guard let memory = KDBXFileIO.MappedMemory.map(byteCount: byteCount, hugePages: false) else { return nil }
      self.memory = memory
      prefault = { part in KDBXFileIO.MappedMemory.populate(part) }
      release = { KDBXFileIO.MappedMemory.unmap(memory) }
    }
  }

  /// Unmaps the memory. Call it once, after the last use of ``memory``.
  func unmap() { release() }
}
