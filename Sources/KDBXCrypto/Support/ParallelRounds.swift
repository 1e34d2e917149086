// Rounds of parallel work for synchronous callers, with helpers that stay between rounds: Argon2 synchronizes its
// lanes after every slice, and starting a new task for each slice costs a thread wake-up each time (measured at up
// to 3 ms in a virtual machine whose idle processor has halted, against 5 ms of work per slice).
#if !$Embedded
  import Synchronization
#endif

/// Runs rounds `0..<rounds` of work items, each round's items in parallel and every round only after the previous
/// one has finished, for synchronous callers (Argon2 slices: RFC 9106 §3.4).
///
/// The calling thread works too, and up to `maxConcurrency - 1` detached tasks on the global concurrent executor
/// help. A helper stays between rounds, watching for the next one, for up to `helperPatience`; one that gave up
/// (or never started, on a busy executor) is replaced at the next round. As in ``ParallelWork``, items are
/// claimed from a shared counter, so the calling thread never waits for a helper that has not started, and it
/// waits for an item another thread runs by blocking on that item's lock. In Embedded Swift, and on Apple systems
/// without `Synchronization` (before macOS 15 / iOS 18: ``SynchronizationSupport``), everything runs on the calling
/// thread.
struct ParallelRounds {
  /// The most items any round has (less than 2^24).
  let maxItemCount: Int
  /// The number of items of round `round`, at most `maxItemCount`.
  let itemCount: @Sendable (_ round: Int) -> Int
  /// Runs item `item` of round `round`.
  let body: @Sendable (_ round: Int, _ item: Int) -> Void
  /// Threads at most, the calling one included.
  let maxConcurrency: Int
  /// How long a helper watches for the next round before it ends.
  var helperPatience: Duration = .milliseconds(10)

  /// Runs every round; `afterRound` is called on the calling thread after each (a thrown error stops the rounds
  /// and is rethrown once the helpers have been told to stop).
  func run<Failure: Error>(rounds: Int, afterRound: (Int) throws(Failure) -> Void) throws(Failure) {
    #if !$Embedded
      guard maxConcurrency > 1, maxItemCount > 1, SynchronizationSupport.isAvailable else {
        try runSequentially(rounds: rounds, afterRound: afterRound)
        return
      }
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        try runInParallel(rounds: rounds, afterRound: afterRound)
      } else {
        try runSequentially(rounds: rounds, afterRound: afterRound)
      }
    #else
      try runSequentially(rounds: rounds, afterRound: afterRound)
    #endif
  }

  #if !$Embedded
    /// The parallel rounds, on the systems that have `Synchronization` (``SynchronizationSupport``).
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    private func runInParallel<Failure: Error>(rounds: Int, afterRound: (Int) throws(Failure) -> Void)
      throws(Failure)
    {
      let shared = RoundState(
        itemCapacity: maxItemCount, itemCount: itemCount, body: body, patience: helperPatience)
      defer { shared.stop() }
      let helpers = Swift.min(maxConcurrency, maxItemCount) - 1
      for round in 0..<rounds {
        shared.publish(round)
        shared.startHelpers(upTo: helpers)
        shared.runClaimedItems(ofRound: round)
        shared.waitForRound(round)
        try afterRound(round)
      }
    }
  #endif

  private func runSequentially<Failure: Error>(rounds: Int, afterRound: (Int) throws(Failure) -> Void)
    throws(Failure)
  {
    for round in 0..<rounds {
      for item in 0..<itemCount(round) { body(round, item) }
      try afterRound(round)
    }
  }
}

#if !$Embedded
  /// The state the calling thread and the helpers share.
  ///
  /// `claim` holds the published round and the next unclaimed item of it in one word (`round << 24 | item`), so a
  /// helper can only ever claim an item of the round that is current, and `-1` tells the helpers to end. Each item
  /// slot has a lock holding the last round whose item finished in it; `finished` counts finished items over all
  /// rounds, with release/acquire ordering that ThreadSanitizer sees (it does not see through the locks).
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  private final class RoundState: @unchecked Sendable {
    static let itemBits = 24
    let claim = Atomic<Int>(0)
    let finished = Atomic<Int>(0)
    let helpersRunning = Atomic<Int>(0)
    let itemCount: @Sendable (Int) -> Int
    let body: @Sendable (Int, Int) -> Void
    let patience: Duration
    /// Items finished before the current round, for `waitForRound`. Only the calling thread uses it.
    var finishedBefore = 0
    let itemCapacity: Int
    /// SAFETY: allocated and initialized for `itemCapacity` items in `init`, used only through `withLock`,
    /// deinitialized in `deinit`, when no thread uses the state any more (the helpers hold a reference).
    let locks: UnsafeMutablePointer<Mutex<Int>>

    init(
      itemCapacity: Int, itemCount: @escaping @Sendable (Int) -> Int, body: @escaping @Sendable (Int, Int) -> Void,
      patience: Duration
    ) {
      precondition(itemCapacity < 1 << RoundState.itemBits)
      self.itemCapacity = itemCapacity
      self.itemCount = itemCount
      self.body = body
      self.patience = patience
      locks = .allocate(capacity: itemCapacity)
      for index in 0..<itemCapacity { (locks + index).initialize(to: Mutex(-1)) }
    }

    deinit {
      locks.deinitialize(count: itemCapacity)
      locks.deallocate()
    }

    func publish(_ round: Int) {
      claim.store(round << RoundState.itemBits, ordering: .releasing)
    }

    func stop() {
      claim.store(-1, ordering: .releasing)
    }

    /// Starts helpers until `count` are running (a helper that gave up is replaced).
    func startHelpers(upTo count: Int) {
      while helpersRunning.load(ordering: .relaxed) < count {
        helpersRunning.wrappingAdd(1, ordering: .relaxed)
        Task.detached { self.helperLoop() }
      }
    }

    /// Claims and runs items of `round` until none is left or the round is no longer current.
    func runClaimedItems(ofRound round: Int) {
      while true {
        let word = claim.load(ordering: .acquiring)
        guard word >= 0, word >> RoundState.itemBits == round else { return }
        let item = word & ((1 << RoundState.itemBits) - 1)
        guard item < itemCount(round) else { return }
        guard claim.compareExchange(expected: word, desired: word + 1, ordering: .acquiringAndReleasing).exchanged
        else { continue }
        locks[item].withLock { finishedRound in
          body(round, item)
          finished.wrappingAdd(1, ordering: .releasing)
          finishedRound = round
        }
      }
    }

    /// Returns once every item of `round` has finished.
    func waitForRound(_ round: Int) {
      let count = itemCount(round)
      precondition(count <= itemCapacity)
      for item in 0..<count {
        while locks[item].withLock({ $0 }) != round {}
      }
      finishedBefore += count
      while finished.load(ordering: .acquiring) < finishedBefore {}
    }

    /// A helper: runs items of each round as it is published, and ends after `patience` without a new round, or
    /// when told to stop.
    func helperLoop() {
      defer { helpersRunning.wrappingSubtract(1, ordering: .relaxed) }
      let clock = ContinuousClock()
      var lastRound = -1
      var idleSince = clock.now
      var checks = 0
      while true {
        let word = claim.load(ordering: .acquiring)
        guard word >= 0 else { return }
        let round = word >> RoundState.itemBits
        if round != lastRound {
          lastRound = round
          runClaimedItems(ofRound: round)
          idleSince = clock.now
          continue
        }
        checks &+= 1
        if checks & 1023 == 0 && clock.now - idleSince > patience { return }
      }
    }
  }
#endif
