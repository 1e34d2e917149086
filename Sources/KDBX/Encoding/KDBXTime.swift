import KDBXBase

/// The two text forms of a time value in the KDBX XML (KDBX 4.1 specification, "Dates and Times").
///
/// - KDBX 4.x: base64 of the little-endian `Int64` count of seconds since 0001-01-01T00:00:00 UTC.
/// - KDBX 3.1 and older: ISO 8601 text `yyyy-MM-ddTHH:mm:ssZ`.
///
/// Reading accepts either form in any version, as KeePass does.
package enum KDBXTime {
  /// The base64 form written by KDBX 4.x.
  package static func encodeBinary(_ timestamp: Timestamp) -> String {
    Base64.encode(littleEndian: UInt64(bitPattern: timestamp.secondsSince0001))
  }

  /// The text form for `version`: base64 for KDBX 4.x, ISO 8601 otherwise.
  package static func encode(_ timestamp: Timestamp, version: KDBXVersion) -> String {
    version.usesBinaryTimes ? encodeBinary(timestamp) : ISO8601.format(timestamp)
  }

  /// Reads either form. Returns `nil` when the text is neither 8 base64-encoded bytes nor ISO 8601.
  package static func decode(_ text: String) -> Timestamp? {
    // The usual KDBX 4 form (12 characters, no whitespace) without a byte array: the 8 bytes are little-endian.
    if let words = Base64.decodeWords(text, byteCount: 8, allowsNonCanonicalBits: true) {
      return Timestamp(secondsSince0001: Int64(bitPattern: words.high.byteSwapped))
    }
    if text.utf8.count == 12, let bytes = Base64.decode(utf8: text.utf8, options: .lenient), bytes.count == 8 {
      var value: Int64 = 0
      for index in 0..<8 { value |= Int64(bytes[index]) << (index * 8) }
      return Timestamp(secondsSince0001: value)
    }
    return ISO8601.parse(text)
  }
}
