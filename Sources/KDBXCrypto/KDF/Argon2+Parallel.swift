// Argon2 with lanes on concurrent tasks (RFC 9106 §3.4: lanes are independent within a slice).
// Structured concurrency is not available in Embedded Swift, where the synchronous entry points remain.
#if !$Embedded

  /// Test hook (package scope, not public API): what a derivation on the calling task did, recorded by the `async`
  /// driver. Set it with `Argon2.$observer.withValue(observer) { ... }`; child tasks inherit it.
  package final class Argon2Observer: @unchecked Sendable {
    /// SAFETY (`@unchecked`): written by the coordinating task only (one derivation per observer), read after it.
    package private(set) var slicesStarted = 0
    /// For each block memory released, whether it was all zero at that moment.
    package private(set) var releasedMemoryWasZero: [Bool] = []

    package init() {}

    func sliceStarted() { slicesStarted += 1 }

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
    /// ``deriveKey(password:salt:parameters:memoryLimitBytes:progress:)``.
    ///
    /// Pass the number of cores you want to use; the global concurrent executor runs no more tasks at once than
    /// there are cores anyway. Each slice's segments (RFC 9106 §3.4) are filled by `min(maxConcurrency, lanes)`
    /// workers, each taking every such lane in turn: the calling task is one of them, the others are child tasks of
    /// a task group that ends at the slice's sync point. No worker waits for another inside a slice, so nothing
    /// spins, other tasks run between slices, and any number of lanes finishes on a pool of any size. When
    /// `maxConcurrency` exceeds the lanes, one spare task maps the memory of the next slice of the first pass
    /// while the lanes fill the current one, taking most page faults off the lanes' critical path.
    ///
    /// Cancelling the calling task stops the derivation after the current slice (every lane finishes the
    /// segment it is in) with ``CryptoError/cancelled``, as does returning `false` from `progress`; the block
    /// memory is then zeroed and released before this returns.
    /// - Throws: the errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:progress:)``, and
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
    /// See ``deriveKey(password:salt:parameters:memory:progress:)`` for the requirements on `memory`, and
    /// ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)`` for concurrency, and
    /// the synchronous ``deriveKey(password:salt:parameters:memory:maxConcurrency:prefault:progress:)`` for
    /// `prefault`.
    public static func deriveKey(
      password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer,
      maxConcurrency: Int, prefault: MemoryPrefault? = nil, progress: ProgressHandler? = nil
    ) async throws(CryptoError) -> [UInt8] {
      try checkWorkerCount(maxConcurrency)
      try checkCallerMemory(memory, password: password, salt: salt, parameters: parameters)
      return try await runConcurrently(
        password: password, salt: salt, parameters: parameters, memory: memory, maxConcurrency: maxConcurrency,
        prefault: prefault, progress)
    }

    /// The `async` driver: for each round (a slice, RFC 9106 §3.4, or a memory-mapping step) a task group whose
    /// child tasks fill the segments of workers 1 and up while the calling task fills worker 0's; the group's end
    /// is the sync point. Nothing waits for a sibling inside a round, so any number of lanes finishes on a pool of
    /// any size, and other tasks on the pool run between rounds. Cancellation is checked before every slice: the
    /// memory is then zeroed and ``CryptoError/cancelled`` thrown, without starting another segment.
    static func runConcurrently(
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
          if Task.isCancelled {
            failure = .cancelled
            break
          }
          observer?.sliceStarted()
        }
        let items = schedule.itemCount(round)
        // At least one, so that the strides below are valid when a round has no items.
        let used = Swift.max(1, Swift.min(workers, items))
        await withTaskGroup(of: Void.self) { group in
          for worker in 1..<used {
            group.addTask {
              for item in stride(from: worker, to: items, by: used) { schedule.run(round: round, item: item) }
            }
          }
          for item in stride(from: 0, to: items, by: used) { schedule.run(round: round, item: item) }
          await group.waitForAll()
        }
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
