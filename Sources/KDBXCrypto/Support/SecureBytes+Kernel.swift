// The unsafe memory operations of SecureBytes: allocation, copy and the zeroing that the optimizer must keep.

extension SecureBytes {
  /// A fresh allocation of `count` bytes (at least one, so it is never a null pointer), all zero.
  // SAFETY: the caller (SecureBytes.init) owns the result and deallocates it once, in deinit.
  static func allocateZeroed(_ count: Int) -> UnsafeMutableRawBufferPointer {
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 16)
    // SAFETY: `buffer` was just allocated with `buffer.count` bytes; initializing all of them as UInt8 stays in it.
    buffer.initializeMemory(as: UInt8.self, repeating: 0)
    return buffer
  }

  /// Copies `source` to the start of `destination`.
  static func copy(_ source: UnsafeRawBufferPointer, to destination: UnsafeMutableRawBufferPointer) {
    precondition(source.count <= destination.count, "SecureBytes copy larger than its storage")
    // SAFETY: checked above that `source.count` bytes fit in `destination`.
    destination.copyMemory(from: source)
  }

  /// Writes zeros over every byte of `buffer`.
  ///
  /// `@inline(never)` keeps this a real call that the caller cannot see into, and `@_optimize(none)` keeps its own
  /// stores: without both, a store to memory that is freed right afterwards is dead and may be removed.
  @inline(never)
  @_optimize(none)
  static func zero(_ buffer: UnsafeMutableRawBufferPointer) {
    guard let base = buffer.baseAddress else { return }
    // SAFETY: every index written is below `buffer.count`, inside the buffer the caller owns.
    var index = 0
    while index < buffer.count {
      base.storeBytes(of: 0, toByteOffset: index, as: UInt8.self)
      index += 1
    }
  }
}
