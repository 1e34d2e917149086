import KDBXCrypto

/// Windows code page 1252 ("Western European", the ANSI code page of English and Western European Windows) and
/// ISO 8859-1 (Latin-1), the byte encodings KeePass 1.x and KeePassX hashed master passwords in.
///
/// KeePass 1.x for Windows hashes the password as the ANSI bytes the Windows edit control gave it, which is
/// CP-1252 on Western systems; KeePassX used Latin-1 until 0.3.1 and UTF-8 until 0.2.2 (KeePassXC's
/// `KeePass1Reader` notes both and tries CP-1252, then Latin-1, then UTF-8). A character that the code page does
/// not have becomes `?`, as Windows' `WideCharToMultiByte` and Qt's codecs write it.
///
/// Mapping of 0x80-0x9F: the Unicode consortium's `cp1252.txt` (WINDOWS/CP1252), with the five bytes that table
/// leaves undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) mapped to the C1 controls of the same value, as Windows does.
enum Windows1252 {
  /// The scalar values of bytes 0x80...0x9F.
  static let highScalars: [UInt32] = [
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
  ]

  /// The replacement byte for a character the encoding does not have (`?`).
  static let replacement: UInt8 = 0x3F

  /// The CP-1252 byte of `scalar`, or `nil` when the code page does not have it.
  static func byte(for scalar: UInt32) -> UInt8? {
    if scalar < 0x80 || (scalar >= 0xA0 && scalar <= 0xFF) { return UInt8(truncatingIfNeeded: scalar) }
    for (index, value) in highScalars.enumerated() where value == scalar {
      return UInt8(truncatingIfNeeded: 0x80 + index)
    }
    return nil
  }

  /// The CP-1252 bytes of the UTF-8 text `utf8`, `?` for each character CP-1252 does not have; `nil` when `utf8` is
  /// not valid UTF-8.
  static func encode(utf8: [UInt8]) -> [UInt8]? {
    encodeScalars(utf8) { byte(for: $0) ?? replacement }
  }

  /// The Latin-1 bytes of the UTF-8 text `utf8` (a scalar below 256 is its own byte), `?` for any other
  /// character; `nil` when `utf8` is not valid UTF-8.
  static func encodeLatin1(utf8: [UInt8]) -> [UInt8]? {
    encodeScalars(utf8) { $0 <= 0xFF ? UInt8(truncatingIfNeeded: $0) : replacement }
  }

  /// Decodes `utf8` scalar by scalar (no `String` is made, so the caller can wipe every copy) and maps each one.
  static func encodeScalars(_ utf8: [UInt8], _ map: (UInt32) -> UInt8) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(utf8.count)
    var iterator = utf8.makeIterator()
    var decoder = Unicode.UTF8()
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): output.append(map(scalar.value))
      case .emptyInput: return output
      case .error:
        SecureBytes.wipe(&output)
        return nil
      }
    }
  }
}
