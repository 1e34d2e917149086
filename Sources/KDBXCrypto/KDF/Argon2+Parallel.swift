// Argon2 with lanes on concurrent tasks (RFC 9106 §3.4: lanes are independent within a slice).
// Structured concurrency is not available in Embedded Swift, where the synchronous entry points remain.
#if !$Embedded

  extension Argon2 {
    /// Derives a key (RFC 9106 §3.2) with the segments of each slice filled by up to `maxConcurrency`
    /// concurrent tasks. The result is identical to the synchronous
    /// ``deriveKey(password:salt:parameters:memoryLimitBytes:progress:)``.
    ///
    /// Pass the number of cores you want to use (1 runs everything on the calling task); the global
    /// concurrent executor runs no more tasks at once than there are cores anyway. Lanes synchronize after
    /// every slice (RFC 9106 §3.4), so at most `parameters.lanes` tasks fill segments. When
    /// `maxConcurrency` exceeds the lanes, one spare task maps the memory of the next slice of the first pass
    /// while the lanes fill the current one, taking most page faults off the lanes' critical path.
    ///
    /// Cancelling the calling task stops the derivation after the current slice (every lane finishes the
    /// segment it is in) with ``CryptoError/cancelled``, as does returning `false` from `progress`.
    /// - Throws: the errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:progress:)``, and
    ///   ``CryptoError/invalidParameter(name:reason:)`` when `maxConcurrency` is below 1.
    public static func deriveKey(
      password: [UInt8], salt: [UInt8], parameters: Parameters, memoryLimitBytes: Int = defaultMemoryLimitBytes,
      maxConcurrency: Int, progress: ProgressHandler? = nil
    ) async throws(CryptoError) -> [UInt8] {
      try checkWorkerCount(maxConcurrency)
      let cost = try checkedCost(password: password, salt: salt, parameters: parameters, limit: memoryLimitBytes)
      let memory = allocateBlocks(byteCount: cost.memoryByteCount)
      defer { memory.deallocate() }
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

    static func runConcurrently(
      password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer,
      maxConcurrency: Int, prefault: MemoryPrefault? = nil, _ progress: ProgressHandler?
    ) async throws(CryptoError) -> [UInt8] {
      let instance = start(password: password, salt: salt, parameters: parameters, memory: memory)
      let lanes = parameters.lanes
      let record = prefault == nil ? nil : Argon2MappingRecord(lanes: lanes)
      var wiped = false
      defer {
        if !wiped {
          if let record, record.failed { instance.wipeFirstPass(record) } else { instance.wipe() }
        }
      }
      let totalSlices = parameters.iterations * Argon2Geometry.syncPoints
      if prefault != nil {
        // The mapping round of the synchronous driver (see ``mappingItemCount(lanes:maxConcurrency:)``).
        await runItems(mappingItemCount(lanes: lanes, maxConcurrency: maxConcurrency), maxConcurrency) { item in
          runMappingItem(
            item, instance: instance, lanes: lanes, maxConcurrency: maxConcurrency, prefault, record: record)
        }
        try checkMapping(record, memory: memory)
      }
      for pass in 0..<parameters.iterations {
        for slice in 0..<Argon2Geometry.syncPoints {
          if Task.isCancelled { throw CryptoError.cancelled }
          let items = sliceItemCount(pass: pass, slice: slice, lanes: lanes, maxConcurrency: maxConcurrency)
          await runItems(items, maxConcurrency) { item in
            runSliceItem(
              item, instance: instance, pass: pass, slice: slice, lanes: lanes, maxConcurrency: maxConcurrency,
              prefault: prefault, record: record)
          }
          try checkMapping(record, memory: memory)
          try reportSlice(pass: pass, slice: slice, totalSlices: totalSlices, progress)
        }
      }
      let tag = finish(instance, parameters: parameters)
      // The wipe writes the whole memory once more: split it over the tasks too.
      let parts = Swift.min(maxConcurrency, lanes)
      await runItems(parts, maxConcurrency) { part in instance.wipe(part: part, of: parts) }
      wiped = true
      return tag
    }

    /// Runs `body` on items `0..<items` with up to `maxConcurrency` tasks: task t runs items t, t + tasks, ...;
    /// task 0 is this one. Returns only when every item is done: for a slice, the sync point that makes the next
    /// slice's cross-lane reads safe (see the SAFETY note on Argon2Instance).
    static func runItems(_ items: Int, _ maxConcurrency: Int, _ body: @escaping @Sendable (Int) -> Void) async {
      let tasks = Swift.min(items, maxConcurrency)
      guard tasks > 1 else {
        for item in 0..<items { body(item) }
        return
      }
      await withTaskGroup(of: Void.self) { group in
        for task in 1..<tasks {
          group.addTask {
            for item in stride(from: task, to: items, by: tasks) { body(item) }
          }
        }
        for item in stride(from: 0, to: items, by: tasks) { body(item) }
        await group.waitForAll()
      }
    }
  }

#endif
