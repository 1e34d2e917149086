/// A 16-byte identifier as KeePass uses for groups, entries, icons, ciphers and KDFs.
///
/// The bytes are kept in file order. ``description`` gives the canonical lowercase 8-4-4-4-12 form of those bytes
/// (the form the KDBX specification lists cipher and KDF IDs in); the XML stores the 16 bytes in base64
/// (KDBX 4.1 specification, "General notes").
public struct KDBXUUID: Sendable, Hashable, CustomStringConvertible {
  /// The 16 bytes, in file order.
  public let bytes: [UInt8]

  /// The all-zero UUID, which KeePass uses for "none" (for example no recycle bin).
  public static let zero = KDBXUUID(uncheckedBytes: [UInt8](repeating: 0, count: 16))

  /// Creates a UUID from exactly 16 bytes, or returns `nil`.
  public init?(bytes: [UInt8]) {
    guard bytes.count == 16 else { return nil }
    self.bytes = bytes
  }

  init(uncheckedBytes: [UInt8]) {
    precondition(uncheckedBytes.count == 16)
    bytes = uncheckedBytes
  }

  /// Parses the 8-4-4-4-12 form (either case) or 32 hex digits without hyphens.
  public init?(string: String) {
    var digits = [UInt8]()
    var hyphens: [Int] = []
    for character in string.utf8 {
      if character == 0x2D {
        hyphens.append(digits.count)
      } else {
        digits.append(character)
      }
    }
    guard hyphens.isEmpty || hyphens == [8, 12, 16, 20] else { return nil }
    guard digits.count == 32, let decoded = Hex.decode(utf8: digits) else { return nil }
    bytes = decoded
  }

  /// Decodes the base64 XML form; `nil` unless it holds exactly 16 bytes.
  public init?(base64: String) {
    guard let decoded = Base64.decode(base64, options: .lenient), decoded.count == 16 else { return nil }
    bytes = decoded
  }

  /// Draws 16 random bytes from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> KDBXUUID {
    var out = [UInt8]()
    out.reserveCapacity(16)
    for _ in 0..<2 {
      let word = generator.next()
      for shift in 0..<8 { out.append(UInt8(truncatingIfNeeded: word >> (shift * 8))) }
    }
    return KDBXUUID(uncheckedBytes: out)
  }

  /// Whether every byte is zero.
  public var isZero: Bool { bytes.allSatisfy { $0 == 0 } }

  /// The base64 form used in the XML.
  public var base64: String { Base64.encode(bytes) }

  /// The canonical lowercase `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` form.
  public var description: String {
    let hex = Array(Hex.encode(bytes).utf8)
    var out = [UInt8]()
    out.reserveCapacity(36)
    for (index, digit) in hex.enumerated() {
      if index == 8 || index == 12 || index == 16 || index == 20 { out.append(0x2D) }
      out.append(digit)
    }
    return String(decoding: out, as: UTF8.self)
  }
}
