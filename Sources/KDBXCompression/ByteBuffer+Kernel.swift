// Output buffers that grow ahead of the kernels that write them (unsafe: uninitialized growth).

extension Array where Element == UInt8 {
  /// Grows the array to `count` bytes (never shrinks it), keeping its contents. The new tail is
  /// not zeroed: the inflate and deflate kernels write every byte before it is read, and the
  /// callers trim the array to the bytes written. Peak memory while growing is the old plus the
  /// new buffer, as with any array growth.
  mutating func grow(toCount count: Int) {
    if count <= self.count { return }
    let old = self
    // SAFETY: the old bytes are copied to the front (old.count < count); the tail is counted as initialised
    // without being written, which for UInt8 (trivial) only leaves its values unspecified: the kernels write each
    // byte before reading it, and the callers trim to what was written.
    self = [UInt8](unsafeUninitializedCapacity: count) { buffer, initializedCount in
      // SAFETY: old.count < count == buffer.count.
      old.withUnsafeBytes { source in
        UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
      }
      initializedCount = count
    }
  }
}
