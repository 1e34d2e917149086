// Parallel work for `async` callers: the calling task and unstructured helper tasks claim items from a shared
// counter, and the calling task suspends (it never blocks a thread) until the items it did not run are done.
#if !$Embedded
  import Synchronization

  /// Runs `body(0)`, …, `body(count - 1)` once each on the calling task and up to `maxConcurrency - 1` helper tasks,
  /// and returns when all have finished; everything they wrote is visible to the caller afterwards.
  ///
  /// Items are claimed from a shared counter, as in ``ParallelWork``: the calling task claims whatever no helper has
  /// started, so a helper that starts late (on a busy machine, or a busy cooperative pool) costs nothing but its
  /// start, and the calling task suspends only for items that a helper is running. Helpers are unstructured tasks
  /// that are not awaited: one that starts after the last item was claimed finds nothing to do and ends, without
  /// touching anything `body` uses. (A task group would have to await every child, even one that starts last and
  /// finds nothing: under load that wait is the whole tax.) Without `Synchronization` (Apple systems before
  /// macOS 15 / iOS 18: ``SynchronizationSupport``) the items run on a task group instead, worker `w` taking items
  /// `w`, `w + workers`, ….
  package func runInParallel(count: Int, maxConcurrency: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    let workers = Swift.max(1, Swift.min(maxConcurrency, count))
    guard workers > 1 else {
      for item in 0..<count { body(item) }
      return
    }
    if SynchronizationSupport.isAvailable, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      let items = ClaimedItems(count: count)
      for _ in 1..<workers {
        Task { items.runClaimedItems(body) }
      }
      items.runClaimedItems(body)
      await items.waitForAll()
      return
    }
    await withTaskGroup(of: Void.self) { group in
      for worker in 1..<workers {
        group.addTask {
          for item in stride(from: worker, to: count, by: workers) { body(item) }
        }
      }
      for item in stride(from: 0, to: count, by: workers) { body(item) }
      await group.waitForAll()
    }
  }

  /// The claims and completion of one batch of items for ``runInParallel(count:maxConcurrency:_:)``.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  private final class ClaimedItems: Sendable {
    /// The next unclaimed item.
    let next = Atomic<Int>(0)
    /// Items finished, as an atomic too: its release/acquire pair orders the items' writes before the caller's
    /// reads in a way ThreadSanitizer sees (it does not see through the lock's atomics).
    let finished = Atomic<Int>(0)
    let count: Int
    /// Items finished, and the calling task's continuation while it waits for the last of them.
    let state = Mutex<(finished: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))

    init(count: Int) { self.count = count }

    /// Claims and runs items until none is left.
    func runClaimedItems(_ body: (Int) -> Void) {
      while true {
        let item = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard item < count else { return }
        body(item)
        finished.wrappingAdd(1, ordering: .releasing)
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
          state.finished += 1
          guard state.finished == count else { return nil }
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume()
      }
    }

    /// Returns once every item has finished, suspending (not blocking) while helpers run the last ones.
    func waitForAll() async {
      if state.withLock({ $0.finished }) < count {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          let done = state.withLock { state -> Bool in
            if state.finished == count { return true }
            state.waiter = continuation
            return false
          }
          if done { continuation.resume() }
        }
      }
      while finished.load(ordering: .acquiring) < count {}
    }
  }
#endif
