import KDBX
import Testing

@testable import kdbx

/// `kdbx analyze`'s arithmetic on times read from a file, which may hold any `Int64` (KDBX 4 stores times as eight
/// bytes): the days since a password changed were computed with a plain subtraction, which overflowed and stopped
/// the tool for a crafted `LastModificationTime`.
@Suite struct AnalyzeCommandTests {
  static let now = Timestamp(unixSeconds: 1_700_000_000)

  @Test func daysBetweenOrdinaryTimes() {
    #expect(AnalyzeCommand.days(from: Timestamp(unixSeconds: 1_700_000_000 - 3 * 86_400 - 5), to: Self.now) == 3)
    #expect(AnalyzeCommand.days(from: Self.now, to: Self.now) == 0)
    #expect(AnalyzeCommand.days(from: Timestamp(unixSeconds: 1_700_000_000 + 86_400), to: Self.now) == -1)
  }

  @Test func daysFromTimesAtTheEndsOfInt64DoNotOverflow() {
    #expect(AnalyzeCommand.days(from: Timestamp(secondsSince0001: .min), to: Self.now) == .max)
    #expect(AnalyzeCommand.days(from: Timestamp(secondsSince0001: .max), to: Timestamp(secondsSince0001: .min)) == .min)
    #expect(AnalyzeCommand.days(from: Timestamp(secondsSince0001: .max), to: Self.now) < 0)
  }
}
