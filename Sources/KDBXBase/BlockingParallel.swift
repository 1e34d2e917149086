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
/// Item 0 always runs on the calling thread. In Embedded Swift, and on Apple systems without `Synchronization`
/// (before macOS 15 / iOS 18: ``SynchronizationSupport``), the items run one after another.
package enum ParallelWork {
  /// Runs `body(0)`, …, `body(count - 1)` once each and returns when all have finished; everything they wrote
  /// is visible to the caller afterwards.
  package static func forEach(count: Int, maxConcurrency: Int, _ body: @escaping @Sendable (Int) -> Void) {
    runBlockingInParallel(count: count, maxConcurrency: maxConcurrency, body)
  }

  /// The results of `transform(0)`, …, `transform(count - 1)`, computed in parallel, in index order.
  package static func map<T: Sendable>(
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
  /// The claims and completion of one batch of work items.
  ///
  /// Each item runs while holding its own lock, so a caller waiting for an item that another thread runs blocks
  /// in the lock (a futex on Linux) instead of spinning, which would steal a core from that thread on a busy
  /// machine. It spins only in the instant between another thread's claim and its taking the lock.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  // SAFETY: `@unchecked` because `locks` is a raw pointer: its items are touched only through their Mutex
  // (see the note on `locks`), and `next`/`finished` are atomics.
  private final class WorkItems: @unchecked Sendable {
    /// The next unclaimed item.
    let next = Atomic<Int>(0)
    /// Items finished. Its release/acquire pair orders the items' writes before the caller's reads in a way that
    /// ThreadSanitizer sees (it does not see through the locks, whose atomics live in an uninstrumented library).
    let finished = Atomic<Int>(0)
    let count: Int
    /// One lock per item, holding whether the item has finished. SAFETY: allocated and initialized for `count`
    /// items in `init`, only read through `withLock`, deinitialized in `deinit` after every item finished.
    let locks: UnsafeMutablePointer<Mutex<Bool>>

    init(count: Int) {
      self.count = count
      locks = .allocate(capacity: count)
      for index in 0..<count { (locks + index).initialize(to: Mutex(false)) }
    }

    deinit {
      locks.deinitialize(count: count)
      locks.deallocate()
    }

    /// Runs `body(item)` under the item's lock and marks it finished.
    func run(_ item: Int, _ body: (Int) -> Void) {
      locks[item].withLock { isFinished in
        body(item)
        finished.wrappingAdd(1, ordering: .releasing)
        isFinished = true
      }
    }

    /// Claims and runs items until none is left.
    func runClaimedItems(_ body: (Int) -> Void) {
      while true {
        let item = next.wrappingAdd(1, ordering: .relaxed).oldValue
        guard item < count else { return }
        run(item, body)
      }
    }

    /// Returns once every item has finished (each lock's release orders the item's writes before this).
    func waitForAll() {
      for item in 0..<count {
        while !locks[item].withLock({ $0 }) {}
      }
      while finished.load(ordering: .acquiring) < count {}
    }
  }

  /// See ``ParallelWork``.
  package func runBlockingInParallel(count: Int, maxConcurrency: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let helpers = Swift.min(maxConcurrency, count) - 1
    guard helpers > 0, SynchronizationSupport.isAvailable else {
      for item in 0..<count { body(item) }
      return
    }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
      runWithHelpers(count: count, helpers: helpers, body)
    } else {
      for item in 0..<count { body(item) }
    }
  }

  /// The items on the calling thread and `helpers` detached tasks (see ``ParallelWork``).
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  private func runWithHelpers(count: Int, helpers: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let items = WorkItems(count: count)
    items.next.store(1, ordering: .relaxed)  // item 0 is the caller's
    for _ in 0..<helpers {
      Task.detached { items.runClaimedItems(body) }
    }
    items.run(0, body)
    items.runClaimedItems(body)
    items.waitForAll()
  }
#else
  /// Embedded Swift: no concurrency runtime, so the items run one after another on the calling thread.
  package func runBlockingInParallel(count: Int, maxConcurrency: Int, _ body: (Int) -> Void) {
    for item in 0..<count { body(item) }
  }
#endif
