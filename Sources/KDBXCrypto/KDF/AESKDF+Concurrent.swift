#if !$Embedded
  extension AESKDF {
    /// Derives the transformed key with the two halves running as two tasks, so on two cores it takes about half
    /// the time of ``transform(key:seed:rounds:progressInterval:progress:)`` and gives the same result.
    ///
    /// The rounds run in steps of `progressInterval`: in each step one half runs on a child task and the other on
    /// the calling task, and the step ends when both have (the child is awaited, which suspends: nothing spins).
    /// Between steps `progress` is called with the rounds both halves finished, and once more at the end.
    /// Cancelling the calling task or returning `false` from `progress` stops both halves within
    /// `progressInterval` rounds and throws ``CryptoError/cancelled``. It needs no atomics, so it runs in parallel
    /// on every system (``SynchronizationSupport``).
    ///
    /// In Embedded Swift builds, where the concurrency runtime may be missing, a synchronous
    /// function of the same name runs the halves one after the other.
    public static func transformConcurrently(
      key: [UInt8], seed: [UInt8], rounds: UInt64, progressInterval: UInt64 = defaultProgressInterval,
      progress: @escaping @Sendable (_ roundsDone: UInt64, _ rounds: UInt64) -> Bool = { _, _ in true }
    ) async throws(CryptoError) -> [UInt8] {
      let (aes, first, second) = try prepare(key: key, seed: seed)
      var (a, b) = (first, second)
      let interval = max(progressInterval, 1)
      var done: UInt64 = 0
      while done < rounds {
        if Task.isCancelled { throw CryptoError.cancelled }
        let step = min(interval, rounds - done)
        let (start, other) = (a, b)
        (a, b) = await withTaskGroup(of: AESWords.self) { group in
          group.addTask {
            var half = start
            aes.encryptRepeatedly(&half, count: step)
            return half
          }
          var mine = other
          aes.encryptRepeatedly(&mine, count: step)
          var theirs = start
          for await half in group { theirs = half }
          return (theirs, mine)
        }
        done += step
        if done < rounds, !progress(done, rounds) { throw CryptoError.cancelled }
      }
      guard progress(rounds, rounds) else { throw CryptoError.cancelled }
      return finish(a, b)
    }
  }
#else
  extension AESKDF {
    /// Embedded fallback: the same derivation, run sequentially on the calling thread.
    public static func transformConcurrently(
      key: [UInt8], seed: [UInt8], rounds: UInt64, progressInterval: UInt64 = defaultProgressInterval,
      progress: Progress = { _, _ in true }
    ) throws(CryptoError) -> [UInt8] {
      try transform(key: key, seed: seed, rounds: rounds, progressInterval: progressInterval, progress: progress)
    }
  }
#endif
