// Argon2 cost planning: how many iterations fit a time budget (what KeePass calls "1 second delay").

extension Argon2 {
  /// The iterations whose run time comes closest to `target`, given the measured duration of a one-pass run
  /// and the extra duration of each further pass.
  ///
  /// A run costs `firstPass + (t - 1) * laterPass`: the first pass also pays for allocation and page faults.
  /// The result is clamped to 1...2^32-1 (RFC 9106 §3.1).
  public static func iterations(forTarget target: Duration, firstPass: Duration, laterPass: Duration) -> Int {
    guard laterPass > .zero else { return 1 }
    let extra = (target - firstPass) / laterPass
    guard extra > 0 else { return 1 }
    guard extra < Double(UInt32.max) - 1 else { return Int(UInt32.max) }
    return 1 + Int(extra + 0.5)  // round to nearest without libm (Embedded)
  }
}

#if !$Embedded

  extension Argon2 {
    /// Finds the iterations that make a derivation with `memoryKiB` and `lanes` take about `target` on this
    /// machine, lanes running on up to `maxConcurrency` tasks (the way unlocking will run them).
    ///
    /// It times a one-pass and a two-pass derivation (so it takes about three passes' worth of time) with
    /// the stdlib `ContinuousClock`, then applies ``iterations(forTarget:firstPass:laterPass:)``.
    /// This is the "decryption time" setting of KeePass clients; `memoryKiB` is the memory budget (for
    /// example the AutoFill ceiling of a mobile app).
    /// - Throws: the parameter and memory errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``.
    public static func calibrateIterations(
      variant: Variant = .id, memoryKiB: Int, lanes: Int, target: Duration, maxConcurrency: Int,
      memoryLimitBytes: Int = defaultMemoryLimitBytes
    ) async throws(CryptoError) -> Int {
      let clock = ContinuousClock()
      var durations: [Duration] = []
      for passes in 1...2 {
        let parameters = try Parameters(variant: variant, iterations: passes, memoryKiB: memoryKiB, lanes: lanes)
        let start = clock.now
        _ = try await deriveKey(
          password: [], salt: [UInt8](repeating: 0, count: 16), parameters: parameters,
          memoryLimitBytes: memoryLimitBytes, maxConcurrency: maxConcurrency)
        durations.append(clock.now - start)
      }
      return iterations(forTarget: target, firstPass: durations[0], laterPass: durations[1] - durations[0])
    }

    /// The synchronous form of ``calibrateIterations(variant:memoryKiB:lanes:target:maxConcurrency:memoryLimitBytes:)``,
    /// timing lanes that run one after another on the calling thread.
    public static func calibrateIterations(
      variant: Variant = .id, memoryKiB: Int, lanes: Int, target: Duration,
      memoryLimitBytes: Int = defaultMemoryLimitBytes
    ) throws(CryptoError) -> Int {
      let clock = ContinuousClock()
      var durations: [Duration] = []
      for passes in 1...2 {
        let parameters = try Parameters(variant: variant, iterations: passes, memoryKiB: memoryKiB, lanes: lanes)
        let start = clock.now
        _ = try deriveKey(
          password: [], salt: [UInt8](repeating: 0, count: 16), parameters: parameters,
          memoryLimitBytes: memoryLimitBytes)
        durations.append(clock.now - start)
      }
      return iterations(forTarget: target, firstPass: durations[0], laterPass: durations[1] - durations[0])
    }
  }

#endif
