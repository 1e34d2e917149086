// Byte classification tables and the XML 1.0 character productions (W3C XML 1.0 5th edition §2.2, §2.3).
// The tables are built once, on first use, into never-freed 256-byte buffers so that hot loops can read them
// through a pointer without bounds checks or lazy-initialization checks per byte.

/// Byte classes for scanning character data and attribute values.
enum ByteClass {
  /// ASCII that needs no attention in text: `0x21...0x7E` except `<`, `&`, `]`, and in attributes the quotes.
  static let plain: UInt8 = 0
  /// `\t`, `\n` or space.
  static let space: UInt8 = 1
  /// `<`
  static let lessThan: UInt8 = 2
  /// `&`
  static let ampersand: UInt8 = 3
  /// `\r`
  static let carriageReturn: UInt8 = 4
  /// `]` (text: may start `]]>`)
  static let bracket: UInt8 = 5
  /// A C0 control that XML 1.0 forbids, or DEL-free ASCII never needs it: `0x00...0x08`, `0x0B`, `0x0C`,
  /// `0x0E...0x1F`.
  static let forbidden: UInt8 = 6
  /// `0x80...0xFF`: the start (or a stray continuation) of a multi-byte UTF-8 sequence.
  static let nonASCII: UInt8 = 7
  /// `"` (attribute values only; plain in text)
  static let doubleQuote: UInt8 = 8
  /// `'` (attribute values only; plain in text)
  static let singleQuote: UInt8 = 9

  /// The class of every byte, for text and attribute values.
  // Written once during lazy initialization, read-only afterwards.
  // SAFETY: nonisolated(unsafe) because UnsafePointer is not Sendable: the table is filled inside the lazy
  // initializer, which Swift runs once (swift_once) before any reader sees the pointer, and is never written or
  // freed afterwards (256 entries: every UInt8 value is an index within it).
  nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      let value: UInt8
      switch byte {
      case 0x09, 0x0A, 0x20: value = space
      case 0x0D: value = carriageReturn
      case 0x00...0x1F: value = forbidden
      case 0x3C: value = lessThan
      case 0x26: value = ampersand
      case 0x5D: value = bracket
      case 0x22: value = doubleQuote
      case 0x27: value = singleQuote
      case 0x80...0xFF: value = nonASCII
      default: value = plain
      }
      // SAFETY: byte is in 0..<256, the allocated capacity.
      table[byte] = value
    }
    return UnsafePointer(table)
  }()

  /// ASCII name classes: bit 0 = `NameStartChar`, bit 1 = `NameChar` (§2.3). Bytes `>= 0x80` are 4 (decode them).
  // Written once during lazy initialization, read-only afterwards.
  nonisolated(unsafe) static let nameTable: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      var value: UInt8 = 0
      switch byte {
      case 0x41...0x5A, 0x61...0x7A, 0x5F, 0x3A: value = 3
      case 0x30...0x39, 0x2D, 0x2E: value = 2
      case 0x80...0xFF: value = 4
      default: value = 0
      }
      // SAFETY: byte is in 0..<256, the allocated capacity.
      table[byte] = value
    }
    return UnsafePointer(table)
  }()
}

/// The XML 1.0 character productions.
enum XMLCharacters {
  /// `Char` (§2.2): `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`.
  @inline(__always)
  static func isChar(_ value: UInt32) -> Bool {
    if value < 0x20 { return value == 0x09 || value == 0x0A || value == 0x0D }
    if value <= 0xD7FF { return true }
    if value < 0xE000 { return false }
    if value <= 0xFFFD { return true }
    return value >= 0x10000 && value <= 0x10FFFF
  }

  /// `NameStartChar` (§2.3).
  static func isNameStart(_ value: UInt32) -> Bool {
    switch value {
    case 0x3A, 0x41...0x5A, 0x5F, 0x61...0x7A: return true
    case 0xC0...0xD6, 0xD8...0xF6, 0xF8...0x2FF, 0x370...0x37D, 0x37F...0x1FFF, 0x200C...0x200D: return true
    case 0x2070...0x218F, 0x2C00...0x2FEF, 0x3001...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFFD: return true
    case 0x10000...0xEFFFF: return true
    default: return false
    }
  }

  /// `NameChar` (§2.3).
  static func isNameChar(_ value: UInt32) -> Bool {
    if isNameStart(value) { return true }
    switch value {
    case 0x2D, 0x2E, 0x30...0x39, 0xB7, 0x300...0x36F, 0x203F...0x2040: return true
    default: return false
    }
  }

  /// Whether `name` (as UTF-8) matches the `Name` production (§2.3).
  static func isName(_ name: String) -> Bool {
    var first = true
    for scalar in name.unicodeScalars {
      let ok = first ? isNameStart(scalar.value) : isNameChar(scalar.value)
      if !ok { return false }
      first = false
    }
    return !first
  }
}
