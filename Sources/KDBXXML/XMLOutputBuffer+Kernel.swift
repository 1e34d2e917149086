// The XMLWriter's output: bytes appended into a 1 MiB working chunk through a raw pointer; each full chunk is
// appended to one array, and the chunk is reused. Appending a byte costs a bounds test and a store (no uniqueness or
// capacity checks of an Array). The output is one array from the start, so taking it copies nothing; with a
// capacity reserved for the whole output (`reserveCapacity`), it never grows by copying either, and the output is
// in memory once, plus the chunk (the save's peak, issue #35: the AutoFill extension).

/// A growable byte sink, owned by one ``XMLWriter`` (the writer copies it before writing when it is shared).
final class XMLOutputBuffer {
  private static let chunkSize = 1 << 20

  /// The bytes of every chunk filled so far, in order.
  private var flushed: [UInt8] = []
  // SAFETY: `base` is this object's own allocation of chunkSize UInt8s (a trivial type, so writing it
  // uninitialised is fine), freed once in deinit; its first `used` bytes are written and not yet in `flushed`. The
  // class is not Sendable: one writer uses it on one thread.
  private var base: UnsafeMutablePointer<UInt8>
  private var used = 0

  init() {
    // SAFETY: the working chunk; see the note on `base`.
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLOutputBuffer.chunkSize)
  }

  deinit {
    base.deallocate()
  }

  /// Makes room for `byteCount` bytes of output in all, so that the output array does not grow by copying while
  /// they are written (a hint: more bytes are still taken, by growing).
  func reserveCapacity(_ byteCount: Int) {
    flushed.reserveCapacity(max(byteCount, 0))
  }

  /// The number of bytes appended.
  var count: Int { flushed.count + used }

  /// A copy holding the same bytes.
  func copy() -> XMLOutputBuffer {
    let other = XMLOutputBuffer()
    other.flushed = flushed
    // SAFETY: the written part of this buffer's chunk (`used` bytes of `base`), copied into `other`'s chunk.
    other.append(UnsafeBufferPointer(start: base, count: used))
    return other
  }

  @inline(__always)
  func append(_ byte: UInt8) {
    if used == XMLOutputBuffer.chunkSize { spill() }
    // SAFETY: used < chunkSize, the capacity of base.
    base[used] = byte
    used += 1
  }

  /// Appends a line feed followed by `count` tabs.
  @inline(__always)
  func appendNewline(tabs count: Int) {
    if count + 1 > XMLOutputBuffer.chunkSize - used {
      append(0x0A)
      for _ in 0..<count { append(0x09) }
      return
    }
    // SAFETY: used + count + 1 <= chunkSize, the capacity of base.
    base[used] = 0x0A
    (base + used + 1).update(repeating: 0x09, count: count)
    used += count + 1
  }

  @inline(__always)
  func append(_ byte0: UInt8, _ byte1: UInt8) {
    append(byte0)
    append(byte1)
  }

  @inline(__always)
  // SAFETY: `bytes` is lent for the call (never a range of this buffer's own chunks) and copied at once; the
  // capacity checks are noted below.
  func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    let length = bytes.count
    if length <= XMLOutputBuffer.chunkSize - used {
      // SAFETY: used + length <= chunkSize, the capacity of base.
      (base + used).update(from: source, count: length)
      used += length
      return
    }
    appendSpanningChunks(bytes)
  }

  private func appendSpanningChunks(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
      if used == XMLOutputBuffer.chunkSize { spill() }
      let length = min(XMLOutputBuffer.chunkSize - used, bytes.count - offset)
      // SAFETY: used + length <= chunkSize (the capacity of base) and offset + length <= bytes.count.
      (base + used).update(from: source + offset, count: length)
      used += length
      offset += length
    }
  }

  func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  func append(_ bytes: ArraySlice<UInt8>) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  func append(_ string: String) {
    // SAFETY: the string's own UTF-8, copied inside the closure.
    if let done: Void = string.utf8.withContiguousStorageIfAvailable({ append($0) }) { return done }
    append(Array(string.utf8))
  }

  private func spill() {
    if flushed.capacity - flushed.count < used {
      // Past the room reserved: grow by half (an array doubles), so the moment the output is in memory twice, old
      // and new, holds 2.5 times it rather than 3, and less room is left unused at the end.
      flushed.reserveCapacity(flushed.count + max(used, flushed.count / 2))
    }
    // SAFETY: the chunk's written `used` bytes are copied to the end of `flushed`; the chunk is then reused.
    flushed.append(contentsOf: UnsafeBufferPointer(start: base, count: used))
    used = 0
  }

  /// All bytes appended, as one array.
  func bytes() -> [UInt8] {
    var all = flushed
    // SAFETY: the written part of the chunk, copied during the call.
    all.append(contentsOf: UnsafeBufferPointer(start: base, count: used))
    return all
  }

  /// All bytes appended, as one array, leaving this buffer empty: the output array itself is returned, with the
  /// last chunk's bytes appended, so the output is not in memory twice.
  func takeBytes() -> [UInt8] {
    spill()
    var taken: [UInt8] = []
    swap(&taken, &flushed)
    return taken
  }

  /// The bytes appended at offsets `range` (within `0..<count`), as one array.
  func bytes(in range: Range<Int>) -> [UInt8] {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the output")
    var out: [UInt8] = []
    out.reserveCapacity(range.count)
    let split = flushed.count
    if range.lowerBound < split { out.append(contentsOf: flushed[range.lowerBound..<min(range.upperBound, split)]) }
    if range.upperBound > split {
      let from = max(range.lowerBound, split) - split
      // SAFETY: from..<(range.upperBound - split) lies within the chunk's written bytes (0..<used), since
      // range.upperBound <= count = split + used.
      out.append(contentsOf: UnsafeBufferPointer(start: base + from, count: range.upperBound - split - from))
    }
    return out
  }
}
