import KDBXBase

extension Argon2 {
  /// Derives a key (the Argon2 tag, RFC 9106 §3.2) for synchronous callers, with the lanes of each slice filled by
  /// up to `maxConcurrency` threads: by default 1, the calling thread alone, one lane after another.
  ///
  /// - Parameters:
  ///   - password: P, at most 2^32-1 bytes.
  ///   - salt: S, 8...2^32-1 bytes (RFC 9106 §3.1; 16 bytes are recommended).
  ///   - parameters: validated parameters.
  ///   - memoryLimitBytes: the ceiling for the block memory; a request above it throws before allocating. Keep it
  ///     at or below the memory the process can get: an allocation the system refuses stops the process.
  ///   - maxConcurrency: the most threads that fill lanes at once, the calling thread included.
  ///   - progress: called on the calling thread after every slice; return `false` to cancel.
  /// - Returns: `parameters.outputLength` bytes.
  ///
  /// With `maxConcurrency` above 1, the calling thread fills lanes itself and up to `maxConcurrency - 1` detached
  /// tasks on the global concurrent executor help (``ParallelWork``: a helper runs the items it claims and ends, it
  /// never waits); lanes synchronize after every slice (RFC 9106 §3.4), where the calling thread blocks until the
  /// slice's last item is done. The result does not depend on `maxConcurrency`.
  /// The calling thread never waits for a helper that has not started, so this cannot deadlock on a busy executor:
  /// at worst it runs sequentially. It blocks the calling thread: from `async` code, use the `async` overload. When
  /// `maxConcurrency` exceeds the lanes, the spare helper maps the memory of the next slice of the first pass while
  /// the lanes fill the current one, taking page faults off the lanes' path.
  ///
  /// The library cannot ask the system for its number of cores (it uses the standard library only), so pass it
  /// (the `kdbx` tool passes the online cores); passing `parameters.lanes` is a good default. In Embedded Swift
  /// the lanes run one after another. From an `async` context, the `async` overload of the same name is chosen
  /// when `maxConcurrency` is passed.
  /// - Throws: ``CryptoError/memoryLimitExceeded(requiredBytes:limitBytes:)`` when the block memory (or the
  ///   tag) exceeds the ceiling, ``CryptoError/invalidParameter(name:reason:)`` for a bad password or salt length
  ///   or a `maxConcurrency` below 1, and ``CryptoError/cancelled``.
  // SAFETY: `memory` is the caller's; checkCallerMemory below checks it holds estimate(parameters:) bytes and
  // is 16-byte aligned before any block is written, and nothing keeps a pointer into it after returning.
  public static func deriveKey(
    password: [UInt8], salt: [UInt8], parameters: Parameters, memoryLimitBytes: Int = defaultMemoryLimitBytes,
    maxConcurrency: Int = 1, progress: ProgressHandler? = nil
  ) throws(CryptoError) -> [UInt8] {
    try checkWorkerCount(maxConcurrency)
    let cost = try checkedCost(password: password, salt: salt, parameters: parameters, limit: memoryLimitBytes)
    let memory = allocateBlocks(byteCount: cost.memoryByteCount)
    defer { memory.deallocate() }
    return try runBlockingInParallel(
      password: password, salt: salt, parameters: parameters, memory: memory, maxConcurrency: maxConcurrency,
      prefault: nil, progress)
  }

  /// Derives a key in block memory the caller provides, for synchronous callers (RFC 9106 §3.2); lanes are
  /// scheduled as by ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``.
  ///
  /// `memory` must hold at least ``estimate(parameters:)``'s `memoryByteCount` bytes and be 16-byte aligned
  /// (any `malloc`, `mmap` or `allocate(byteCount:alignment:)` result is). It is overwritten, and zeroed
  /// before this returns or throws. This lets a caller reuse memory across derivations or back it with huge
  /// pages (for example `madvise(MADV_HUGEPAGE)`), which saves most of the page-fault cost.
  ///
  /// `prefault`, when given, is called in the first pass with the memory of each segment before any block of
  /// it is written, on the thread that fills it (or on the spare worker, a slice ahead). Pass a function that
  /// maps the pages in one system call, such as Linux's `madvise(MADV_POPULATE_WRITE)`: that costs about a third
  /// less than taking a page fault on every first write (measured: 23 ms against 34 ms for 64 MiB of 4 KiB
  /// pages). It must not change the memory's contents. When it returns `false` (the system refused the pages), no
  /// block of that segment is written, the derivation stops at the next sync point, zeroes what it wrote and throws
  /// ``CryptoError/memoryUnavailable(requiredBytes:)``: the memory it could not get is never touched, so the
  /// process is not killed for it.
  /// - Throws: ``CryptoError/invalidParameter(name:reason:)`` when `memory` is too small or misaligned, and the
  ///   errors of ``deriveKey(password:salt:parameters:memoryLimitBytes:maxConcurrency:progress:)``.
  // SAFETY: `memory` is the caller's; checkCallerMemory below checks it holds estimate(parameters:) bytes and
  // is 16-byte aligned before any block is written, and nothing keeps a pointer into it after returning.
  public static func deriveKey(
    password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer,
    maxConcurrency: Int = 1, prefault: MemoryPrefault? = nil, progress: ProgressHandler? = nil
  ) throws(CryptoError) -> [UInt8] {
    try checkWorkerCount(maxConcurrency)
    try checkCallerMemory(memory, password: password, salt: salt, parameters: parameters)
    return try runBlockingInParallel(
      password: password, salt: salt, parameters: parameters, memory: memory, maxConcurrency: maxConcurrency,
      prefault: prefault, progress)
  }

  /// Maps the pages of a range of block memory ahead of its first write, without changing its contents, and
  /// returns whether it could (see ``deriveKey(password:salt:parameters:memory:maxConcurrency:prefault:progress:)``).
  /// Return `true` when mapping ahead is merely not supported (the first writes then map the pages as usual), and
  /// `false` only when the system refused the memory.
  // SAFETY: the hook gets one segment's range of the checked block memory, lent for the call only.
  public typealias MemoryPrefault = @Sendable (UnsafeMutableRawBufferPointer) -> Bool

  static func checkWorkerCount(_ maxConcurrency: Int) throws(CryptoError) {
    guard maxConcurrency >= 1 else {
      throw CryptoError.invalidParameter(name: "maxConcurrency", reason: "must be at least 1")
    }
  }

  /// The synchronous driver: each round's items on the calling thread and ``ParallelWork``'s helpers (which never
  /// wait: the calling thread claims what no helper has started), one round after another. Not for `async` code,
  /// which has the `async` driver (``runConcurrently(password:salt:parameters:memory:maxConcurrency:prefault:_:)``).
  // SAFETY: called only after checkCallerMemory (or with memory allocateBlocks sized from the same
  // estimate); every round's helpers have finished (ParallelWork returns after all items) before the next round and
  // before this returns, so no worker touches `memory` afterwards.
  static func runBlockingInParallel(
    password: [UInt8], salt: [UInt8], parameters: Parameters, memory: UnsafeMutableRawBufferPointer,
    maxConcurrency: Int, prefault: MemoryPrefault?, _ progress: ProgressHandler?
  ) throws(CryptoError) -> [UInt8] {
    let instance = start(password: password, salt: salt, parameters: parameters, memory: memory)
    let schedule = Argon2Schedule(
      instance: instance, parameters: parameters, maxConcurrency: maxConcurrency, prefault: prefault)
    var wiped = false
    defer { if !wiped { schedule.wipeAfterFailure() } }
    var tag: [UInt8] = []
    for round in 0..<schedule.rounds {
      KDBXBase.runBlockingInParallel(count: schedule.itemCount(round), maxConcurrency: maxConcurrency) { item in
        schedule.run(round: round, item: item)
      }
      if let finished = try schedule.afterRound(round, memory: memory, progress) { tag = finished }
    }
    wiped = true
    return tag
  }

  /// The items of the round that runs before the first slice when there is a `prefault` hook: it maps the first
  /// slice, item `i` the segments of every `parts`-th lane from lane `i` (`parts` = the workers that fill lanes).
  ///
  /// The calling thread starts on this at once, so that when the helpers' threads start late (measured at 3-5 ms
  /// in a virtual machine whose second processor was idle) it has mapped their segments too. Later slices are
  /// mapped by the spare item a slice ahead, or by each lane at the start of its segment. Mapping the whole first
  /// pass in this round instead was slower: 35 ms against 29 ms to the end of the first pass (64 MiB, two lanes).
  static func mappingItemCount(lanes: Int, maxConcurrency: Int) -> Int {
    Swift.min(maxConcurrency, lanes)
  }

  /// Runs item `item` of the mapping round (see ``mappingItemCount(lanes:maxConcurrency:)``).
  static func runMappingItem(
    _ item: Int, instance: Argon2Instance, lanes: Int, maxConcurrency: Int, _ prefault: MemoryPrefault?,
    record: Argon2MappingRecord?
  ) {
    guard let prefault else { return }
    for lane in stride(from: item, to: lanes, by: mappingItemCount(lanes: lanes, maxConcurrency: maxConcurrency)) {
      guard prefault(instance.segmentMemory(lane: lane, slice: 0)) else {
        record?.recordFailure(item: item)
        return
      }
    }
  }

  /// Throws ``CryptoError/memoryUnavailable(requiredBytes:)`` when a page-mapping hook failed in the round that
  /// just ended (called after the sync point, so every item's record is visible).
  // SAFETY: reads only `memory.count`.
  static func checkMapping(_ record: Argon2MappingRecord?, memory: UnsafeMutableRawBufferPointer)
    throws(CryptoError)
  {
    if let record, record.failed { throw CryptoError.memoryUnavailable(requiredBytes: memory.count) }
  }

  /// The work items of one slice: items 0..<lanes fill the segments; item `lanes`, when there is a spare worker in
  /// the first pass, takes the page faults of the next slice (which no lane touches before the sync point).
  static func sliceItemCount(pass: Int, slice: Int, lanes: Int, maxConcurrency: Int) -> Int {
    let prefaults = pass == 0 && slice + 1 < Argon2Geometry.syncPoints && maxConcurrency > lanes
    return prefaults ? lanes + 1 : lanes
  }

  /// Runs work item `item` of a slice (see ``sliceItemCount(pass:slice:lanes:maxConcurrency:)``). With a
  /// `prefault` hook, a lane maps its own segment's pages first in the first pass, unless that was done before:
  /// the first slice by the mapping round, a later one by the spare item during the previous slice.
  /// A hook that fails leaves its segment unwritten and is recorded in `record`, which the driver checks after the
  /// round.
  static func runSliceItem(
    _ item: Int, instance: Argon2Instance, pass: Int, slice: Int, lanes: Int, maxConcurrency: Int,
    prefault: MemoryPrefault?, record: Argon2MappingRecord?
  ) {
    if item < lanes {
      let mappedBefore =
        slice == 0
        || sliceItemCount(pass: pass, slice: slice - 1, lanes: lanes, maxConcurrency: maxConcurrency) > lanes
      if pass == 0, !mappedBefore, let prefault, !prefault(instance.segmentMemory(lane: item, slice: slice)) {
        record?.recordFailure(item: item)
        return
      }
      instance.fillSegment(pass: pass, lane: item, slice: slice)
      if pass == 0 { record?.recordFilled(lane: item, segments: slice + 1) }
    } else if let prefault {
      for lane in 0..<lanes where !prefault(instance.segmentMemory(lane: lane, slice: slice + 1)) {
        record?.recordFailure(item: item)
        return
      }
    } else {
      instance.prefault(slice: slice + 1)
    }
  }

  /// Reports a finished slice; throws ``CryptoError/cancelled`` when `progress` returns `false`.
  static func reportSlice(pass: Int, slice: Int, totalSlices: Int, _ progress: ProgressHandler?) throws(CryptoError) {
    guard let progress else { return }
    let done = pass * Argon2Geometry.syncPoints + slice + 1
    let report = Progress(pass: pass, slice: slice, completedSlices: done, totalSlices: totalSlices)
    if !progress(report) { throw CryptoError.cancelled }
  }
}
