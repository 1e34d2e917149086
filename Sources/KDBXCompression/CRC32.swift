/// CRC-32 as used by gzip (RFC 1952 §8, ISO 3309 / ITU-T V.42): reflected polynomial 0xEDB88320,
/// initial value and final XOR 0xFFFFFFFF. The check value of "123456789" is 0xCBF43926.
///
/// ```swift
/// let crc = CRC32.checksum(bytes)
/// var running = CRC32()
/// running.update(part1); running.update(part2)
/// let same = running.value
/// ```
///
/// Long inputs run five interleaved CRC lanes over 8-byte words (a "braid"); the rest uses
/// slicing-by-16. Not a cryptographic checksum; not constant-time.
public struct CRC32: Sendable {
  @usableFromInline var state: UInt32 = 0xFFFF_FFFF

  /// A CRC-32 over no bytes yet.
  public init() {}

  /// The CRC-32 of everything passed to ``update(_:)`` so far.
  public var value: UInt32 { ~state }

  /// The CRC-32 of `bytes` (RFC 1952 §8).
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }

  /// Feeds `bytes`; several updates give the same value as one update over the joined bytes.
  public mutating func update(_ bytes: [UInt8]) {
    // SAFETY: the pointer is used only inside the closure, over the array's own count.
    bytes.withUnsafeBytes { update($0) }
  }

  /// Feeds `bytes[range]`.
  public mutating func update(_ bytes: [UInt8], range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= bytes.count, "range outside the bytes")
    // SAFETY: `range` lies inside the array (the precondition above), and the slice is used only in the closure.
    bytes.withUnsafeBytes { update(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  /// Feeds the bytes of a raw buffer.
  public mutating func update(_ bytes: UnsafeRawBufferPointer) {
    state = CRC32.update(state, bytes)
  }
}
