import KDBX
import KDBXBase
import Testing

@Suite struct TimestampTests {
  @Test func unixEpochIs62135596800SecondsAfterYear1() throws {
    let epoch = try #require(Timestamp(CivilDateTime(year: 1970, month: 1, day: 1)))
    #expect(epoch.secondsSince0001 == 62_135_596_800)
    #expect(Timestamp(unixSeconds: 0) == epoch)
    #expect(Timestamp.minimum.civil == CivilDateTime(year: 1, month: 1, day: 1))
    #expect(Timestamp.maximum.civil == CivilDateTime(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 59))
  }

  @Test func knownUnixTimes() throws {
    // 2000-02-29T12:34:56Z = 951827696 (a leap day); 2038-01-19T03:14:08Z = 2^31.
    #expect(
      Timestamp(unixSeconds: 951_827_696).civil
        == CivilDateTime(year: 2000, month: 2, day: 29, hour: 12, minute: 34, second: 56))
    #expect(
      Timestamp(unixSeconds: 2_147_483_648).civil
        == CivilDateTime(year: 2038, month: 1, day: 19, hour: 3, minute: 14, second: 8))
    #expect(Timestamp(CivilDateTime(year: 1900, month: 2, day: 29)) == nil)
    #expect(Timestamp(CivilDateTime(year: 2024, month: 13, day: 1)) == nil)
  }

  @Test func civilRoundTripEveryDayOfSomeYears() throws {
    for year in [1, 4, 100, 1600, 1900, 1970, 2000, 2024, 9999] {
      for month in 1...12 {
        for day in 1...CivilDateTime.daysInMonth(year: year, month: month) {
          let civil = CivilDateTime(year: year, month: month, day: day, hour: 23, minute: 1, second: 2)
          let stamp = try #require(Timestamp(civil))
          #expect(stamp.civil == civil)
        }
      }
    }
  }

  @Test func iso8601() throws {
    let stamp = try #require(ISO8601.parse("2030-01-01T00:00:00Z"))
    #expect(stamp.unixSeconds == 1_893_456_000)
    #expect(ISO8601.format(stamp) == "2030-01-01T00:00:00Z")
    #expect(ISO8601.parse("2030-01-01T01:30:00+01:30") == stamp)
    #expect(ISO8601.parse("2030-01-01T00:00:00.1234567Z") == stamp)
    #expect(ISO8601.parse("2030-01-01T00:00:00") == stamp)
    #expect(ISO8601.parse("2030-1-01T00:00:00Z") == nil)
    #expect(ISO8601.parse("2030-01-01T00:00:00Zjunk") == nil)
    #expect(ISO8601.parse("2030-02-30T00:00:00Z") == nil)
  }

  @Test func kdbx4BinaryTime() throws {
    // 2030-01-01T00:00:00Z = 1893456000 + 62135596800 = 64029052800 = 0x0000000EE86DCF80.
    let stamp = Timestamp(secondsSince0001: 64_029_052_800)
    #expect(KDBXTime.encodeBinary(stamp) == Base64.encode([0x80, 0xCF, 0x6D, 0xE8, 0x0E, 0, 0, 0]))
    #expect(KDBXTime.decode(KDBXTime.encodeBinary(stamp)) == stamp)
    #expect(KDBXTime.decode("2030-01-01T00:00:00Z") == stamp)
    #expect(KDBXTime.encode(stamp, version: .v3_1) == "2030-01-01T00:00:00Z")
    #expect(KDBXTime.decode("not a time") == nil)
  }
}
