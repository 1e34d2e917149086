import KDBXCrypto
import Testing

/// AES-KDF rounds for a time budget: the scaling rule on fixed numbers, and the measured calibration's bounds
/// (never its timing).
@Suite("AES-KDF calibration")
struct AESKDFCalibrationTests {
  @Test("a sample scales linearly to the target")
  func scalesLinearly() {
    let rounds = AESKDF.rounds(forTarget: .seconds(1), sampleRounds: 100_000, sampleDuration: .milliseconds(50))
    #expect(rounds == 2_000_000)
    let half = AESKDF.rounds(forTarget: .milliseconds(500), sampleRounds: 300_000, sampleDuration: .milliseconds(200))
    #expect(half == 750_000)
  }

  @Test("short targets and degenerate samples give the minimum")
  func clampsToMinimum() {
    #expect(AESKDF.minimumCalibratedRounds == 10_000)
    let tiny = AESKDF.rounds(forTarget: .milliseconds(1), sampleRounds: 16_384, sampleDuration: .milliseconds(100))
    #expect(tiny == AESKDF.minimumCalibratedRounds)
    #expect(AESKDF.rounds(forTarget: .seconds(1), sampleRounds: 1_000, sampleDuration: .zero) == 10_000)
    #expect(AESKDF.rounds(forTarget: .seconds(1), sampleRounds: 0, sampleDuration: .seconds(1)) == 10_000)
    #expect(AESKDF.rounds(forTarget: .zero, sampleRounds: 1_000, sampleDuration: .seconds(1)) == 10_000)
  }

  @Test("huge ratios saturate instead of trapping")
  func saturates() {
    let rounds = AESKDF.rounds(
      forTarget: .seconds(1_000_000_000), sampleRounds: UInt64.max / 2, sampleDuration: .nanoseconds(1))
    #expect(rounds == UInt64.max)
  }

  @Test("the measured calibration returns at least the minimum")
  func measured() throws {
    let rounds = try AESKDF.calibrateRounds(target: .milliseconds(20), minimumSampleDuration: .milliseconds(5))
    #expect(rounds >= AESKDF.minimumCalibratedRounds)
  }
}
