// Parallel work for synchronous callers, without threads of our own: the library may not import Glibc, so
// helpers are detached tasks on the global concurrent executor, and the calling thread works too.
#if !$Embedded
  import Synchronization
#endif

/// Runs independent work items in parallel for synchronous callers (Argon2 lanes, pieces of a compression).
///
/// The calling thread runs items itself, and up to `maxConcurrency - 1` detached tasks on the global concurrent
/// executor help. Items are claimed from a shared counter, so the calling thread never waits for a helper that
/// has not started: if the executor is busy (for example when this is called from a task on a fully occupied
/// cooperative pool), the calling thread claims and runs the remaining items itself, and a helper that starts
/// late finds nothing left to do. It only waits, spinning, for items that another thread is already running.
/// Item 0 always runs on the calling thread. In Embedded Swift the items run one after another.
public enum ParallelWork {
  /// Runs `body(0)`, …, `body(count - 1)` once each and returns when all have finished; everything they wrote
  /// is visible to the caller afterwards.
  public static func forEach(count: Int, maxConcurrency: Int, _ body: @escaping @Sendable (Int) -> Void) {
    runBlockingInParallel(count: count, maxConcurrency: maxConcurrency, body)
  }

  /// The results of `transform(0)`, …, `transform(count - 1)`, computed in parallel, in index order.
  public static func map<T: Sendable>(
    count: Int, maxConcurrency: Int, _ transform: @escaping @Sendable (Int) -> T
  ) -> [T] {
    guard count > 0 else { return [] }
    let slots = ResultSlots<T>(count: count)
    defer { slots.deallocate() }
    runBlockingInParallel(count: count, maxConcurrency: maxConcurrency) { index in
      slots.store(transform(index), at: index)
    }
    return slots.collect()
  }
}

/// One write-once slot per work item. SAFETY: item `i` alone writes slot `i`, and the caller reads the slots only
/// after every item has finished (the completion counter's release/acquire orders the writes before the reads).
private final class ResultSlots<T>: @unchecked Sendable {
  let storage: UnsafeMutableBufferPointer<T?>

  init(count: Int) {
    storage = .allocate(capacity: count)
    storage.initialize(repeating: nil)
  }

  func store(_ value: T, at index: Int) { storage[index] = value }

  func collect() -> [T] { storage.compactMap { $0 } }

  func deallocate() {
    _ = storage.deinitialize()
    storage.deallocate()
  }
}

#if !$Embedded
  /// The claim and completion counters of one batch of work items.
  private final class WorkItemCounters: Sendable {
    /// The next unclaimed item.
    let next = Atomic<Int>(0)
    /// Items finished so far.
    let finished = Atomic<Int>(0)
  }

  /// See ``ParallelWork``.
  func runBlockingInParallel(count: Int, maxConcurrency: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let helpers = Swift.min(maxConcurrency, count) - 1
    guard helpers > 0 else {
      for item in 0..<count { body(item) }
      return
    }
    let counters = WorkItemCounters()
    counters.next.store(1, ordering: .relaxed)  // item 0 is the caller's
    for _ in 0..<helpers {
      Task.detached { runClaimedItems(counters, count: count, body) }
    }
    body(0)
    counters.finished.wrappingAdd(1, ordering: .releasing)
    runClaimedItems(counters, count: count, body)
    while counters.finished.load(ordering: .acquiring) < count {}
  }

  /// Claims and runs items until none is left.
  private func runClaimedItems(_ counters: WorkItemCounters, count: Int, _ body: (Int) -> Void) {
    while true {
      let item = counters.next.wrappingAdd(1, ordering: .relaxed).oldValue
      guard item < count else { return }
      body(item)
      counters.finished.wrappingAdd(1, ordering: .releasing)
    }
  }
#else
  /// Embedded Swift: no concurrency runtime, so the items run one after another on the calling thread.
  func runBlockingInParallel(count: Int, maxConcurrency: Int, _ body: (Int) -> Void) {
    for item in 0..<count { body(item) }
  }
#endif
