/// A point in time as KeePass stores it: whole seconds since 0001-01-01T00:00:00 UTC in the proleptic Gregorian
/// calendar (the .NET `DateTime` epoch; KDBX 4.1 specification, "Dates and Times").
///
/// KDBX 4 writes this count as a little-endian `Int64` in base64; KDBX 3.1 writes ISO 8601 text. See `KDBXTime`.
///
/// ```swift
/// let now = Timestamp(unixSeconds: unixTime)
/// if entry.isExpired(at: now) { show("Expired", entry.title) }
/// entry.expiry = Timestamp(CivilDateTime(year: 2027, month: 1, day: 1))
/// ```
public struct Timestamp: Sendable, Hashable, Comparable {
  /// Seconds since 0001-01-01T00:00:00 UTC. Values from files may be outside the years 1-9999.
  package var secondsSince0001: Int64

  /// Creates a timestamp from seconds since 0001-01-01T00:00:00 UTC.
  package init(secondsSince0001: Int64) {
    self.secondsSince0001 = secondsSince0001
  }

  /// Seconds from 0001-01-01 to the Unix epoch 1970-01-01 (719,162 days).
  package static let unixEpochOffset: Int64 = 62_135_596_800

  /// Creates a timestamp from seconds since the Unix epoch (1970-01-01T00:00:00 UTC), saturating at the extremes.
  public init(unixSeconds: Int64) {
    let (sum, overflow) = unixSeconds.addingReportingOverflow(Timestamp.unixEpochOffset)
    secondsSince0001 = overflow ? Int64.max : sum
  }

  /// Seconds since the Unix epoch, saturating at the extremes.
  public var unixSeconds: Int64 {
    let (difference, overflow) = secondsSince0001.subtractingReportingOverflow(Timestamp.unixEpochOffset)
    return overflow ? Int64.min : difference
  }

  /// The earliest time .NET and KeePass can represent: 0001-01-01T00:00:00Z.
  public static let minimum = Timestamp(secondsSince0001: 0)
  /// The latest whole second .NET and KeePass can represent: 9999-12-31T23:59:59Z.
  public static let maximum = Timestamp(secondsSince0001: 315_537_897_599)

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.secondsSince0001 < rhs.secondsSince0001 }

  /// Creates a timestamp from a UTC civil date and time, or `nil` when a field is out of range.
  public init?(_ civil: CivilDateTime) {
    guard civil.year >= 1, civil.year <= 9999, civil.month >= 1, civil.month <= 12, civil.day >= 1,
      civil.day <= CivilDateTime.daysInMonth(year: civil.year, month: civil.month), civil.hour >= 0,
      civil.hour < 24, civil.minute >= 0, civil.minute < 60, civil.second >= 0, civil.second < 60
    else { return nil }
    let days = CivilDateTime.daysSince0001(year: Int64(civil.year), month: Int64(civil.month), day: Int64(civil.day))
    secondsSince0001 = days * 86_400 + Int64(civil.hour) * 3_600 + Int64(civil.minute) * 60 + Int64(civil.second)
  }

  /// The UTC civil date and time, with the timestamp first clamped to ``minimum``...``maximum``.
  public var civil: CivilDateTime {
    let clamped = min(max(secondsSince0001, Timestamp.minimum.secondsSince0001), Timestamp.maximum.secondsSince0001)
    let days = clamped / 86_400
    let secondOfDay = clamped % 86_400
    let (year, month, day) = CivilDateTime.civil(daysSince0001: days)
    return CivilDateTime(
      year: Int(year), month: Int(month), day: Int(day), hour: Int(secondOfDay / 3_600),
      minute: Int(secondOfDay / 60 % 60), second: Int(secondOfDay % 60))
  }
}

/// A UTC date and time in the proleptic Gregorian calendar, to the second.
///
/// ```swift
/// if let expiry = entry.expiry {
///   let date = expiry.civil  // UTC
///   show("Expires", "\(date.year)-\(date.month)-\(date.day)")
/// }
/// ```
public struct CivilDateTime: Sendable, Hashable {
  public var year: Int
  public var month: Int
  public var day: Int
  public var hour: Int
  public var minute: Int
  public var second: Int

  public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
    self.year = year
    self.month = month
    self.day = day
    self.hour = hour
    self.minute = minute
    self.second = second
  }

  /// Whether `year` is a Gregorian leap year.
  package static func isLeapYear(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  /// The number of days in `month` of `year`.
  package static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return isLeapYear(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 0001-01-01 to the given date, counting in 400-year eras of 146,097 days with March-based years so
  /// that the leap day falls at the end of a year.
  static func daysSince0001(year: Int64, month: Int64, day: Int64) -> Int64 {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let monthFromMarch = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    // 0000-03-01 is day -306 relative to 0001-01-01.
    return era * 146_097 + dayOfEra - 306
  }

  /// The inverse of ``daysSince0001(year:month:day:)`` for non-negative day counts.
  static func civil(daysSince0001 days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 306
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }
}
