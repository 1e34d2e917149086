// Whether the parallel paths that need the `Synchronization` module (atomics and locks: macOS 15, iOS 18, tvOS 18,
// watchOS 11, visionOS 2) may run, or their fallback must.
#if !$Embedded
  /// Chooses between the parallel synchronous paths, which need `Synchronization`, and their fallbacks.
  ///
  /// On Apple systems older than macOS 15 / iOS 18 / tvOS 18 / watchOS 11 / visionOS 2 the synchronous parallel
  /// helpers (``ParallelWork``, Argon2's synchronous lanes) run their items one after another on the calling
  /// thread, and the `async` Argon2 and AES-KDF drivers, which use task groups only, keep every lane in parallel.
  /// Elsewhere (Linux, Android, Windows, newer Apple systems) the parallel paths run.
  package enum SynchronizationSupport {
    /// Test-only switch: inside `SynchronizationSupport.$forcesFallback.withValue(true) { ... }`, the calling task
    /// takes the fallback as an older Apple system would (a task-local value, so parallel tests do not see it).
    @TaskLocal package static var forcesFallback = false

    /// Whether the paths that need `Synchronization` may run for the calling task.
    package static var isAvailable: Bool {
      guard !forcesFallback else { return false }
      if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return true }
      return false
    }
  }
#endif
