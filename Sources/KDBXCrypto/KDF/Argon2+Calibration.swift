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
    /// The measured costs of one calibration run: the first pass (which also pays for allocation and page
    /// faults) and one later pass, timed inside a single two-pass derivation.
    public struct PassTimings: Sendable, Equatable {
      public var firstPass: Duration
      public var laterPass: Duration

      public init(firstPass: Duration, laterPass: Duration) {
        self.firstPass = firstPass
        self.laterPass = laterPass
      }

      /// The iterations closest to `target` (``Argon2/iterations(forTarget:firstPass:laterPass:)``).
      public func iterations(forTarget target: Duration) -> Int {
        Argon2.iterations(forTarget: target, firstPass: firstPass, laterPass: laterPass)
      }

      /// The expected duration of a derivation with `iterations` passes.
      public func duration(iterations: Int) -> Duration { firstPass + laterPass * max(iterations - 1, 0) }
    }

    /// Times the passes of one two-pass derivation with `memoryKiB` and `lanes`, the lanes on up to
    /// `maxConcurrency` threads (the synchronous parallel path that unlocking uses), in fresh memory.
    ///
    /// Both passes are timed in the same run (from the slice progress reports), so the later pass is measured on
    /// memory that is already mapped and the first pass includes the page faults, as in a real unlock. Timing two
    /// separate runs instead makes the difference between them depend on whether the allocator hands back the
    /// same pages, which can inflate the iterations many times over.
    /// - Throws: the parameter and memory errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``.
    public static func measurePasses(
      variant: Variant = .id, memoryKiB: Int, lanes: Int, maxConcurrency: Int,
      memoryLimitBytes: Int = defaultMemoryLimitBytes
    ) throws(CryptoError) -> PassTimings {
      let parameters = try Parameters(variant: variant, iterations: 2, memoryKiB: memoryKiB, lanes: lanes)
      return try timePasses { progress throws(CryptoError) in
        _ = try deriveKey(
          password: [], salt: [UInt8](repeating: 0, count: 16), parameters: parameters,
          memoryLimitBytes: memoryLimitBytes, maxConcurrency: maxConcurrency, progress: progress)
      }
    }

    /// ``measurePasses(variant:memoryKiB:lanes:maxConcurrency:memoryLimitBytes:)`` in block memory the caller
    /// maps the way it will map it to unlock (for example with huge pages); it must be freshly mapped, holding at
    /// least ``estimate(parameters:)`` bytes for two passes of these parameters. Pass the `prefault` hook that
    /// unlocking will use too.
    public static func measurePasses(
      // SAFETY: `memory` goes to deriveKey(..., memory:), which checks its size and alignment before writing.
      variant: Variant = .id, memoryKiB: Int, lanes: Int, maxConcurrency: Int, memory: UnsafeMutableRawBufferPointer,
      prefault: MemoryPrefault? = nil
    ) throws(CryptoError) -> PassTimings {
      let parameters = try Parameters(variant: variant, iterations: 2, memoryKiB: memoryKiB, lanes: lanes)
      return try timePasses { progress throws(CryptoError) in
        _ = try deriveKey(
          password: [], salt: [UInt8](repeating: 0, count: 16), parameters: parameters, memory: memory,
          maxConcurrency: maxConcurrency, prefault: prefault, progress: progress)
      }
    }

    /// Runs `derive` with a progress handler that notes the end of the first pass, and times both passes.
    static func timePasses(_ derive: (@escaping ProgressHandler) throws(CryptoError) -> Void) throws(CryptoError)
      -> PassTimings
    {
      let clock = ContinuousClock()
      let start = clock.now
      var firstPassEnd = start
      var secondPassEnd = start
      try derive { step in
        if step.slice == Argon2Geometry.syncPoints - 1 {
          if step.pass == 0 { firstPassEnd = clock.now } else { secondPassEnd = clock.now }
        }
        return true
      }
      // The tag and the wiping of the block memory happen once per derivation: they count with the first pass.
      let end = clock.now
      return PassTimings(
        firstPass: firstPassEnd - start + (end - secondPassEnd), laterPass: secondPassEnd - firstPassEnd)
    }

    /// Finds the iterations that make a derivation with `memoryKiB` and `lanes` take about `target` on this
    /// machine, lanes running on up to `maxConcurrency` threads (the way unlocking will run them).
    ///
    /// It runs one two-pass derivation (``measurePasses(variant:memoryKiB:lanes:maxConcurrency:memoryLimitBytes:)``)
    /// with the stdlib `ContinuousClock`, then applies ``iterations(forTarget:firstPass:laterPass:)``.
    /// This is the "decryption time" setting of KeePass clients; `memoryKiB` is the memory budget (for
    /// example the AutoFill ceiling of a mobile app).
    /// - Throws: the parameter and memory errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``.
    public static func calibrateIterations(
      variant: Variant = .id, memoryKiB: Int, lanes: Int, target: Duration, maxConcurrency: Int = 1,
      memoryLimitBytes: Int = defaultMemoryLimitBytes
    ) throws(CryptoError) -> Int {
      try measurePasses(
        variant: variant, memoryKiB: memoryKiB, lanes: lanes, maxConcurrency: maxConcurrency,
        memoryLimitBytes: memoryLimitBytes
      ).iterations(forTarget: target)
    }
  }

#endif
