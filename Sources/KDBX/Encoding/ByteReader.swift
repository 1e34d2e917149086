/// A bounds-checked little-endian reader over a byte array.
///
/// Every read checks the remaining length first and throws ``KDBXError/truncated(offset:needed:)`` with the offset
/// where the read started, so malformed input never traps. KDBX stores all integers little-endian
/// (KDBX 4.1 specification, "General notes").
package struct ByteReader: Sendable {
  /// The bytes being read.
  package let bytes: [UInt8]
  /// The offset of the next byte to read.
  package private(set) var offset: Int

  /// Creates a reader positioned at `offset` (clamped to the array bounds).
  package init(_ bytes: [UInt8], offset: Int = 0) {
    self.bytes = bytes
    self.offset = max(0, min(offset, bytes.count))
  }

  /// The number of bytes left after ``offset``.
  package var remainingCount: Int { bytes.count - offset }

  /// Whether every byte has been read.
  package var isAtEnd: Bool { offset >= bytes.count }

  /// Throws unless `count` more bytes are available.
  @inlinable
  package func require(_ count: Int) throws(KDBXError) {
    guard count >= 0, count <= bytes.count - offset else {
      throw .truncated(offset: offset, needed: count)
    }
  }

  /// Reads one byte.
  package mutating func readUInt8() throws(KDBXError) -> UInt8 {
    try require(1)
    let value = bytes[offset]
    offset += 1
    return value
  }

  /// Reads a little-endian integer of type `T`.
  package mutating func readLittleEndian<T: FixedWidthInteger>(_ type: T.Type = T.self) throws(KDBXError) -> T {
    let size = T.bitWidth / 8
    try require(size)
    var value: T = 0
    for index in 0..<size {
      value |= T(truncatingIfNeeded: bytes[offset + index]) << (index * 8)
    }
    offset += size
    return value
  }

  /// Reads a little-endian `UInt16`.
  package mutating func readUInt16() throws(KDBXError) -> UInt16 { try readLittleEndian() }
  /// Reads a little-endian `UInt32`.
  package mutating func readUInt32() throws(KDBXError) -> UInt32 { try readLittleEndian() }
  /// Reads a little-endian `UInt64`.
  package mutating func readUInt64() throws(KDBXError) -> UInt64 { try readLittleEndian() }
  /// Reads a little-endian `Int32`.
  package mutating func readInt32() throws(KDBXError) -> Int32 { try readLittleEndian() }
  /// Reads a little-endian `Int64`.
  package mutating func readInt64() throws(KDBXError) -> Int64 { try readLittleEndian() }

  /// Reads `count` bytes into a new array. A negative count or one past the end throws.
  package mutating func readBytes(_ count: Int) throws(KDBXError) -> [UInt8] {
    try require(count)
    let result = Array(bytes[offset..<offset + count])
    offset += count
    return result
  }

  /// Returns the range of the next `count` bytes and moves past them, without copying.
  package mutating func readRange(_ count: Int) throws(KDBXError) -> Range<Int> {
    try require(count)
    let range = offset..<offset + count
    offset += count
    return range
  }

  /// Skips `count` bytes.
  package mutating func skip(_ count: Int) throws(KDBXError) {
    try require(count)
    offset += count
  }
}
