// Base64 decoding of the short fixed-size values of the database XML (16-byte UUIDs, 8-byte KDBX 4 times) into
// integer words, without the byte array that ``Base64/decode(_:options:)`` allocates.

extension Base64 {
  /// Decodes `text` when it is exactly the padded base64 of `byteCount` bytes (1...16): `(byteCount + 2) / 3 * 4`
  /// characters, alphabet characters then `=` padding, no whitespace. The bytes are returned in file order as two
  /// big-endian words (bytes 0-7 in `high`, 8-15 in `low`, missing bytes zero).
  ///
  /// Returns `nil` for any other text, valid or not, so that a caller falls back to ``decode(_:options:)``, which
  /// decides it; where this returns words, that decoder returns the same bytes (RFC 4648 §4).
  /// - Parameter allowsNonCanonicalBits: as ``Options/allowsNonCanonicalBits``.
  package static func decodeWords(
    _ text: String, byteCount: Int, allowsNonCanonicalBits: Bool
  ) -> (high: UInt64, low: UInt64)? {
    // SAFETY: the buffer is the string's own storage, valid during the closure, and only iterated (for-in stays
    // within its count). A string without contiguous UTF-8 (bridged) is read through its UTF-8 view.
    let contiguous = text.utf8.withContiguousStorageIfAvailable { buffer in
      decodeWords(utf8: buffer, byteCount: byteCount, allowsNonCanonicalBits: allowsNonCanonicalBits)
    }
    if let contiguous { return contiguous }
    return decodeWords(utf8: text.utf8, byteCount: byteCount, allowsNonCanonicalBits: allowsNonCanonicalBits)
  }

  /// ``decodeWords(_:byteCount:allowsNonCanonicalBits:)`` on ASCII bytes.
  package static func decodeWords<Input: Collection>(
    utf8: Input, byteCount: Int, allowsNonCanonicalBits: Bool
  ) -> (high: UInt64, low: UInt64)? where Input.Element == UInt8 {
    guard byteCount > 0, byteCount <= 16 else { return nil }
    let length = (byteCount + 2) / 3 * 4
    let symbolCount = (byteCount * 8 + 5) / 6
    guard utf8.count == length else { return nil }
    var high: UInt64 = 0
    var low: UInt64 = 0
    var written = 0
    var word: UInt32 = 0
    var index = 0
    for character in utf8 {
      if index >= symbolCount {
        guard character == 0x3D else { return nil }
        index += 1
        continue
      }
      guard let value = symbolValue(character) else { return nil }
      word = word << 6 | UInt32(value)
      index += 1
      if index % 4 == 0 {
        put(UInt8(truncatingIfNeeded: word >> 16), at: &written, high: &high, low: &low)
        put(UInt8(truncatingIfNeeded: word >> 8), at: &written, high: &high, low: &low)
        put(UInt8(truncatingIfNeeded: word), at: &written, high: &high, low: &low)
        word = 0
      }
    }
    // The symbol count of a whole number of bytes leaves 0, 2 or 3 symbols in the last group, never 1.
    switch symbolCount % 4 {
    case 2:
      guard allowsNonCanonicalBits || word & 0x0F == 0 else { return nil }
      put(UInt8(truncatingIfNeeded: word >> 4), at: &written, high: &high, low: &low)
    case 3:
      guard allowsNonCanonicalBits || word & 0x03 == 0 else { return nil }
      put(UInt8(truncatingIfNeeded: word >> 10), at: &written, high: &high, low: &low)
      put(UInt8(truncatingIfNeeded: word >> 2), at: &written, high: &high, low: &low)
    default:
      break
    }
    return (high, low)
  }

  /// Puts byte number `index` (0...15) of the output into its place in the two words.
  @inline(__always)
  private static func put(_ byte: UInt8, at index: inout Int, high: inout UInt64, low: inout UInt64) {
    if index < 8 {
      high |= UInt64(byte) << UInt64(56 - 8 * index)
    } else if index < 16 {
      low |= UInt64(byte) << UInt64(120 - 8 * index)
    }
    index += 1
  }
}
