/// Base64 with the standard alphabet and `=` padding (RFC 4648 §4), as KDBX uses for UUIDs, binaries, KDBX 4 times
/// and XML key file v1.0 data.
///
/// Decoding is strict by default: the length must be a multiple of 4, padding only at the end, no other characters,
/// and the unused bits of the last group must be zero (RFC 4648 §3.5). ``decode(_:options:)`` can also skip
/// whitespace, which some writers insert in long values.
package enum Base64 {
  /// Decoding leniency.
  package struct Options: Sendable, Equatable {
    /// Skip ASCII spaces, tabs, CR and LF anywhere in the input.
    package var ignoresWhitespace: Bool
    /// Accept non-zero bits in the unused low bits of the last group (RFC 4648 §3.5 lets decoders reject them).
    package var allowsNonCanonicalBits: Bool

    package init(ignoresWhitespace: Bool = false, allowsNonCanonicalBits: Bool = false) {
      self.ignoresWhitespace = ignoresWhitespace
      self.allowsNonCanonicalBits = allowsNonCanonicalBits
    }

    /// RFC 4648 strict decoding.
    package static let strict = Options()
    /// Whitespace skipped, non-canonical final bits accepted (what .NET and Qt readers accept).
    package static let lenient = Options(ignoresWhitespace: true, allowsNonCanonicalBits: true)
  }

  package static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Encodes `bytes` with padding (RFC 4648 §4).
  package static func encode(_ bytes: [UInt8]) -> String {
    // SAFETY: the encoder reads the array's own `count` bytes inside the closure and returns a new String.
    bytes.withUnsafeBytes { encode($0) }
  }

  /// Decodes base64 text, or returns `nil` when it is not valid under `options`.
  package static func decode(_ text: String, options: Options = .strict) -> [UInt8]? {
    // A native string's UTF-8 is contiguous: decoding its buffer is several times faster than its UTF-8 view.
    if let decoded = decodeContiguous(text, options: options) { return decoded }
    return decode(utf8: text.utf8, options: options)
  }

  /// Decodes base64 given as ASCII bytes, or returns `nil` when it is not valid under `options`.
  package static func decode(utf8 input: [UInt8], options: Options = .strict) -> [UInt8]? {
    // The slice selects the generic overload below (passing `input` itself would call this function again).
    decode(utf8: input[...], options: options)
  }

  /// Decodes base64 from any collection of ASCII bytes in one pass, without intermediate buffers.
  @inlinable
  package static func decode<Input: Collection>(utf8 input: Input, options: Options = .strict) -> [UInt8]?
  where Input.Element == UInt8 {
    var out = [UInt8]()
    out.reserveCapacity(input.count / 4 * 3)
    var word: UInt32 = 0
    var symbolCount = 0
    var padding = 0
    for character in input {
      if options.ignoresWhitespace, character == 0x20 || character == 0x09 || character == 0x0A || character == 0x0D {
        continue
      }
      if character == 0x3D {
        padding += 1
        guard padding <= 2 else { return nil }
        continue
      }
      guard padding == 0, let value = symbolValue(character) else { return nil }
      word = word << 6 | UInt32(value)
      symbolCount += 1
      if symbolCount % 4 == 0 {
        out.append(UInt8(truncatingIfNeeded: word >> 16))
        out.append(UInt8(truncatingIfNeeded: word >> 8))
        out.append(UInt8(truncatingIfNeeded: word))
        word = 0
      }
    }
    let rest = symbolCount % 4
    guard rest != 1, padding == (rest == 0 ? 0 : 4 - rest) else { return nil }
    if rest == 2 {
      guard options.allowsNonCanonicalBits || word & 0x0F == 0 else { return nil }
      out.append(UInt8(truncatingIfNeeded: word >> 4))
    } else if rest == 3 {
      guard options.allowsNonCanonicalBits || word & 0x03 == 0 else { return nil }
      out.append(UInt8(truncatingIfNeeded: word >> 10))
      out.append(UInt8(truncatingIfNeeded: word >> 2))
    }
    return out
  }

  /// The 6-bit value of an alphabet character, or `nil` (RFC 4648 Table 1).
  @inlinable
  static func symbolValue(_ character: UInt8) -> UInt8? {
    switch character {
    case 0x41...0x5A: return character &- 0x41
    case 0x61...0x7A: return character &- 0x61 &+ 26
    case 0x30...0x39: return character &- 0x30 &+ 52
    case 0x2B: return 62
    case 0x2F: return 63
    default: return nil
    }
  }
}
