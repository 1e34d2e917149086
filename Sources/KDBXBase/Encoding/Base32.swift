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
    let rest = regroup(bytes, from: 8, to: 5) { out.append(alphabet[Int($0)]) }
    if rest.bits > 0 {
      out.append(alphabet[Int(rest.value << UInt32(5 - rest.bits) & 31)])
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
    let rest = regroup(symbols, from: 5, to: 8) { out.append($0) }
    if requireZeroBits && rest.value != 0 { return nil }
    return out
  }

  /// Regroups the bits of `values`, each a value of `inputBits` bits, into values of `outputBits` bits, most
  /// significant bits first, handing each to `emit` (`inputBits` and `outputBits` from 1 to 8). Returns the bits left
  /// over at the end (fewer than `outputBits`): their value and their count.
  static func regroup(
    _ values: [UInt8], from inputBits: Int, to outputBits: Int, _ emit: (UInt8) -> Void
  ) -> (value: UInt32, bits: Int) {
    let mask: UInt32 = (1 << UInt32(outputBits)) - 1
    var buffer: UInt32 = 0
    var bits = 0
    for value in values {
      buffer = buffer << UInt32(inputBits) | UInt32(value)
      bits += inputBits
      while bits >= outputBits {
        bits -= outputBits
        emit(UInt8(truncatingIfNeeded: buffer >> UInt32(bits) & mask))
      }
      buffer &= (1 << UInt32(bits)) - 1
    }
    return (buffer, bits)
  }
}
