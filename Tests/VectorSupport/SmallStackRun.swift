#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc) || canImport(Musl)
  /// Runs a closure on a thread of its own with a given stack size and waits for it: a walk that recursed once per
  /// level of a deep tree runs out of a small stack (3,000 levels overflow 256 KiB), one with an explicit stack does
  /// not. The library's and the CLI's deep-tree tests use it.
  public final class SmallStackRun: @unchecked Sendable {
    // SAFETY (`@unchecked`): `body` and `result` are touched by the new thread only between its creation and the
    // join, while the creating thread waits in `pthread_join`.
    private let body: () -> [Int]
    private var result: [Int]? = nil

    public init(_ body: @escaping () -> [Int]) { self.body = body }

    /// The closure's result, or `nil` when the thread could not be made.
    public func wait(stackBytes: Int) -> [Int]? {
      var attributes = pthread_attr_t()
      pthread_attr_init(&attributes)
      defer { pthread_attr_destroy(&attributes) }
      pthread_attr_setstacksize(&attributes, stackBytes)
      var thread = pthread_t()
      // SAFETY: the retained context is released by the thread (`takeRetainedValue`), exactly once.
      let context = Unmanaged.passRetained(self).toOpaque()
      let made = pthread_create(
        &thread, &attributes,
        { context in
          guard let context else { return nil }
          let run = Unmanaged<SmallStackRun>.fromOpaque(context).takeRetainedValue()
          run.result = run.body()
          return nil
        }, context)
      guard made == 0 else {
        Unmanaged<SmallStackRun>.fromOpaque(context).release()
        return nil
      }
      pthread_join(thread, nil)
      return result
    }
  }
#endif
