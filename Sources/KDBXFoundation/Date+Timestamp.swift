import Foundation
import KDBX

extension Timestamp {
  /// Seconds from the Unix epoch 1970-01-01T00:00:00Z to 2001-01-01T00:00:00Z (Foundation's reference date):
  /// 11,323 days.
  static let foundationReferenceOffset: Int64 = 978_307_200

  /// The whole second that contains `date`, in KeePass's range.
  ///
  /// KDBX stores whole seconds from 0001-01-01T00:00:00 UTC (KDBX 4.1 specification, "Dates and Times"); a `Date`
  /// holds fractions of a second, so the fraction is dropped (rounded towards the past, as .NET's `DateTime`
  /// truncation in KeePass does for times after the year 1). Dates before 0001-01-01 or after 9999-12-31T23:59:59
  /// clamp to ``Timestamp/minimum`` and ``Timestamp/maximum``; a NaN date gives ``Timestamp/minimum``. Neither
  /// format counts leap seconds, so no leap second is added or lost. Use ``init(exactly:)`` to refuse instead.
  public init(_ date: Date) {
    let seconds = date.timeIntervalSinceReferenceDate.rounded(.down)
    let low = Double(Timestamp.minimum.unixSeconds - Timestamp.foundationReferenceOffset)
    let high = Double(Timestamp.maximum.unixSeconds - Timestamp.foundationReferenceOffset)
    guard seconds >= low else {  // also NaN
      self = .minimum
      return
    }
    guard seconds <= high else {
      self = .maximum
      return
    }
    // Both bounds are integers below 2^53, so the conversion and the sum are exact.
    self.init(unixSeconds: Int64(seconds) + Timestamp.foundationReferenceOffset)
  }

  /// The timestamp of `date`, or `nil` when `date` is not a whole second within 0001-01-01...9999-12-31 (what a
  /// KDBX file can hold without loss).
  public init?(exactly date: Date) {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite, interval == interval.rounded(.down) else { return nil }
    let converted = Timestamp(date)
    guard Double(converted.unixSeconds - Timestamp.foundationReferenceOffset) == interval else { return nil }
    self = converted
  }
}

extension Date {
  /// The instant `timestamp` names. Exact: `Timestamp(Date(t)) == t` for every timestamp in KeePass's range
  /// (0001-01-01...9999-12-31), since a `Double` holds every whole second of that range.
  ///
  /// Timestamps a damaged file puts outside that range are converted as they are (still exact up to 2^53 seconds,
  /// about 285 million years), and clamp back to the range when converted again.
  public init(_ timestamp: Timestamp) {
    let (seconds, overflow) = timestamp.unixSeconds.subtractingReportingOverflow(
      Timestamp.foundationReferenceOffset)
    self.init(timeIntervalSinceReferenceDate: overflow ? -Double.greatestFiniteMagnitude : Double(seconds))
  }
}
