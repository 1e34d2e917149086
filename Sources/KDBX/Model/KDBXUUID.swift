import KDBXBase

/// A 16-byte identifier as KeePass uses for groups, entries, icons, ciphers and KDFs.
///
/// The bytes are kept in file order. ``description`` gives the canonical lowercase 8-4-4-4-12 form of those bytes
/// (the form the KDBX specification lists cipher and KDF IDs in); the XML stores the 16 bytes in base64
/// (KDBX 4.1 specification, "General notes").
///
/// Restoring the entry the user had open:
///
/// ```swift
/// let saved = entry.uuid.description  // kept in the app's state
/// if let uuid = KDBXUUID(string: saved), let restored = database.entry(withUUID: uuid) {
///   show("Title", restored.title)
/// }
/// ```
public struct KDBXUUID: Sendable, Hashable, CustomStringConvertible {
  /// Bytes 0-7 and 8-15, in file order (the first byte is the most significant): 16 bytes inline, no heap, so
  /// that comparing, hashing and copying a UUID allocates nothing.
  private let high: UInt64
  private let low: UInt64

  /// The 16 bytes, in file order.
  public var bytes: [UInt8] {
    var out = [UInt8]()
    out.reserveCapacity(16)
    for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: high >> UInt64(shift))) }
    for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: low >> UInt64(shift))) }
    return out
  }

  /// The all-zero UUID, which KeePass uses for "none" (for example no recycle bin).
  public static let zero = KDBXUUID(high: 0, low: 0)

  private init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// Creates a UUID from exactly 16 bytes, or returns `nil`.
  public init?(bytes: some Collection<UInt8>) {
    guard bytes.count == 16 else { return nil }
    self.init(uncheckedBytes: bytes)
  }

  /// The first 16 bytes of `uncheckedBytes` (callers pass exactly 16; missing bytes count as zero).
  package init(uncheckedBytes: some Collection<UInt8>) {
    var high: UInt64 = 0
    var low: UInt64 = 0
    for (index, byte) in uncheckedBytes.prefix(16).enumerated() {
      if index < 8 {
        high |= UInt64(byte) << UInt64(56 - 8 * index)
      } else {
        low |= UInt64(byte) << UInt64(120 - 8 * index)
      }
    }
    self.init(high: high, low: low)
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
    self.init(uncheckedBytes: decoded)
  }

  /// Decodes the base64 XML form; `nil` unless it holds exactly 16 bytes.
  public init?(base64: String) {
    // The usual form (24 characters, no whitespace) without a byte array; anything else through the decoder.
    if let words = Base64.decodeWords(base64, byteCount: 16, allowsNonCanonicalBits: true) {
      self.init(high: words.high, low: words.low)
      return
    }
    guard let decoded = Base64.decode(base64, options: .lenient), decoded.count == 16 else { return nil }
    self.init(uncheckedBytes: decoded)
  }

  /// Draws 16 random bytes from `generator`.
  public static func random(using generator: inout some RandomNumberGenerator) -> KDBXUUID {
    // The bytes a little-endian read of two words gives, as before the inline storage (seeded tests rely on it).
    let first: UInt64 = generator.next()
    let second: UInt64 = generator.next()
    return KDBXUUID(high: first.byteSwapped, low: second.byteSwapped)
  }

  /// Whether every byte is zero.
  public var isZero: Bool { high == 0 && low == 0 }

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
