// AES-KDF cost planning: how many rounds fit a time budget (what KeePass calls "1 second delay").

extension AESKDF {
  /// The fewest rounds a calibration returns, however short the target: 10,000, the step in which
  /// KeePassXC's AES-KDF benchmark counts rounds (so it never returns fewer either).
  public static var minimumCalibratedRounds: UInt64 { 10_000 }

  /// The rounds whose run time comes closest to `target`, given that `sampleRounds` rounds took
  /// `sampleDuration`.
  ///
  /// The cost of the transform is linear in the rounds (each round is one AES-256 encryption of
  /// each half, FIPS 197 §5.1; the final SHA-256 is negligible), so the sample is scaled. The result
  /// is at least ``minimumCalibratedRounds`` and at most `UInt64.max`.
  public static func rounds(forTarget target: Duration, sampleRounds: UInt64, sampleDuration: Duration) -> UInt64 {
    guard sampleDuration > .zero, sampleRounds > 0 else { return minimumCalibratedRounds }
    let scaled = Double(sampleRounds) * (target / sampleDuration)
    guard scaled < Double(UInt64.max) / 2 else { return UInt64.max }
    return max(minimumCalibratedRounds, UInt64(max(scaled, 0) + 0.5))  // round to nearest without libm
  }
}

#if !$Embedded

  extension AESKDF {
    /// Finds the rounds that make ``transform(key:seed:rounds:progressInterval:implementation:progress:)``
    /// take about `target` on this machine, on the calling thread (the way unlocking runs it).
    ///
    /// It takes a ``measureSample(implementation:minimumDuration:)`` and applies
    /// ``rounds(forTarget:sampleRounds:sampleDuration:)``. This is the "decryption time" setting of
    /// KeePass clients, which likewise time a block of rounds and scale.
    /// - Throws: the errors of the transform, which its fixed 32-byte key and seed never trigger.
    public static func calibrateRounds(
      target: Duration, implementation: Implementation = .tableBased,
      minimumSampleDuration: Duration = .milliseconds(100)
    ) throws(CryptoError) -> UInt64 {
      let sample = try measureSample(implementation: implementation, minimumDuration: minimumSampleDuration)
      return rounds(forTarget: target, sampleRounds: sample.rounds, sampleDuration: sample.duration)
    }

    /// Times the transform of a fixed key under a fixed seed with the stdlib `ContinuousClock`, starting
    /// at 2^14 rounds and doubling until one run lasts at least `minimumDuration` (so that a slow build or
    /// device is not sampled for long, and a fast one not too briefly).
    /// - Returns: the rounds of the last run and how long it took.
    /// - Throws: the errors of the transform, which its fixed 32-byte key and seed never trigger.
    public static func measureSample(
      implementation: Implementation = .tableBased, minimumDuration: Duration = .milliseconds(100)
    ) throws(CryptoError) -> (rounds: UInt64, duration: Duration) {
      let clock = ContinuousClock()
      let key = [UInt8](repeating: 0x7e, count: 32)
      let seed = [UInt8](repeating: 0x4b, count: 32)
      var sample: UInt64 = 1 << 14
      while true {
        let start = clock.now
        _ = try transform(key: key, seed: seed, rounds: sample, implementation: implementation)
        let elapsed = clock.now - start
        if elapsed >= minimumDuration || sample >= 1 << 40 { return (sample, elapsed) }
        sample *= 2
      }
    }
  }

#endif
