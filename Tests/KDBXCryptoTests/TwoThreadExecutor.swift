import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A task executor with exactly `threads` threads of its own, for tests that need a small pool whatever the machine:
/// tasks run under it with ``run(_:)`` (task groups' children inherit the preference).
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class TwoThreadExecutor: TaskExecutor, @unchecked Sendable {
  static let shared = TwoThreadExecutor(threads: 2)

  private let queue = Mutex<[UnownedJob]>([])
  /// SAFETY (`@unchecked`): a counting semaphore allocated once and never freed (the executor lives as long as the
  /// process); `sem_post`/`sem_wait` are thread-safe.
  private let available: UnsafeMutablePointer<sem_t>

  init(threads: Int) {
    available = .allocate(capacity: 1)
    sem_init(available, 0, 0)
    for _ in 0..<threads {
      var thread = pthread_t()
      let context = Unmanaged.passRetained(self).toOpaque()
      pthread_create(
        &thread, nil,
        { context in
          guard let context else { return nil }
          Unmanaged<TwoThreadExecutor>.fromOpaque(context).takeRetainedValue().work()
          return nil
        }, context)
      pthread_detach(thread)
    }
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    queue.withLock { $0.append(job) }
    sem_post(available)
  }

  private func work() -> Never {
    while true {
      while sem_wait(available) != 0 {}
      let job = queue.withLock { $0.removeFirst() }
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }

  /// Runs `body` on this executor's threads.
  func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
    try await withTaskExecutorPreference(self) { try await body() }
  }
}
