import Foundation
import KDBX
import KDBXFoundation
import Testing

/// `Date` and `Timestamp` conversions at the edges of KeePass's range, across leap seconds and time zones.
@Suite struct DateConversionTests {
  /// 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z as seconds since the Unix epoch, computed in the proleptic
  /// Gregorian calendar (.NET `DateTime.MinValue` / `MaxValue` truncated to the second).
  static let year1UnixSeconds: Double = -62_135_596_800
  static let year9999UnixSeconds: Double = 253_402_300_799

  @Test func keePassRangeEndsMapToTheSameInstants() {
    #expect(Date(Timestamp.minimum) == Date(timeIntervalSince1970: Self.year1UnixSeconds))
    #expect(Date(Timestamp.maximum) == Date(timeIntervalSince1970: Self.year9999UnixSeconds))
    #expect(Timestamp(Date(timeIntervalSince1970: Self.year1UnixSeconds)) == .minimum)
    #expect(Timestamp(Date(timeIntervalSince1970: Self.year9999UnixSeconds)) == .maximum)
    #expect(Timestamp.maximum.civil == CivilDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
  }

  @Test func unixEpochAndReferenceDate() {
    #expect(Timestamp(Date(timeIntervalSince1970: 0)) == Timestamp(unixSeconds: 0))
    #expect(Timestamp(Date(timeIntervalSinceReferenceDate: 0)).civil == CivilDateTime(year: 2001, month: 1, day: 1))
  }

  /// A round trip through `Date` keeps the KDBX second, at the edges and at pseudo-random points in between.
  @Test func roundTripKeepsEverySecond() {
    var samples: [Int64] = [
      0, 1, 59, 86_399, 86_400, Timestamp.maximum.secondsSince0001 - 1,
      Timestamp.maximum.secondsSince0001, Timestamp.unixEpochOffset - 1, Timestamp.unixEpochOffset,
    ]
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for _ in 0..<2_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      samples.append(Int64(state >> 1) % (Timestamp.maximum.secondsSince0001 + 1))
    }
    for seconds in samples {
      let timestamp = Timestamp(secondsSince0001: seconds)
      #expect(Timestamp(Date(timestamp)) == timestamp, "second \(seconds)")
      #expect(Timestamp(exactly: Date(timestamp)) == timestamp, "second \(seconds)")
    }
  }

  @Test func fractionsRoundDownAndExactRefusesThem() {
    let base = Timestamp(unixSeconds: 1_700_000_000)
    #expect(Timestamp(Date(timeIntervalSince1970: 1_700_000_000.999)) == base)
    #expect(Timestamp(exactly: Date(timeIntervalSince1970: 1_700_000_000.5)) == nil)
    // Before 1970 (negative intervals) the fraction still goes towards the past, not towards zero.
    #expect(Timestamp(Date(timeIntervalSince1970: -0.25)) == Timestamp(unixSeconds: -1))
  }

  @Test func outsideKeePassRangeClampsAndExactRefuses() {
    let before = Date(timeIntervalSince1970: Self.year1UnixSeconds - 1)
    let after = Date(timeIntervalSince1970: Self.year9999UnixSeconds + 1)
    #expect(Timestamp(before) == .minimum)
    #expect(Timestamp(after) == .maximum)
    #expect(Timestamp(Date(timeIntervalSinceReferenceDate: 1e15)) == .maximum)
    #expect(Timestamp(.distantFuture).civil.year == 4001)  // Foundation's "distant" future is inside KeePass's range
    #expect(Timestamp(Date(timeIntervalSinceReferenceDate: .nan)) == .minimum)
    #expect(Timestamp(Date(timeIntervalSinceReferenceDate: .infinity)) == .maximum)
    #expect(Timestamp(exactly: before) == nil)
    #expect(Timestamp(exactly: after) == nil)
    #expect(Timestamp(exactly: Date(timeIntervalSinceReferenceDate: .nan)) == nil)
  }

  /// A damaged file's timestamp far outside the range converts without trapping.
  @Test func extremeStoredValuesDoNotTrap() {
    #expect(Date(Timestamp(secondsSince0001: .min)).timeIntervalSinceReferenceDate < 0)
    #expect(Date(Timestamp(secondsSince0001: .max)).timeIntervalSinceReferenceDate > 0)
    #expect(Timestamp(Date(Timestamp(secondsSince0001: .max))) == .maximum)
  }

  /// Neither format counts leap seconds (POSIX time, .NET ticks): the second after 2016-12-31T23:59:59Z is
  /// 2017-01-01T00:00:00Z in both, and a KDBX 3.1 text time of 23:59:60 is not invented.
  @Test func leapSecondsAreNotCounted() throws {
    let before = try #require(
      Timestamp(CivilDateTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 59)))
    let after = try #require(Timestamp(CivilDateTime(year: 2017, month: 1, day: 1)))
    #expect(after.secondsSince0001 - before.secondsSince0001 == 1)
    #expect(Date(after).timeIntervalSince(Date(before)) == 1)
    #expect(Timestamp(Date(before).addingTimeInterval(1)) == after)
    #expect(Timestamp(CivilDateTime(year: 2016, month: 12, day: 31, hour: 23, minute: 59, second: 60)) == nil)
  }

  /// A `Date` is an instant: the same wall-clock time in two zones gives timestamps that differ by the offset, and
  /// the timestamp's civil time is UTC.
  @Test func timeZonesGiveTheUTCInstant() throws {
    var calendar = Calendar(identifier: .gregorian)
    let wall = DateComponents(year: 2024, month: 2, day: 29, hour: 0, minute: 30, second: 15)
    calendar.timeZone = try #require(TimeZone(secondsFromGMT: 14 * 3_600))  // Kiribati, the earliest zone
    let kiribati = try #require(calendar.date(from: wall))
    calendar.timeZone = try #require(TimeZone(secondsFromGMT: -12 * 3_600))  // Baker Island, the latest
    let baker = try #require(calendar.date(from: wall))
    #expect(Timestamp(kiribati).civil == CivilDateTime(year: 2024, month: 2, day: 28, hour: 10, minute: 30, second: 15))
    #expect(Timestamp(baker).civil == CivilDateTime(year: 2024, month: 2, day: 29, hour: 12, minute: 30, second: 15))
    #expect(Timestamp(baker).secondsSince0001 - Timestamp(kiribati).secondsSince0001 == 26 * 3_600)
    calendar.timeZone = try #require(TimeZone(identifier: "Europe/Berlin"))
    let summer = try #require(calendar.date(from: DateComponents(year: 2024, month: 7, day: 1, hour: 12)))
    #expect(Timestamp(summer).civil == CivilDateTime(year: 2024, month: 7, day: 1, hour: 10))
  }

  /// Foundation's Gregorian calendar switches to the Julian calendar before 1582-10-15; KDBX (like .NET) uses
  /// the proleptic Gregorian calendar. The conversion is by instant, so the KeePass civil date is kept; only a
  /// Foundation calendar would print another day for such old dates (which is why the docs point to
  /// `Timestamp.civil` for display).
  @Test func civilDatesBeforeTheGregorianReformAreProleptic() throws {
    let date = Date(Timestamp.minimum)
    #expect(Timestamp(date).civil == CivilDateTime(year: 1, month: 1, day: 1))
    let reform = try #require(Timestamp(CivilDateTime(year: 1582, month: 10, day: 15)))
    let dayBefore = try #require(Timestamp(CivilDateTime(year: 1582, month: 10, day: 14)))
    #expect(Date(reform).timeIntervalSince(Date(dayBefore)) == 86_400)
  }

  @Test func entryAndGroupDateAccessors() throws {
    var entry = Entry(uuid: KDBXUUID(UUID()))
    #expect(entry.creationDate == nil && entry.expiryDate == nil)
    let now = Date(timeIntervalSince1970: 1_700_000_000.75)
    entry.creationDate = now
    entry.modificationDate = now
    entry.lastAccessDate = now
    #expect(entry.times?.creationTime == Timestamp(unixSeconds: 1_700_000_000))
    #expect(entry.modificationDate == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(entry.lastAccessDate == Date(timeIntervalSince1970: 1_700_000_000))
    entry.expiryDate = now.addingTimeInterval(86_400)
    #expect(entry.expiry == Timestamp(unixSeconds: 1_700_086_400))
    #expect(entry.isExpired(at: Timestamp(unixSeconds: 1_700_086_400)))
    entry.expiryDate = nil
    #expect(entry.times?.expires == false)
    entry.creationDate = nil
    #expect(entry.times?.creationTime == nil)

    var group = Group(uuid: KDBXUUID(UUID()), name: "Group")
    group.expiryDate = now
    #expect(group.expiry == Timestamp(unixSeconds: 1_700_000_000))
    group.creationDate = now
    #expect(group.creationDate == Date(timeIntervalSince1970: 1_700_000_000))
    #expect(group.modificationDate == nil && group.lastAccessDate == nil)
  }
}
