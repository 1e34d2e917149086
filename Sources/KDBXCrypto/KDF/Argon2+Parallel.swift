// Argon2 with lanes on concurrent tasks (RFC 9106 §3.4: lanes are independent within a slice).
// Structured concurrency is not available in Embedded Swift, where the synchronous entry points remain.

import KDBXBase

#if !$Embedded

  /// Test hook (package scope, not public API): what a derivation on the calling task did, recorded by the `async`
  /// driver. Set it with `Argon2.$observer.withValue(observer) { ... }`; child tasks inherit it.
  // SAFETY: `@unchecked` because only the coordinating task of the one derivation that observes it mutates it
  // (its child tasks never call these), and the test reads it after that derivation returned.
  package final class Argon2Observer: @unchecked Sendable {
    /// SAFETY: (`@unchecked`) written by the coordinating task only (one derivation per observer), read after it.
    package private(set) var slicesStarted = 0
    /// For each block memory released, whether it was all zero at that moment.
    package private(set) var releasedMemoryWasZero: [Bool] = []

    package init() {}

    func sliceStarted() { slicesStarted += 1 }

    // SAFETY: called by the driver with the block memory it is about to release, while still allocated;
    // only read here, on the coordinating task.
    func released(_ memory: UnsafeMutableRawBufferPointer) {
      releasedMemoryWasZero.append(memory.allSatisfy { $0 == 0 })
    }
  }

  extension Argon2 {
    /// The derivation observer of the calling task (tests only).
    @TaskLocal package static var observer: Argon2Observer?
  }

  extension Argon2 {
    /// Derives a key (RFC 9106 §3.2) with the segments of each slice filled by up to `maxConcurrency`
    /// concurrent tasks. The result is identical to the synchronous
    /// ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``.
    ///
    /// Pass the number of cores you want to use; the global concurrent executor runs no more tasks at once than
    /// there are cores anyway. Each slice's segments (RFC 9106 §3.4) are filled by the calling task and up to
    /// `min(maxConcurrency, lanes) - 1` helper tasks, which claim them one at a time (``runInParallel(count:maxConcurrency:_:)``):
    /// a helper that starts late leaves its segments to the others instead of holding up the slice, and the calling
    /// task suspends (it never blocks a thread) until the last segment is done. Nothing spins, other tasks run
    /// between slices, and any number of lanes finishes on a pool of any size. When `maxConcurrency` exceeds the
    /// lanes, one spare item maps the memory of the next slice of the first pass while the lanes fill the current
    /// one, taking most page faults off the lanes' critical path.
    ///
    /// Cancelling the calling task stops the derivation after the current slice (every lane finishes the
    /// segment it is in) with ``CryptoError/cancelled``, as does returning `false` from `progress`; the block
    /// memory is then zeroed and released before this returns.
    /// - Throws: the errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``, and
    ///   ``CryptoError/invalidParameter(name:reason:)`` when `maxConcurrency` is below 1.
    public static func deriveKey(
      password: [UInt8], salt: [UInt8], parameters: Parameters, memoryLimitBytes: Int = defaultMemoryLimitBytes,
      maxConcurrency: Int, progress: ProgressHandler? = nil
    ) async throws(CryptoError) -> [UInt8] {
      try checkWorkerCount(maxConcurrency)
      let cost = try checkedCost(password: password, salt: salt, parameters: parameters, limit: memoryLimitBytes)
      let memory = allocateBlocks(byteCount: cost.memoryByteCount)
      defer {
        Argon2.observer?.released(memory)
        memory.deallocate()
      }
      return try await runConcurrently(
        password: password, salt: salt, parameters: parameters, memory: memory, maxConcurrency: maxConcurrency,
        progress)
    }

    /// Derives a key in caller-provided block memory with up to `maxConcurrency` concurrent tasks.
    ///
    /// See ``deriveKey(password:salt:parameters:memory:maxConcurrency:prefault:progress:)`` for the requirements on
    /// `memory`, and
    /// ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)`` for concurrency, and
    /// the synchronous ``deriveKey(password:salt:parameters:memory:maxConcurrency:prefault:progress:)`` for
    /// `prefault`.
    public static func deriveKey(
      // SAFETY: see the synchronous deriveKey(..., memory:): size and alignment checked below before any write.
      password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer,
      maxConcurrency: Int, prefault: MemoryPrefault? = nil, progress: ProgressHandler? = nil
    ) async throws(CryptoError) -> [UInt8] {
      try checkWorkerCount(maxConcurrency)
      try checkCallerMemory(memory, password: password, salt: salt, parameters: parameters)
      return try await runConcurrently(
        password: password, salt: salt, parameters: parameters, memory: memory, maxConcurrency: maxConcurrency,
        prefault: prefault, progress)
    }

    /// The `async` driver: the rounds of ``Argon2Schedule`` (a mapping step, the slices of RFC 9106 §3.4, the wipe),
    /// each run by ``runInParallel(count:maxConcurrency:_:)``, whose return is the sync point. Before every slice
    /// the calling task yields to other tasks on the pool and checks for cancellation: when cancelled, the memory
    /// is zeroed and ``CryptoError/cancelled`` thrown, without starting another segment.
    static func runConcurrently(
      // SAFETY: checked memory (as runBlockingInParallel); each round's tasks are awaited before the next round
      // and before returning, so no task uses `memory` afterwards.
      password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer,
      maxConcurrency: Int, prefault: MemoryPrefault? = nil, _ progress: ProgressHandler?
    ) async throws(CryptoError) -> [UInt8] {
      let instance = start(password: password, salt: salt, parameters: parameters, memory: memory)
      let schedule = Argon2Schedule(
        instance: instance, parameters: parameters, maxConcurrency: maxConcurrency, prefault: prefault)
      var wiped = false
      defer { if !wiped { schedule.wipeAfterFailure() } }
      let workers = Swift.min(maxConcurrency, schedule.maxItemCount)
      let observer = Argon2.observer
      var tag: [UInt8] = []
      var failure: CryptoError? = nil
      for round in 0..<schedule.rounds {
        if schedule.slice(ofRound: round) != nil {
          // Other tasks on the pool get their turn between slices: the calling task runs every segment no helper
          // has started, so without this it could keep its thread for the whole derivation on a busy pool.
          await Task.yield()
          if Task.isCancelled {
            failure = .cancelled
            break
          }
          observer?.sliceStarted()
        }
        let items = schedule.itemCount(round)
        await runInParallel(count: items, maxConcurrency: workers) { item in schedule.run(round: round, item: item) }
        do throws(CryptoError) {
          if let finished = try schedule.afterRound(round, memory: memory, progress) { tag = finished }
        } catch {
          failure = error
          break
        }
      }
      if let failure { throw failure }
      wiped = true
      return tag
    }
  }

#endif
