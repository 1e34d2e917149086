#if !$Embedded
  import Synchronization

  /// Shared state of the two halves: rounds finished by the slower half, and a stop flag.
  private final class AESKDFShared: Sendable {
    let done = Atomic<UInt64>(0)
    let stop = Atomic<Bool>(false)
  }

  extension AESKDF {
    /// Derives the transformed key with the two halves running as two child tasks, so on two
    /// cores it takes about half the time of ``transform(key:seed:rounds:progressInterval:progress:)``
    /// and gives the same result.
    ///
    /// `progress` is called from the task of the first half with the rounds finished by both
    /// halves (the minimum of the two), and once more at the end. Cancelling the calling task or
    /// returning `false` from `progress` stops both halves within `progressInterval` rounds and
    /// throws ``CryptoError/cancelled``.
    ///
    /// In Embedded Swift builds, where the concurrency runtime may be missing, a synchronous
    /// function of the same name runs the halves one after the other.
    public static func transformConcurrently(
      key: [UInt8], seed: [UInt8], rounds: UInt64, progressInterval: UInt64 = defaultProgressInterval,
      progress: @escaping @Sendable (_ roundsDone: UInt64, _ rounds: UInt64) -> Bool = { _, _ in true }
    ) async throws(CryptoError) -> [UInt8] {
      let (aes, first, second) = try prepare(key: key, seed: seed)
      let interval = max(progressInterval, 1)
      let shared = AESKDFShared()
      let halves = await withTaskGroup(of: (Int, AESWords?).self) { group in
        for (index, start) in [(0, first), (1, second)] {
          group.addTask {
            var half = start
            var done: UInt64 = 0
            while done < rounds {
              if shared.stop.load(ordering: .relaxed) || Task.isCancelled {
                shared.stop.store(true, ordering: .relaxed)
                return (index, nil)
              }
              let step = min(interval, rounds - done)
              aes.encryptRepeatedly(&half, count: step)
              done += step
              if index == 1 {
                shared.done.store(done, ordering: .releasing)
              } else if !progress(min(done, shared.done.load(ordering: .acquiring)), rounds) {
                shared.stop.store(true, ordering: .relaxed)
                return (index, nil)
              }
            }
            return (index, half)
          }
        }
        var results: [AESWords?] = [nil, nil]
        for await (index, half) in group { results[index] = half }
        return results
      }
      guard let a = halves[0], let b = halves[1], !shared.stop.load(ordering: .relaxed) else {
        throw CryptoError.cancelled
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
