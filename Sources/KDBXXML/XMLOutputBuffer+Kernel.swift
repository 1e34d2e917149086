// The XMLWriter's output: bytes appended into 1 MiB chunks through a raw pointer, joined into one array at the
// end. Appending a byte costs a bounds test and a store (no uniqueness or capacity checks of an Array), and the
// output never grows by copying; the only copy is the final join.

/// A growable byte sink, owned by one ``XMLWriter`` (the writer copies it before writing when it is shared).
final class XMLOutputBuffer {
  private static let chunkSize = 1 << 20

  // SAFETY: `base` and every chunk in `full` are this object's own allocations of chunkSize UInt8s (a trivial
  // type, so writing them uninitialised is fine), freed once in deinit; `full` chunks are counted by their first
  // `count` (written) bytes and `base` by `used`. The class is not Sendable: one writer uses it on one thread.
  private var full: [UnsafeMutableBufferPointer<UInt8>] = []
  private var fullCount = 0
  private var base: UnsafeMutablePointer<UInt8>
  private var used = 0

  init() {
    // SAFETY: the first chunk; see the note on `full`.
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLOutputBuffer.chunkSize)
  }

  deinit {
    for chunk in full { chunk.deallocate() }
    base.deallocate()
  }

  /// The number of bytes appended.
  var count: Int { fullCount + used }

  /// A copy holding the same bytes.
  func copy() -> XMLOutputBuffer {
    let other = XMLOutputBuffer()
    // SAFETY: the written parts of this buffer's chunks (`chunk.count`, then `used` bytes of `base`), copied
    // into `other`'s own chunks during the call.
    for chunk in full { other.append(UnsafeBufferPointer(chunk)) }
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
    // SAFETY: the full chunk moves to `full` (its written `used` bytes; deinit frees the whole allocation from
    // its start) and a fresh chunk replaces it; nothing else holds the old `base`.
    full.append(UnsafeMutableBufferPointer(start: base, count: used))
    fullCount += used
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLOutputBuffer.chunkSize)
    used = 0
  }

  /// All bytes appended, as one array.
  func bytes() -> [UInt8] {
    let total = count
    // SAFETY: the chunks' written bytes sum to `total` (= count), so they fill the new array's capacity
    // exactly, in order, and `initialized` is set to what was written.
    return [UInt8](unsafeUninitializedCapacity: total) { target, initialized in
      var offset = 0
      for chunk in full + [UnsafeMutableBufferPointer(start: base, count: used)] {
        guard let source = chunk.baseAddress, let destination = target.baseAddress else { continue }
        // SAFETY: the chunks hold `total` bytes in all, the capacity of target.
        (destination + offset).initialize(from: source, count: chunk.count)
        offset += chunk.count
      }
      initialized = total
    }
  }

  /// All bytes appended, as one array, leaving this buffer empty: each chunk is freed once it is copied, so the
  /// output and its copy are never both whole in memory (the save's peak, issue #35: the AutoFill extension).
  func takeBytes() -> [UInt8] {
    let total = count
    full.append(UnsafeMutableBufferPointer(start: base, count: used))
    // SAFETY: as in bytes(): the chunks' written bytes sum to `total`; each chunk is deallocated right after its
    // bytes are copied and removed from `full` below, and `base` gets a fresh chunk, so deinit frees each
    // allocation once.
    let joined = [UInt8](unsafeUninitializedCapacity: total) { target, initialized in
      var offset = 0
      for chunk in full {
        if let source = chunk.baseAddress, let destination = target.baseAddress {
          (destination + offset).initialize(from: source, count: chunk.count)
          offset += chunk.count
        }
        chunk.deallocate()
      }
      initialized = total
    }
    full = []
    fullCount = 0
    base = UnsafeMutablePointer<UInt8>.allocate(capacity: XMLOutputBuffer.chunkSize)
    used = 0
    return joined
  }

  /// The bytes appended at offsets `range` (within `0..<count`), as one array.
  func bytes(in range: Range<Int>) -> [UInt8] {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "range outside the output")
    // SAFETY: `range` lies in 0..<count (precondition above); the loop copies its bytes in order, chunk by
    // chunk, so exactly range.count bytes are initialised before `initialized` says so.
    return [UInt8](unsafeUninitializedCapacity: range.count) { target, initialized in
      var chunkStart = 0
      var written = 0
      for chunk in full + [UnsafeMutableBufferPointer(start: base, count: used)] {
        let chunkEnd = chunkStart + chunk.count
        let from = max(range.lowerBound, chunkStart)
        let to = min(range.upperBound, chunkEnd)
        if from < to, let source = chunk.baseAddress, let destination = target.baseAddress {
          // SAFETY: from..<to lies within this chunk (chunkStart..<chunkEnd) and within `range`, whose bytes are
          // written in order from the start of target, whose capacity is range.count.
          (destination + written).initialize(from: source + (from - chunkStart), count: to - from)
          written += to - from
        }
        chunkStart = chunkEnd
      }
      initialized = written
    }
  }
}
