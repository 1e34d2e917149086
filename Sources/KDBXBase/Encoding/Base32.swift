/// Base32 with the RFC 4648 §6 alphabet (`A`-`Z`, `2`-`7`) and `=` padding, as TOTP secrets use.
///
/// ``decode(_:)`` is strict RFC 4648. ``decodeLenient(_:)`` accepts what authenticator apps and KeePass users type:
/// lowercase, spaces, hyphens and missing padding.
package enum Base32 {
  static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

  @inline(__always)
  static func value(of character: UInt8) -> UInt8? {
    switch character {
    case 0x41...0x5A: return character - 0x41
    case 0x32...0x37: return character - 0x32 + 26
    default: return nil
    }
  }

  /// Encodes `bytes`, with `=` padding to a multiple of 8 characters unless `padding` is `false`.
  package static func encode(_ bytes: [UInt8], padding: Bool = true) -> String {
    var out = [UInt8]()
    var buffer: UInt32 = 0
    var bits = 0
    for byte in bytes {
      buffer = buffer << 8 | UInt32(byte)
      bits += 8
      while bits >= 5 {
        out.append(alphabet[Int(buffer >> UInt32(bits - 5) & 31)])
        bits -= 5
      }
      buffer &= (1 << UInt32(bits)) - 1
    }
    if bits > 0 {
      out.append(alphabet[Int(buffer << UInt32(5 - bits) & 31)])
    }
    if padding {
      while out.count % 8 != 0 { out.append(0x3D) }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Strict RFC 4648 §6 decoding: uppercase alphabet, padding to a multiple of 8, no other characters, and zero
  /// unused bits. Returns `nil` when the text is not valid.
  package static func decode(_ text: String) -> [UInt8]? {
    let input = Array(text.utf8)
    guard input.count % 8 == 0 else { return nil }
    var symbols = [UInt8]()
    var padding = 0
    for character in input {
      if character == 0x3D {
        padding += 1
        continue
      }
      guard padding == 0, let value = value(of: character) else { return nil }
      symbols.append(value)
    }
    // Valid final-quantum symbol counts are 2, 4, 5, 7 (RFC 4648 §6, padding of 6, 4, 3 or 1).
    guard [0, 2, 4, 5, 7].contains(symbols.count % 8) else { return nil }
    guard padding == (symbols.count % 8 == 0 ? 0 : 8 - symbols.count % 8) else { return nil }
    return unpack(symbols, requireZeroBits: true)
  }

  /// Lenient decoding for TOTP secrets: letters of either case, spaces, tabs, hyphens and trailing `=` ignored,
  /// padding optional. Returns `nil` for any other character or an impossible length.
  package static func decodeLenient(_ text: String) -> [UInt8]? {
    var symbols = [UInt8]()
    var seenPadding = false
    for var character in text.utf8 {
      if character == 0x20 || character == 0x09 || character == 0x2D || character == 0x0A || character == 0x0D {
        continue
      }
      if character == 0x3D {
        seenPadding = true
        continue
      }
      guard !seenPadding else { return nil }
      if character >= 0x61 && character <= 0x7A { character -= 0x20 }
      guard let value = value(of: character) else { return nil }
      symbols.append(value)
    }
    guard [0, 2, 4, 5, 7].contains(symbols.count % 8) else { return nil }
    return unpack(symbols, requireZeroBits: false)
  }

  static func unpack(_ symbols: [UInt8], requireZeroBits: Bool) -> [UInt8]? {
    var out = [UInt8]()
    out.reserveCapacity(symbols.count * 5 / 8)
    var buffer: UInt32 = 0
    var bits = 0
    for symbol in symbols {
      buffer = buffer << 5 | UInt32(symbol)
      bits += 5
      if bits >= 8 {
        out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits - 8)))
        bits -= 8
        buffer &= (1 << UInt32(bits)) - 1
      }
    }
    if requireZeroBits && buffer != 0 { return nil }
    return out
  }
}
