/// Hexadecimal (base 16, RFC 4648 §8) encoding, used by 64-character key files and XML key file v2.0 data.
package enum Hex {
  static let digits: [UInt8] = Array("0123456789abcdef".utf8)

  /// Encodes `bytes` as lowercase hex.
  package static func encode(_ bytes: [UInt8], uppercase: Bool = false) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count * 2)
    let offset: UInt8 = uppercase ? 0x20 : 0
    for byte in bytes {
      let high = digits[Int(byte >> 4)]
      let low = digits[Int(byte & 0x0F)]
      out.append(high >= 0x61 ? high - offset : high)
      out.append(low >= 0x61 ? low - offset : low)
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The value of one hex digit (either case), or `nil`.
  @inline(__always)
  static func value(of character: UInt8) -> UInt8? {
    switch character {
    case 0x30...0x39: return character - 0x30
    case 0x41...0x46: return character - 0x41 + 10
    case 0x61...0x66: return character - 0x61 + 10
    default: return nil
    }
  }

  /// Decodes hex digits of either case. Returns `nil` for an odd count or any other character.
  package static func decode(utf8 input: [UInt8]) -> [UInt8]? {
    guard input.count % 2 == 0 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(input.count / 2)
    var index = 0
    while index < input.count {
      guard let high = value(of: input[index]), let low = value(of: input[index + 1]) else { return nil }
      out.append(high << 4 | low)
      index += 2
    }
    return out
  }

  /// Decodes hex text of either case. Returns `nil` for an odd count or any other character.
  package static func decode(_ text: String) -> [UInt8]? { decode(utf8: Array(text.utf8)) }
}
