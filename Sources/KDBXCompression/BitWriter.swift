/// An LSB-first bit writer (RFC 1951 §3.1.1) into a byte array that it grows ahead of use.
///
/// `bytes.count` is the capacity; `position` is the number of complete bytes written, and up to 7
/// pending bits wait in `bitBuffer` between calls.
struct BitWriter {
  var bytes: [UInt8]
  var position = 0
  var bitBuffer: UInt64 = 0
  var bitCount = 0

  init(capacity: Int) {
    bytes = []
    bytes.grow(toCount: max(capacity, 64))
  }

  /// Makes sure `count` more bytes (plus an 8-byte word of slack for the kernels) fit.
  mutating func reserve(_ count: Int) {
    let needed = position + count + 16
    if needed > bytes.count {
      let target = max(needed, bytes.count + bytes.count / 2)
      bytes.grow(toCount: target)
    }
  }

  /// Writes the low `count` (at most 32) bits of `value`. The caller has reserved room.
  mutating func write(_ value: UInt32, _ count: Int) {
    bitBuffer |= UInt64(value) << UInt64(bitCount)
    bitCount += count
    while bitCount >= 8 {
      bytes[position] = UInt8(truncatingIfNeeded: bitBuffer)
      position += 1
      bitBuffer >>= 8
      bitCount -= 8
    }
  }

  /// Pads with zero bits to the next byte boundary.
  mutating func alignToByte() {
    if bitCount > 0 { write(0, 8 - bitCount) }
  }

  /// Appends `input[range]` as whole bytes; the writer must be byte-aligned.
  mutating func writeBytes(_ input: [UInt8], _ range: Range<Int>) {
    precondition(bitCount == 0)
    reserve(range.count)
    InflateState.copyBytes(from: input, at: range.lowerBound, to: &bytes, at: position, count: range.count)
    position += range.count
  }

  /// The written bytes, with the last partial byte padded with zeros.
  mutating func finish() -> [UInt8] {
    reserve(1)
    alignToByte()
    bytes.removeLast(bytes.count - position)
    return bytes
  }
}
