// One piece of work started now on a helper task and collected later by a synchronous caller: the stages of a
// pipeline (a save compresses what it has serialized while it serializes the rest).
#if !$Embedded
  import Synchronization
#endif

/// Work started by ``ParallelWork/start(_:)``: ``result()`` returns its value.
///
/// The work runs at most once: on a detached task of the global concurrent executor if one starts it first, else
/// on the thread that asks for the result (so that a caller never waits for a helper that has not started, as with
/// ``ParallelWork``). In Embedded Swift, and on Apple systems without `Synchronization`, it runs in ``result()``.
package struct StartedWork<T: Sendable>: Sendable {
  #if !$Embedded
    private let item: BackgroundItem<T>?
  #endif
  private let body: @Sendable () -> T

  init(_ body: @escaping @Sendable () -> T) {
    self.body = body
    #if !$Embedded
      if SynchronizationSupport.isAvailable, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        let item = BackgroundItem(body)
        Task.detached { item.runIfUnclaimed() }
        self.item = item
      } else {
        item = nil
      }
    #endif
  }

  /// Work that is already done: ``result()`` returns `value`.
  package init(value: T) {
    body = { value }
    #if !$Embedded
      item = nil
    #endif
  }

  /// Work that runs only if it is asked for: ``result()`` runs `body` on the calling thread, each time it is
  /// called; no helper starts it.
  package init(deferred body: @escaping @Sendable () -> T) {
    self.body = body
    #if !$Embedded
      item = nil
    #endif
  }

  /// Whether the work has finished (on a helper), so that ``result()`` would not wait. Always `false` where the
  /// work runs in ``result()``.
  package var isFinished: Bool {
    #if !$Embedded
      if let item, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return item.isFinished }
    #endif
    return false
  }

  /// The work's value: computed here if no helper has started it, else waited for.
  package func result() -> T {
    #if !$Embedded
      if let item, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return item.result() }
    #endif
    return body()
  }
}

extension ParallelWork {
  /// Starts `body` on a helper task now and returns at once; ``StartedWork/result()`` collects its value (running
  /// `body` on the calling thread if no helper has started it by then).
  package static func start<T: Sendable>(_ body: @escaping @Sendable () -> T) -> StartedWork<T> {
    StartedWork(body)
  }
}

#if !$Embedded
  /// The claim and the result of one started work item. Whoever claims it runs it holding the lock, so a caller
  /// that finds it claimed blocks in the lock (a futex on Linux) until it is done; it spins only in the instant
  /// between the helper's claim and its taking the lock.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  private final class BackgroundItem<T: Sendable>: Sendable {
    private let claimed = Atomic<Bool>(false)
    /// Set with release ordering once the value is stored, for ThreadSanitizer, which does not see through the
    /// lock's atomics in an uninstrumented library.
    private let finished = Atomic<Bool>(false)
    private let value = Mutex<T?>(nil)
    private let body: @Sendable () -> T

    init(_ body: @escaping @Sendable () -> T) {
      self.body = body
    }

    /// Runs the work if nobody has claimed it yet.
    func runIfUnclaimed() {
      guard claimed.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
      else { return }
      value.withLock { stored in
        stored = body()
        finished.store(true, ordering: .releasing)
      }
    }

    var isFinished: Bool { finished.load(ordering: .acquiring) }

    func result() -> T {
      runIfUnclaimed()
      while true {
        if let stored = value.withLock({ $0 }), finished.load(ordering: .acquiring) { return stored }
      }
    }
  }
#endif
