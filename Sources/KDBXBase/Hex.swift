/// Hexadecimal (base 16, RFC 4648 §8), the one encoder and decoder of the package: key files (64 digits, XML key
/// file v2.0 data), UUIDs, self-test and vector values, and the numbers that error messages and the CLI print.
package enum Hex {
  static let lowercaseDigits: [UInt8] = Array("0123456789abcdef".utf8)
  static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

  /// Appends the two digits of `byte` to `out`.
  @inline(__always)
  package static func append(_ byte: UInt8, to out: inout [UInt8], uppercase: Bool = false) {
    let digits = uppercase ? uppercaseDigits : lowercaseDigits
    out.append(digits[Int(byte >> 4)])
    out.append(digits[Int(byte & 0x0F)])
  }

  /// Encodes `bytes` as hex, two digits a byte (lowercase unless `uppercase`).
  package static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.underestimatedCount * 2)
    for byte in bytes { append(byte, to: &out, uppercase: uppercase) }
    return String(decoding: out, as: UTF8.self)
  }

  /// `value` in hex without a prefix, padded with zeros to at least `minimumDigits` digits (at most 16; lowercase unless
  /// `uppercase`): `encode(0x1F600, minimumDigits: 4, uppercase: true)` is `1F600`.
  package static func encode(_ value: UInt64, minimumDigits: Int, uppercase: Bool = false) -> String {
    let digits = uppercase ? uppercaseDigits : lowercaseDigits
    var out = [UInt8]()
    var shift = 60
    while shift > 0 && (value >> UInt64(shift)) == 0 && shift >= 4 * minimumDigits { shift -= 4 }
    while shift >= 0 {
      out.append(digits[Int((value >> UInt64(shift)) & 15)])
      shift -= 4
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The value of one hex digit (either case), or `nil`.
  @inline(__always)
  package static func value(of character: UInt8) -> UInt8? {
    switch character {
    case 0x30...0x39: return character - 0x30
    case 0x41...0x46: return character - 0x41 + 10
    case 0x61...0x66: return character - 0x61 + 10
    default: return nil
    }
  }

  /// Decodes hex digits of either case. Returns `nil` for an odd count or any other character.
  package static func decode(utf8 input: some Collection<UInt8>) -> [UInt8]? {
    guard input.count % 2 == 0 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(input.count / 2)
    var high: UInt8? = nil
    for character in input {
      guard let digit = value(of: character) else { return nil }
      if let first = high {
        out.append(first << 4 | digit)
        high = nil
      } else {
        high = digit
      }
    }
    return out
  }

  /// Decodes hex text of either case. Returns `nil` for an odd count or any other character.
  package static func decode(_ text: String) -> [UInt8]? { decode(utf8: Array(text.utf8)) }
}
