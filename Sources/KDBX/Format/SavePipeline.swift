import KDBXBase
import KDBXCompression
import KDBXXML

/// The save's payload: the database XML serialised, compressed and, alongside, read back as the open reads it
/// (``KDBXFile/checkOpens(xml:binaries:options:)``), so that no save writes what the open refuses.
///
/// With primitives whose gzip is KDBXCompression's (``KDBXPrimitives/pipelinedGzip``), what is serialised is
/// compressed on a helper task while the calling thread serialises the rest, and the check runs alongside the
/// compression of what is left; otherwise the finished document is compressed with the primitives'
/// ``KDBXPrimitives/compressGzip(_:)`` and then checked.
package enum SavePipeline {
  /// How a save may compress with KDBXCompression's gzip while it serialises
  /// (``KDBXPrimitives/pipelinedGzip``).
  package struct Settings: Sendable {
    /// How many cores the compression and the check may use; 1 runs them one after another on the calling thread.
    package var maxConcurrency: Int
    /// How much serialised XML is handed to the helper task at a time.
    package var chunkByteCount: Int
    /// A smaller hand-off, made as soon as the helper is idle; `nil` hands off only `chunkByteCount` at a time.
    /// Without it the helper, once done with a piece, waits for the next full hand-off while the calling thread
    /// serialises (a third of the time on large_5000), and the calling thread ends up compressing pieces itself.
    package var earlyHandOffByteCount: Int?

    /// Settings with hand-offs of `chunkByteCount` bytes, or of a quarter of that when the helper is idle.
    package init(maxConcurrency: Int, chunkByteCount: Int) {
      self.maxConcurrency = maxConcurrency
      self.chunkByteCount = chunkByteCount
      self.earlyHandOffByteCount = max(chunkByteCount / 4, 1)
    }
  }

  /// The database XML (kept only when `checksDocument`), the payload (`prefix`, KDBX 4's inner header, and the
  /// XML, compressed with `compression`) and, with `checksDocument`, the check still running. The XML is read as
  /// the open reads it, with `limits` and the inner header's `binaries` (`KDBXFile.checkOpens`), so that what the
  /// save writes opens: while the payload is compressed, or, with `checksDocument`, on a helper started when the
  /// XML is complete and collected by ``KDBXFile/verifyReadBack(_:of:primitives:)`` (the read-back a caller that
  /// keeps the document runs before it keeps the file), so that the check also overlaps the encryption, the
  /// write and the read-back. `serialize` replaces ``DatabaseXML/serialize(_:version:stream:)`` (tests).
  static func payload<P: KDBXPrimitives>(
    _ database: Database, version: KDBXVersion, stream: inout P.Stream, prefix: [UInt8],
    binaries: [InnerHeader.Binary], checksDocument: Bool, limits: LoadOptions?, compression: CompressionAlgorithm,
    primitives: P, serialize: DatabaseXMLOverride<P.Stream>.Serialize?
  ) throws(KDBXError) -> (document: [UInt8]?, payload: [UInt8], pendingCheck: StartedWork<KDBXError?>?) {
    // Every save reads its document with the open's own reader and limits (dropping each entry once read), so
    // that no save writes what the open refuses. Deferred, it still reads with the open's pipeline: `kdbx mkdir`
    // on large_5000 took 2.3% and 2.5% less time so than with the check on one core (medians of 11 and 15
    // alternating runs).
    let check: @Sendable ([UInt8]) -> KDBXError? = { document in
      guard let limits else { return nil }
      do throws(KDBXError) {
        try KDBXFile.checkOpens(xml: document, binaries: binaries, options: limits)
        return nil
      } catch {
        return error
      }
    }
    /// The check of `document`: started on a helper when it is deferred (`checksDocument`), else run here.
    let started: @Sendable ([UInt8]) -> StartedWork<KDBXError?> = { document in
      checksDocument ? ParallelWork.start { check(document) } : StartedWork(value: check(document))
    }
    /// The check still running for the caller to collect, or, when it ran here, what it found thrown.
    func collected(_ work: StartedWork<KDBXError?>) throws(KDBXError) -> StartedWork<KDBXError?>? {
      if checksDocument { return work }
      if let failure = work.result() { throw failure }
      return nil
    }
    func document(_ stream: inout P.Stream) throws(KDBXError) -> [UInt8] {
      if let serialize { return try serialize(database, version, &stream) }
      return try DatabaseXML.serialize(database, version: version, stream: &stream)
    }
    guard compression == .gzip else {
      let document = try document(&stream)
      let pending = try collected(started(document))
      return (checksDocument ? document : nil, prefix.isEmpty ? document : prefix + document, pending)
    }
    // `case .none`, not `== nil`: comparing an optional typed-throws closure with `nil` needs the closure type's
    // runtime metadata, which Apple's systems have from iOS 18 / macOS 15 only (the package's floor is lower).
    guard case .none = serialize, let settings = primitives.pipelinedGzip else {
      let document = try document(&stream)
      let pending = try collected(started(document))
      let compressed = try primitives.compressGzip(prefix.isEmpty ? document : prefix + document)
      return (checksDocument ? document : nil, compressed, pending)
    }
    let (document, compressed, work) = try serializeAndCompressGzip(
      database, version: version, stream: &stream, prefix: prefix, settings: settings, alongside: started)
    return (checksDocument ? document : nil, compressed, try collected(work))
  }

  /// Serialises `database` and compresses `prefix` and the document as gzip, compressing on a helper task what is
  /// serialised (in hand-offs of `settings.chunkByteCount` bytes, each piece using the 32 KiB before it as its
  /// dictionary) while the calling thread serialises the rest; then `job` runs on the finished document alongside
  /// the compression of what is left, on every core. The same gzip format as `Gzip.compress` at level 6; with one
  /// core, the serialisation, the compression and the job run one after another.
  package static func serializeAndCompressGzip<S: InnerRandomStream, T: Sendable>(
    _ database: Database, version: KDBXVersion, stream: inout S, prefix: [UInt8], settings: Settings,
    alongside job: @escaping @Sendable ([UInt8]) -> T
  ) throws(KDBXError) -> (document: [UInt8], compressed: [UInt8], jobResult: T) {
    let cores = max(settings.maxConcurrency, 1)
    guard cores > 1 else {
      let document = try DatabaseXML.serialize(database, version: version, stream: &stream)
      let compressed = Gzip.compress(
        prefix.isEmpty ? document : prefix + document, level: ParallelGzip.compressionLevel)
      return (document, compressed, job(document))
    }
    // One helper compresses while the calling thread serialises (so that both have a core): at each hand-off,
    // once the helper's previous piece has finished, it takes the oldest piece waiting, and a hand-off comes
    // sooner (`earlyHandOffByteCount`) when the helper is idle. When a second piece would wait (serialising
    // outruns DEFLATE), the calling thread compresses the oldest one itself: both cores stay busy and at most one
    // hand-off copy waits, instead of most of the document (the AutoFill extension's peak memory, issue #35). What
    // is left at the end is compressed on every core, alongside the job.
    var pending: [(bytes: [UInt8], start: Int)] = prefix.isEmpty ? [] : [(prefix, 0)]
    var nextPending = 0
    var handOffs: [HandOff] = []
    /// The hand-off on the helper, and its place in `handOffs`.
    var helper: (work: StartedWork<[UInt8]>, index: Int)? = nil
    func takeOldest() -> (bytes: [UInt8], start: Int) {
      let piece = pending[nextPending]
      pending[nextPending].bytes = []  // the compression holds the only copy
      nextPending += 1
      return piece
    }
    func startPending() {
      if let (work, index) = helper, work.isFinished {
        // Its stream replaces it: the work holds the piece it compressed until it is released.
        handOffs[index] = .compressed(work.result())
        helper = nil
      }
      guard nextPending < pending.count, helper == nil else { return }
      let piece = takeOldest()
      let work = ParallelWork.start { ParallelGzip.compressHandOff(piece) }
      helper = (work, handOffs.count)
      handOffs.append(.started(work))
    }
    startPending()
    // Whether the helper is idle, so that what is serialised so far goes to it now (an atomic load).
    let earlyHandOff = settings.earlyHandOffByteCount.map { minimum in
      (minimum: minimum, wanted: { helper.map { $0.work.isFinished } ?? true })
    }
    let serialized: (document: [UInt8], handedOff: Int)
    do throws(XMLError) {
      serialized = try DatabaseXMLWriter.serialize(
        database, version: version, stream: &stream, options: DatabaseXML.writerOptions,
        chunkByteCount: settings.chunkByteCount, earlyHandOff: earlyHandOff
      ) { bytes, newBytesStart in
        pending.append((bytes, newBytesStart))
        startPending()
        while pending.count - nextPending > 1 {
          handOffs.append(.compressed(ParallelGzip.compressHandOff(takeOldest())))
        }
      }
    } catch {
      throw .xml(error)
    }
    let document = serialized.document
    let rest = serialized.handedOff..<document.count
    let pieces = max(min(2 * cores, rest.count / ParallelGzip.minimumPiece), 1)
    let waiting = Array(pending[nextPending...])
    let items = ParallelWork.map(count: 2 + waiting.count + pieces, maxConcurrency: cores) {
      index -> CompressionItem<T> in
      if index == 0 { return .job(job(document)) }
      if index == 1 {
        var checksum = CRC32()
        checksum.update(prefix)
        checksum.update(document)
        return .checksum(checksum.value)
      }
      // Items 2... are the waiting pieces, then the pieces of the rest.
      let position = index - 2
      if position < waiting.count { return .stream(ParallelGzip.compressHandOff(waiting[position])) }
      return .stream(
        ParallelGzip.compressPiece(position - waiting.count, of: pieces, document, from: rest.lowerBound))
    }
    // The hand-offs' streams first, in order (one still waiting is compressed here), then the rest.
    var streams = handOffs.map { piece in
      switch piece {
      case .started(let work): work.result()
      case .compressed(let stream): stream
      }
    }
    var result: T? = nil
    var checksum: UInt32? = nil
    for item in items {
      switch item {
      case .job(let value): result = value
      case .checksum(let value): checksum = value
      case .stream(let stream): streams.append(stream)
      }
    }
    guard let result, let checksum else { preconditionFailure("ParallelWork.map returns one result per item") }
    let compressed = Gzip.member(
      deflatePieces: streams, checksum: checksum, byteCount: prefix.count + document.count,
      level: ParallelGzip.compressionLevel)
    return (document, compressed, result)
  }

  /// A hand-off of ``serializeAndCompressGzip(_:version:stream:prefix:settings:alongside:)``'s pipeline:
  /// compressing on the helper, or compressed on the calling thread.
  private enum HandOff {
    case started(StartedWork<[UInt8]>)
    case compressed([UInt8])
  }

  /// One result of ``serializeAndCompressGzip(_:version:stream:prefix:settings:alongside:)``'s work items.
  private enum CompressionItem<T: Sendable>: Sendable {
    case job(T)
    case stream([UInt8])
    case checksum(UInt32)
  }
}
