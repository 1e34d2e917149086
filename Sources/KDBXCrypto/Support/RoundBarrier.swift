// The sync point of the async Argon2 driver: workers suspend between rounds instead of spinning.
// Structured concurrency is not available in Embedded Swift, where the synchronous drivers remain.
#if !$Embedded

  /// Rounds of work on a fixed set of worker tasks, each round starting only after every worker finished the
  /// previous one (Argon2's slices, RFC 9106 §3.4), where waiting always suspends: a worker that finished its part of
  /// a round, and the coordinator waiting for the round's end, give their thread back to the executor. So workers
  /// need no thread of their own: `lanes` workers finish on a pool of any size (one thread runs them in turn), and
  /// other tasks on the pool run at every round's end.
  ///
  /// The coordinator calls ``release(_:)`` with each round, then ``waitForRound()``; workers call
  /// ``waitForRelease(of:)`` before each round and ``finish()`` after their part of it. ``stop()`` ends the workers
  /// at their next ``waitForRelease(of:)``.
  actor RoundBarrier {
    private let workers: Int
    /// The last round released; -1 before the first.
    private var released = -1
    private var stopped = false
    private var finished = 0
    private var waitingWorkers: [CheckedContinuation<Bool, Never>] = []
    private var coordinator: CheckedContinuation<Void, Never>?

    init(workers: Int) {
      self.workers = workers
    }

    /// Suspends until round `round` is released; `false` when the rounds were stopped instead.
    func waitForRelease(of round: Int) async -> Bool {
      if stopped { return false }
      if released >= round { return true }
      return await withCheckedContinuation { waitingWorkers.append($0) }
    }

    /// A worker finished its part of the current round.
    func finish() {
      finished += 1
      if finished == workers, let coordinator {
        self.coordinator = nil
        coordinator.resume()
      }
    }

    /// Starts round `round` for every worker.
    func release(_ round: Int) {
      released = round
      finished = 0
      resumeWorkers(with: true)
    }

    /// Suspends until every worker finished the current round.
    func waitForRound() async {
      if finished < workers {
        await withCheckedContinuation { coordinator = $0 }
      }
    }

    /// Ends the workers (those waiting now, and every later ``waitForRelease(of:)``).
    func stop() {
      stopped = true
      resumeWorkers(with: false)
    }

    private func resumeWorkers(with go: Bool) {
      let waiting = waitingWorkers
      waitingWorkers = []
      for worker in waiting { worker.resume(returning: go) }
    }
  }

#endif
