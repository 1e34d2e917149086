// Whole-buffer equality of large byte arrays, eight bytes per load: the save's read-back compares the file and the
// document it wrote (megabytes) with what it reads back, where `Array.==` compares one byte per step.

/// Equality of byte arrays for checks of large buffers (a save's read-back). Not constant-time: it returns at the
/// first 4 KiB stretch that differs, so it is for data whose content is no secret to the caller that holds both
/// copies; compare MACs and digests with ``ConstantTime``.
package enum ByteComparison {
  /// Whether `a` and `b` hold the same bytes (`a == b`, faster on large arrays).
  package static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    guard a.count == b.count else { return false }
    // SAFETY: both arrays' own bytes, read inside the closures only; counts checked equal above.
    return a.withUnsafeBytes { x in b.withUnsafeBytes { y in equal(x, y) } }
  }

  /// Whether the two buffers have the same length and the same bytes.
  // SAFETY: both buffers are lent for the call; counts are compared first, and each load below names its bound.
  package static func equal(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    let count = a.count
    var offset = 0
    var difference: UInt64 = 0
    // Four words per step, OR-ed together; the difference is looked at once per 4 KiB so that the loop has no
    // branch but its own.
    while count - offset >= 32 {
      // SAFETY: offset + 32 <= count, the length of both buffers; loadUnaligned needs no alignment.
      difference |=
        (a.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
          ^ b.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        | (a.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)
          ^ b.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
        | (a.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)
          ^ b.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
        | (a.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
          ^ b.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
      offset += 32
      if offset & 4095 == 0 && difference != 0 { return false }
    }
    while offset < count {
      // SAFETY: offset < count, the length of both buffers.
      difference |= UInt64(a[offset] ^ b[offset])
      offset += 1
    }
    return difference == 0
  }
}
