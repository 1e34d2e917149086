import KDBX

/// KeePass 1.x's packed 5-byte time (KeePass 1.x `PwUtil::PwTimeToTime`; KeePassXC
/// `KeePass1Reader::dateFromPackedStruct`): 14 bits year, 4 bits month, 5 bits day, 5 bits hour, 6 bits minute,
/// 6 bits second, most significant bit first, in UTC as KeePassXC reads it.
///
/// ```text
/// byte 0: y13..y6   byte 1: y5..y0 m3 m2   byte 2: m1 m0 d4..d0 h4   byte 3: h3..h0 n5..n2   byte 4: n1 n0 s5..s0
/// ```
///
/// KeePass 1.x writes 2999-12-28 23:59:59 for "never" (an entry that does not expire).
package enum KDB1Time {
  /// The size of a packed time.
  package static let byteCount = 5
  /// KeePass 1.x's "never": 2999-12-28 23:59:59.
  package static let never = CivilDateTime(year: 2999, month: 12, day: 28, hour: 23, minute: 59, second: 59)

  /// The civil time packed in `bytes` (exactly 5 bytes), whether or not it is a valid date.
  package static func civil(_ bytes: ArraySlice<UInt8>) -> CivilDateTime? {
    guard bytes.count == byteCount else { return nil }
    let b = bytes.map { Int($0) }
    return CivilDateTime(
      year: (b[0] << 6) | (b[1] >> 2), month: ((b[1] & 0x03) << 2) | (b[2] >> 6), day: (b[2] >> 1) & 0x1F,
      hour: ((b[2] & 0x01) << 4) | (b[3] >> 4), minute: ((b[3] & 0x0F) << 2) | (b[4] >> 6), second: b[4] & 0x3F)
  }

  /// The time packed in `bytes`, or `nil` when it is not a valid date (for example month 0), which KeePassXC
  /// also skips.
  package static func timestamp(_ bytes: ArraySlice<UInt8>) -> Timestamp? {
    civil(bytes).flatMap { Timestamp($0) }
  }

  /// Whether `bytes` hold KeePass 1.x's "never".
  package static func isNever(_ bytes: ArraySlice<UInt8>) -> Bool { civil(bytes) == never }

  /// The packed form of `civil` (years above 16383 and other out-of-range fields are masked).
  package static func pack(_ civil: CivilDateTime) -> [UInt8] {
    let y = civil.year & 0x3FFF
    let mo = civil.month & 0x0F
    let d = civil.day & 0x1F
    let h = civil.hour & 0x1F
    let mi = civil.minute & 0x3F
    let s = civil.second & 0x3F
    return [
      UInt8(truncatingIfNeeded: y >> 6), UInt8(truncatingIfNeeded: ((y & 0x3F) << 2) | (mo >> 2)),
      UInt8(truncatingIfNeeded: ((mo & 0x03) << 6) | (d << 1) | (h >> 4)),
      UInt8(truncatingIfNeeded: ((h & 0x0F) << 4) | (mi >> 2)), UInt8(truncatingIfNeeded: ((mi & 0x03) << 6) | s),
    ]
  }
}
