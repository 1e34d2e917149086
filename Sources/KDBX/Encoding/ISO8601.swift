/// The ISO 8601 date-time text KDBX 3.1 uses in its XML (`yyyy-MM-ddTHH:mm:ssZ`, UTC; KeePass `TimeUtil`).
package enum ISO8601 {
  /// Formats `timestamp` as `yyyy-MM-ddTHH:mm:ssZ`, clamped to the years 1-9999.
  package static func format(_ timestamp: Timestamp) -> String {
    let civil = timestamp.civil
    var out = [UInt8]()
    out.reserveCapacity(20)
    // Each number with its digits and the character after it: `-`, `-`, `T`, `:`, `:`, `Z`.
    let parts: [(value: Int, digits: Int, then: UInt8)] = [
      (civil.year, 4, 0x2D), (civil.month, 2, 0x2D), (civil.day, 2, 0x54),
      (civil.hour, 2, 0x3A), (civil.minute, 2, 0x3A), (civil.second, 2, 0x5A),
    ]
    for part in parts {
      append(part.value, digits: part.digits, to: &out)
      out.append(part.then)
    }
    return String(decoding: out, as: UTF8.self)
  }

  static func append(_ value: Int, digits: Int, to out: inout [UInt8]) {
    var divisor = 1
    for _ in 1..<digits { divisor *= 10 }
    var rest = value
    while divisor > 0 {
      out.append(UInt8(truncatingIfNeeded: 0x30 + rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// Parses `yyyy-MM-ddTHH:mm:ss`, optionally followed by a fraction of a second (dropped), then `Z`, a
  /// `+HH:MM`/`-HH:MM` offset, or nothing (read as UTC, as KeePass does). Returns `nil` for anything else.
  package static func parse(_ text: String) -> Timestamp? {
    let bytes = Array(text.utf8)
    guard bytes.count >= 19 else { return nil }
    guard let year = number(bytes, 0, 4), bytes[4] == 0x2D, let month = number(bytes, 5, 2), bytes[7] == 0x2D,
      let day = number(bytes, 8, 2), bytes[10] == 0x54 || bytes[10] == 0x20, let hour = number(bytes, 11, 2),
      bytes[13] == 0x3A, let minute = number(bytes, 14, 2), bytes[16] == 0x3A, let second = number(bytes, 17, 2)
    else { return nil }
    var index = 19
    if index < bytes.count, bytes[index] == 0x2E {
      index += 1
      let start = index
      while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
      guard index > start else { return nil }
    }
    var offsetSeconds: Int64 = 0
    if index < bytes.count {
      if bytes[index] == 0x5A {
        index += 1
      } else if bytes[index] == 0x2B || bytes[index] == 0x2D, index + 6 == bytes.count,
        let offsetHours = number(bytes, index + 1, 2), bytes[index + 3] == 0x3A,
        let offsetMinutes = number(bytes, index + 4, 2), offsetHours < 24, offsetMinutes < 60
      {
        let magnitude = Int64(offsetHours * 3_600 + offsetMinutes * 60)
        offsetSeconds = bytes[index] == 0x2B ? magnitude : -magnitude
        index += 6
      } else {
        return nil
      }
    }
    guard index == bytes.count else { return nil }
    let civil = CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    guard let local = Timestamp(civil) else { return nil }
    return Timestamp(secondsSince0001: local.secondsSince0001 - offsetSeconds)
  }

  static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    guard start + count <= bytes.count else { return nil }
    var value = 0
    for index in start..<start + count {
      let byte = bytes[index]
      guard byte >= 0x30, byte <= 0x39 else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }
}
