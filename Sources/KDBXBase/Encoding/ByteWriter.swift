/// Appends little-endian integers and byte strings to a growing byte array, the write-side twin of ``ByteReader``.
package struct ByteWriter: Sendable {
  /// The bytes written so far.
  package private(set) var bytes: [UInt8]

  /// Creates an empty writer, optionally reserving capacity.
  package init(capacity: Int = 0) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// The number of bytes written so far.
  package var count: Int { bytes.count }

  /// Appends one byte.
  package mutating func write(_ byte: UInt8) { bytes.append(byte) }

  /// Appends `value` in little-endian byte order.
  package mutating func writeLittleEndian<T: FixedWidthInteger>(_ value: T) {
    for index in 0..<(T.bitWidth / 8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> (index * 8)))
    }
  }

  /// Appends a little-endian `UInt16`.
  package mutating func write(_ value: UInt16) { writeLittleEndian(value) }
  /// Appends a little-endian `UInt32`.
  package mutating func write(_ value: UInt32) { writeLittleEndian(value) }
  /// Appends a little-endian `UInt64`.
  package mutating func write(_ value: UInt64) { writeLittleEndian(value) }
  /// Appends a little-endian `Int32`.
  package mutating func write(_ value: Int32) { writeLittleEndian(value) }
  /// Appends a little-endian `Int64`.
  package mutating func write(_ value: Int64) { writeLittleEndian(value) }

  /// Appends bytes.
  package mutating func write(_ data: [UInt8]) { bytes.append(contentsOf: data) }

  /// Appends bytes.
  package mutating func write(_ data: ArraySlice<UInt8>) { bytes.append(contentsOf: data) }
}
