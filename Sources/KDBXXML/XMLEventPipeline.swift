import KDBXBase

// The XML pull reader on a helper while the calling thread builds the model: a bounded producer/consumer pipeline
// of event batches for the KDBX module's database XML reader. Its locking is the whole of its subtlety: it is kept
// here.
#if !$Embedded
  import Synchronization
#endif

/// How a reader of a whole document (the KDBX module's database XML reader) takes its events: on the calling
/// thread, or from a helper that reads ahead in batches (``XMLEventPipeline``).
package struct XMLEventPipelineSettings: Sendable {
  /// Events per batch (at least 1).
  package var batchSize: Int
  /// Batches the helper may hold ahead of the model reader (at least 1).
  package var ringLength: Int
  /// Documents shorter than this many bytes are read on the calling thread only (starting a helper would cost
  /// more than it saves).
  package var minimumByteCount: Int
  /// Whether a helper is started (test switch: without one, the calling thread reads every batch itself).
  package var startsHelper: Bool

  package init(batchSize: Int, ringLength: Int, minimumByteCount: Int, startsHelper: Bool = true) {
    self.batchSize = max(1, batchSize)
    self.ringLength = max(1, ringLength)
    self.minimumByteCount = minimumByteCount
    self.startsHelper = startsHelper
  }

  /// What the open path uses.
  package static let standard = XMLEventPipelineSettings(
    batchSize: 2048, ringLength: 4, minimumByteCount: 256 << 10)

  /// Never a helper: the events come straight from ``XMLReader`` on the calling thread.
  package static let sequential = XMLEventPipelineSettings(batchSize: 1, ringLength: 1, minimumByteCount: .max)

  /// Whether a document of `byteCount` bytes is read through the pipeline here (never in Embedded Swift, nor where
  /// ``SynchronizationSupport/isAvailable`` is `false`).
  package func isUsed(byteCount: Int) -> Bool {
    #if !$Embedded
      return byteCount >= minimumByteCount && SynchronizationSupport.isAvailable
    #else
      return false
    #endif
  }
}

#if !$Embedded
  /// The events of one ``XMLReader``, read in batches by a helper (a detached task on the global concurrent
  /// executor) while the caller consumes them, at most ``XMLEventPipelineSettings/ringLength`` batches ahead.
  ///
  /// Whoever reads holds `reader`'s lock for the batch: the helper when it has room in the ring, the caller when
  /// it finds the ring empty (before the helper has started, or while it is parked). So the caller never waits
  /// for a helper that has not started, and never spins: if the helper is reading, the caller blocks in the lock
  /// (a futex on Linux) until the batch is queued; otherwise it reads the next batch itself. A full ring parks the
  /// helper in a continuation (no thread held) until the caller has taken half of it.
  ///
  /// SAFETY: (ordering) a batch is queued only while `reader`'s lock is held, and the caller reads a batch itself
  /// only while holding that lock with the ring empty. So every batch read before it has been queued and taken, and
  /// the events reach the caller in document order, each batch's end (the end of the document or the reader's
  /// error, after the batch's events) where it occurred.
  ///
  /// SAFETY: (lifetime) the reader and its copy of the document's array belong to this object, which the helper
  /// retains; `XMLReader.readEvents` takes its pointer only for one batch, inside the lock, on the thread that
  /// reads. ``finish()`` stops the helper and waits (in the lock) for a batch it may be reading, so nothing reads
  /// after the call that used the pipeline has returned.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  package final class XMLEventPipeline: Sendable {
    /// How reading ended.
    package enum End: Sendable {
      case finished
      case failed(XMLError)
    }

    /// Events in reverse document order (the consumer takes them from the end), then the end of reading if it
    /// came in this batch.
    package struct Batch: Sendable {
      package var reversedEvents: [XMLEvent]
      package var end: End?
    }

    struct ReaderState {
      var reader: XMLReader
      /// The end was read, or the consumer finished: nothing more is read.
      var isDone = false
    }

    struct Ring {
      var batches: [Batch] = []
      var isCancelled = false
      /// The helper, parked while the ring is full.
      var parked: UnsafeContinuation<Bool, Never>? = nil
    }

    private let reader: Mutex<ReaderState>
    private let ring = Mutex(Ring())
    let batchSize: Int
    let ringLength: Int
    /// Batches read by the helper and by the caller (for tests; written under `reader`'s lock).
    private let readCounts = Atomic<Int>(0)
    private let helperReadCounts = Atomic<Int>(0)

    /// A pipeline over `document`'s events, read with `options`. The helper makes the strings of the text it
    /// reads: the consumer (the database model reader), not the scan, is the slower side. When the consumer made
    /// them from byte ranges instead, opening a flat vault of 80,000 entries took 653 and 652 ms against 597 and
    /// 609 ms (kdbx-bench, alternating runs).
    package init(document: [UInt8], options: XMLReader.Options, batchSize: Int, ringLength: Int) {
      let reader = XMLReader(bytes: document, options: options)
      self.reader = Mutex(ReaderState(reader: reader))
      self.batchSize = max(1, batchSize)
      self.ringLength = max(1, ringLength)
    }

    /// Starts the helper.
    package func startHelper() {
      Task.detached { [self] in await produce() }
    }

    /// Batches read so far, and how many of them the helper read.
    package var batchCounts: (total: Int, byHelper: Int) {
      (readCounts.load(ordering: .relaxed), helperReadCounts.load(ordering: .relaxed))
    }

    // MARK: Consumer

    /// The next batch, in document order. Not called again after a batch with an end, nor after ``finish()``.
    package func nextBatch() -> Batch {
      if let batch = takeQueued() { return batch }
      return reader.withLock { state in
        // The helper queues only while holding this lock: whatever it has read is in the ring now.
        if let batch = takeQueued() { return batch }
        // Unreachable while the consumer keeps to its contract; an end, so that it stops asking.
        guard !state.isDone else { return Batch(reversedEvents: [], end: .finished) }
        return readBatch(&state, byHelper: false)
      }
    }

    /// The oldest queued batch, unparking the helper once half the ring is free.
    private func takeQueued() -> Batch? {
      let (batch, parked) = ring.withLock { ring -> (Batch?, UnsafeContinuation<Bool, Never>?) in
        guard !ring.batches.isEmpty else { return (nil, nil) }
        let batch = ring.batches.removeFirst()
        guard ring.batches.count <= ringLength / 2, let parked = ring.parked else { return (batch, nil) }
        ring.parked = nil
        return (batch, parked)
      }
      parked?.resume(returning: true)
      return batch
    }

    /// Stops the helper (it reads no further batch), drops what it queued, and returns once no batch is being
    /// read. Call it when the consumer stops, at the end or early.
    package func finish() {
      let parked = ring.withLock { ring -> UnsafeContinuation<Bool, Never>? in
        ring.isCancelled = true
        ring.batches = []
        defer { ring.parked = nil }
        return ring.parked
      }
      parked?.resume(returning: false)
      reader.withLock { state in
        state.isDone = true
        // The document's array, names and buffers go now rather than when the helper's task ends.
        state.reader = XMLReader(bytes: [])
      }
    }

    // MARK: Producer

    /// The helper: reads batches while there is room, until the end or ``finish()``.
    package func produce() async {
      while await hasRoom() {
        let more = reader.withLock { state -> Bool in
          guard !state.isDone, !ring.withLock({ $0.isCancelled }) else { return false }
          let batch = readBatch(&state, byHelper: true)
          ring.withLock { $0.batches.append(batch) }
          return batch.end == nil
        }
        guard more else { return }
      }
    }

    /// Whether to read another batch: `true` once the ring has room (parking until then), `false` once the
    /// consumer has finished.
    private func hasRoom() async -> Bool {
      let now = ring.withLock { ring -> Bool? in
        ring.isCancelled ? false : ring.batches.count < ringLength ? true : nil
      }
      if let now { return now }
      // SAFETY: the continuation is resumed exactly once: here when the ring answers at once, or else by whoever
      // takes it out of `ring.parked` under the ring's lock and sets it to nil (takeQueued or finish), never both.
      return await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
        let now = ring.withLock { ring -> Bool? in
          if ring.isCancelled { return false }
          if ring.batches.count < ringLength { return true }
          ring.parked = continuation
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    }

    // MARK: Reading

    /// Reads up to `batchSize` events (holding `reader`'s lock, which is where `state` comes from).
    private func readBatch(_ state: inout ReaderState, byHelper: Bool) -> Batch {
      var events: [XMLEvent] = []
      events.reserveCapacity(batchSize)
      var end: End? = nil
      let count = batchSize
      do throws(XMLError) {
        if try !state.reader.readEvents(into: &events, count: count) { end = .finished }
      } catch {
        end = .failed(error)
      }
      if end != nil { state.isDone = true }
      readCounts.wrappingAdd(1, ordering: .relaxed)
      if byHelper { helperReadCounts.wrappingAdd(1, ordering: .relaxed) }
      // Reversed through the buffer, whose swaps move the events: `Array.reverse()` copies each one through
      // `MutableCollection.swapAt`, a retain and a release per event (a sixth of the helper's time in a save's check).
      // SAFETY: the buffer is `events`' own storage, used only inside the closure.
      events.withUnsafeMutableBufferPointer { $0.reverse() }
      return Batch(reversedEvents: events, end: end)
    }
  }
#endif
