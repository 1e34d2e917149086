import Dispatch
import KDBXBase
import KDBXCrypto
import KDBXXML
import Testing
import VectorSupport

@testable import KDBX

/// The pull reader on a helper (``XMLEventPipeline``): the same events, the same errors at the same place, and the
/// same models as the pull reader on the calling thread, with batches and rings small enough that every hand-off
/// runs (the caller reading before the helper starts, waiting for a batch being read, the helper parked on a full
/// ring); a consumer that stops early stops the helper.
@Suite struct XMLEventPipelineTests {
  /// Batch sizes and ring lengths, from one event per batch up to the standard figures.
  static let shapes: [(batchSize: Int, ringLength: Int)] = [(1, 1), (1, 2), (2, 1), (3, 2), (7, 3), (64, 2), (2048, 4)]

  /// What a source gives: its events, and the error that ended them (`nil` at the end of the document).
  struct Outcome: Equatable, CustomStringConvertible {
    var events: [XMLEvent]
    var error: XMLError?

    var description: String { "\(events.count) events, error \(error.map { "\($0)" } ?? "none")" }
  }

  static func collect<S: XMLEventSource>(_ source: inout S, limit: Int = .max) -> Outcome {
    var events: [XMLEvent] = []
    do throws(XMLError) {
      while events.count < limit, let event = try source.nextEvent() { events.append(event) }
      return Outcome(events: events, error: nil)
    } catch {
      return Outcome(events: events, error: error)
    }
  }

  static func readerOptions(maximumDepth: Int = LoadOptions.default.maxXMLDepth) -> XMLReader.Options {
    var options = XMLReader.Options()
    options.limits.maximumDepth = maximumDepth
    return options
  }

  /// The events of the pull reader alone.
  static func sequential(_ xml: [UInt8], options: XMLReader.Options = readerOptions()) -> Outcome {
    var reader = XMLReader(bytes: xml, options: options)
    return collect(&reader)
  }

  /// The events through a pipeline of the given shape, its helper started as `helper` says.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  static func pipelined(
    _ xml: [UInt8], options: XMLReader.Options = readerOptions(), batchSize: Int, ringLength: Int,
    helper: HelperStart = .thread
  ) async -> (Outcome, XMLEventPipeline) {
    // Inline before the consumer, the helper must find room for the whole document (fewer events than bytes).
    let ringLength = if case .first = helper { max(ringLength, xml.count + 2) } else { ringLength }
    let pipeline = XMLEventPipeline(document: xml, options: options, batchSize: batchSize, ringLength: ringLength)
    defer { pipeline.finish() }
    var source = PipelinedXMLEventSource(pipeline)
    switch helper {
    case .pool:
      pipeline.startHelper()
    case .thread:
      HelperQueue.shared.start(pipeline)
    case .never:
      break
    case .first:
      await pipeline.produce()
    case .after(let count):
      var first = collect(&source, limit: count)
      HelperQueue.shared.start(pipeline)
      if first.error == nil && first.events.count == count {
        let rest = collect(&source)
        first.events += rest.events
        first.error = rest.error
      }
      return (first, pipeline)
    }
    return (collect(&source), pipeline)
  }

  enum HelperStart: CustomStringConvertible {
    /// A detached task on the global executor (which parallel tests may keep busy: the caller then reads alone).
    case pool
    /// A task on a thread of its own.
    case thread
    /// No helper: the caller reads every batch.
    case never
    /// The helper reads everything into the ring before the caller starts.
    case first
    /// The caller reads this many events, then a helper on its own thread starts.
    case after(Int)

    var description: String {
      switch self {
      case .pool: "pool"
      case .thread: "thread"
      case .never: "never"
      case .first: "first"
      case .after(let count): "after \(count)"
      }
    }
  }

  /// A task executor on a serial dispatch queue: helpers on a thread that is not the global pool's.
  @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
  final class HelperQueue: TaskExecutor {
    static let shared = HelperQueue()
    let queue = DispatchQueue(label: "XMLEventPipelineTests.helper")

    func enqueue(_ job: consuming ExecutorJob) {
      let job = UnownedJob(job)
      queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    func start(_ pipeline: XMLEventPipeline) {
      Task.detached(executorPreference: self) { await pipeline.produce() }
    }
  }

  // MARK: - Documents

  /// Random KeePass documents (``RandomDocument``) as the model writer writes them, KDBX 3.1 and 4.1.
  static func randomDocuments(count: Int) throws -> [(label: String, xml: [UInt8])] {
    var documents: [(String, [UInt8])] = []
    for seed in 0..<UInt64(count) {
      var generator = RandomDocument(seed: seed)
      var stream = PlaintextInnerStream()
      var database = try DatabaseXMLReader.read(
        document: generator.document(), stream: &stream, random: &generator.random, gzip: StandardPrimitives())
      generator.addModelContent(to: &database)
      for version in [KDBXVersion.v3_1, .v4_1] {
        var writeStream = PlaintextInnerStream()
        let xml = try DatabaseXML.serialize(database, version: version, stream: &writeStream)
        documents.append(("seed \(seed) \(version.name)", xml))
      }
    }
    return documents
  }

  /// The XML documents of the corpus files whose transformed key is known (no KDF run), with their binaries and
  /// stream: `readDatabase` records them and reads them both ways.
  final class BothWays: @unchecked Sendable {
    let base = StandardPrimitives()
    var label = ""
    var documents: [(label: String, xml: [UInt8])] = []
    /// Settings of the pipelined read.
    var settings = XMLEventPipelineSettings(batchSize: 5, ringLength: 2, minimumByteCount: 0)

    /// The database XML reader of an open that reads with ``readDatabase(xml:binaries:stream:random:options:)``.
    var xml: DatabaseXMLOverride<StandardPrimitives.InnerStream> {
      DatabaseXMLOverride(read: { xml, binaries, stream, options throws(KDBXError) in
        var random = SplitMix64(seed: 2)
        return try self.readDatabase(xml: xml, binaries: binaries, stream: &stream, random: &random, options: options)
      })
    }

    func readDatabase<S: InnerRandomStream, R: RandomNumberGenerator>(
      xml: [UInt8], binaries: [InnerHeader.Binary], stream: inout S, random: inout R, options: LoadOptions
    ) throws(KDBXError) -> Database {
      documents.append((label, xml))
      var sequentialStream = stream
      var sequentialRandom = SplitMix64(seed: 9)
      let sequential = Result { () throws(KDBXError) in
        try DatabaseXMLReader.read(
          xml: xml, binaries: binaries, stream: &sequentialStream, random: &sequentialRandom, gzip: base,
          options: options, pipeline: .sequential)
      }
      var pipelinedRandom = SplitMix64(seed: 9)
      let pipelined = Result { () throws(KDBXError) in
        try DatabaseXMLReader.read(
          xml: xml, binaries: binaries, stream: &stream, random: &pipelinedRandom, gzip: base, options: options,
          pipeline: settings)
      }
      #expect(pipelined == sequential, "\(label): the pipelined read differs")
      return try pipelined.get()
    }
  }

  static func corpusDocuments() throws -> [(label: String, xml: [UInt8])] {
    guard Corpus.isAvailable else { return [] }
    let primitives = BothWays()
    try openCorpusFiles(with: primitives)
    return primitives.documents
  }

  /// Opens every corpus file whose transformed key is known with `primitives` (which read each document both ways).
  static func openCorpusFiles(with primitives: BothWays) throws {
    for file in CorpusKDBXFile.all where CorpusTransformedKeys.byFile[file.path] != nil {
      let bytes = try #require(Corpus.file(file.path))
      let key = try CompositeKey(transformedKey: try #require(CorpusTransformedKeys.byFile[file.path]).key)
      primitives.label = file.path
      var random = SplitMix64(seed: 2)
      _ = try KDBXFile.open(
        bytes: bytes, key: key, primitives: StandardPrimitives(), random: &random, xml: primitives.xml)
    }
  }

  // MARK: - Events

  /// Whether this system has `Synchronization`, which the pipeline needs (macOS 15 / iOS 18 on Apple systems).
  static var hasSynchronization: Bool {
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) { return true }
    return false
  }

  @Test(.enabled(if: hasSynchronization, "the event pipeline needs Synchronization (macOS 15, iOS 18)"))
  func randomDocumentsGiveTheSameEvents() async throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
      Issue.record("enabled only where Synchronization is available")
      return
    }
    for (label, xml) in try Self.randomDocuments(count: 12) {
      let expected = Self.sequential(xml)
      #expect(expected.error == nil && expected.events.count > 20, "\(label)")
      for (batchSize, ringLength) in Self.shapes {
        for helper in [HelperStart.thread, .pool, .never, .after(batchSize * 2 + 1)] {
          let (outcome, pipeline) = await Self.pipelined(
            xml, batchSize: batchSize, ringLength: ringLength, helper: helper)
          #expect(outcome == expected, "\(label), batches of \(batchSize), ring \(ringLength), helper \(helper)")
          if case .never = helper { #expect(pipeline.batchCounts.byHelper == 0) }
        }
        // The helper reads every batch (the ring holds the whole document).
        let (outcome, pipeline) = await Self.pipelined(
          xml, batchSize: batchSize, ringLength: ringLength, helper: .first)
        #expect(outcome == expected, "\(label), batches of \(batchSize), helper first")
        let counts = pipeline.batchCounts
        #expect(counts.byHelper == counts.total && counts.total == expected.events.count / batchSize + 1)
      }
    }
  }

  @Test(
    .enabled(if: Corpus.isAvailable),
    .enabled(if: hasSynchronization, "the event pipeline needs Synchronization (macOS 15, iOS 18)"))
  func corpusDocumentsGiveTheSameEvents() async throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
      Issue.record("enabled only where Synchronization is available")
      return
    }
    let documents = try Self.corpusDocuments()
    #expect(documents.count >= 60)
    for (label, xml) in documents {
      let expected = Self.sequential(xml)
      // The large documents with the larger shapes only (one event per batch would take long).
      let shapes = xml.count > 1 << 20 ? Self.shapes.filter { $0.batchSize >= 64 } : Self.shapes
      for (batchSize, ringLength) in shapes {
        let (outcome, _) = await Self.pipelined(xml, batchSize: batchSize, ringLength: ringLength)
        #expect(outcome == expected, "\(label), batches of \(batchSize), ring \(ringLength)")
      }
    }
  }

  /// Truncations and a bad byte at many places of a document (all of them for a small one), and depth limits:
  /// the same events before the same error, at the same line and column.
  @Test(.enabled(if: hasSynchronization, "the event pipeline needs Synchronization (macOS 15, iOS 18)"))
  func damagedDocumentsFailAtTheSamePlace() async throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
      Issue.record("enabled only where Synchronization is available")
      return
    }
    let documents = try Self.randomDocuments(count: 2).map(\.xml)
    var failures = 0
    for xml in documents {
      let step = max(1, xml.count / 400)
      for position in stride(from: 0, to: xml.count, by: step) {
        var damaged: [[UInt8]] = [Array(xml[0..<position])]
        for bad: UInt8 in [0x00, 0x3C, 0xFF, 0x26] {
          var copy = xml
          copy[position] = bad
          damaged.append(copy)
        }
        for document in damaged {
          let expected = Self.sequential(document)
          if expected.error != nil { failures += 1 }
          let shape = Self.shapes[position % Self.shapes.count]
          let helper: HelperStart = [.thread, .never, .after(position % 50), .first][position % 4]
          let (outcome, _) = await Self.pipelined(
            document, batchSize: shape.batchSize, ringLength: shape.ringLength, helper: helper)
          #expect(outcome == expected, "damaged at \(position), shape \(shape), helper \(helper)")
        }
      }
      for depth in [1, 2, 3, 4, 5] {
        let options = Self.readerOptions(maximumDepth: depth)
        let expected = Self.sequential(xml, options: options)
        #expect(expected.error != nil)
        for (batchSize, ringLength) in Self.shapes {
          let (outcome, _) = await Self.pipelined(xml, options: options, batchSize: batchSize, ringLength: ringLength)
          #expect(outcome == expected, "depth \(depth), batches of \(batchSize)")
        }
      }
    }
    #expect(failures > 1000)
  }

  // MARK: - Stopping

  /// A consumer that stops after a few events, with the helper ahead: ``XMLEventPipeline/finish()`` returns, and
  /// no batch is read after it (a helper running then finds the pipeline finished).
  @Test(.enabled(if: hasSynchronization, "the event pipeline needs Synchronization (macOS 15, iOS 18)"))
  func anEarlyStopStopsTheHelper() async throws {
    guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else {
      Issue.record("enabled only where Synchronization is available")
      return
    }
    let xml = try #require(try Self.randomDocuments(count: 1).first?.xml)
    let expected = Self.sequential(xml)
    for (batchSize, ringLength) in Self.shapes.prefix(5) {
      for stop in [0, 1, 5, 40] {
        let pipeline = XMLEventPipeline(
          document: xml, options: Self.readerOptions(), batchSize: batchSize, ringLength: ringLength)
        HelperQueue.shared.start(pipeline)
        var source = PipelinedXMLEventSource(pipeline)
        let first = Self.collect(&source, limit: stop)
        #expect(first.events == Array(expected.events.prefix(stop)))
        pipeline.finish()
        let counts = pipeline.batchCounts
        // Read: what the consumer took, the ring ahead of it, and a batch being read when the ring was checked.
        #expect(counts.total <= stop / batchSize + 1 + ringLength + 1, "\(counts)")
        await pipeline.produce()
        #expect(pipeline.batchCounts == counts)
      }
    }
  }

  /// The model reader stops early (a model error, the node limit) on a document much larger than the ring: the
  /// same error as the sequential read.
  @Test func modelErrorsAreTheSameWhenTheConsumerStopsEarly() throws {
    let entries = String(repeating: "<Entry><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID></Entry>", count: 2_000)
    let documents: [(String, [UInt8], LoadOptions)] = [
      (
        "bad value",
        DatabaseXMLPullReaderTests.document(
          meta: "<MemoryProtection><ProtectTitle>maybe</ProtectTitle></MemoryProtection>", group: entries), .default
      ),
      ("node limit", DatabaseXMLPullReaderTests.document(group: entries), LoadOptions(maxXMLNodeCount: 500)),
      ("depth limit", DatabaseXMLPullReaderTests.document(group: entries), LoadOptions(maxXMLDepth: 4)),
      ("bad XML late", DatabaseXMLPullReaderTests.document(group: entries + "<a></b>"), .default),
      ("fine", DatabaseXMLPullReaderTests.document(group: entries), .default),
    ]
    for (label, xml, options) in documents {
      let sequential = Self.readModel(xml, options: options, pipeline: .sequential)
      for (batchSize, ringLength) in Self.shapes {
        for startsHelper in [true, false] {
          let settings = XMLEventPipelineSettings(
            batchSize: batchSize, ringLength: ringLength, minimumByteCount: 0, startsHelper: startsHelper)
          #expect(Self.readModel(xml, options: options, pipeline: settings) == sequential, "\(label)")
        }
      }
      if label == "fine" { #expect((try? sequential.get()) != nil) } else { #expect((try? sequential.get()) == nil) }
    }
  }

  static func readModel(_ xml: [UInt8], options: LoadOptions, pipeline: XMLEventPipelineSettings)
    -> Result<Database, KDBXError>
  {
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 4)
    return Result { () throws(KDBXError) in
      try DatabaseXMLReader.read(
        xml: xml, stream: &stream, random: &random, gzip: NoGzipDecompressor(), options: options,
        pipeline: pipeline)
    }
  }

  // MARK: - Models

  /// Every corpus file (large_5000 included) read through the pipeline gives the sequential read's model (the
  /// comparison is in ``BothWays``), with small batches and with the standard ones.
  @Test(.enabled(if: Corpus.isAvailable)) func corpusModelsAreTheSame() throws {
    let documents = try Self.corpusDocuments()
    #expect(documents.count >= 60)
    for settings in [
      XMLEventPipelineSettings.standard, XMLEventPipelineSettings(batchSize: 64, ringLength: 2, minimumByteCount: 0),
    ] {
      let primitives = BothWays()
      primitives.settings = settings
      try Self.openCorpusFiles(with: primitives)
    }
  }

  @Test func randomModelsAreTheSame() throws {
    for (label, xml) in try Self.randomDocuments(count: 20) {
      let sequential = Self.readModel(xml, options: .default, pipeline: .sequential)
      #expect((try? sequential.get()) != nil, "\(label)")
      for (batchSize, ringLength) in Self.shapes {
        let settings = XMLEventPipelineSettings(batchSize: batchSize, ringLength: ringLength, minimumByteCount: 0)
        #expect(Self.readModel(xml, options: .default, pipeline: settings) == sequential, "\(label)")
      }
    }
  }

  /// Where `Synchronization` is not available (forced here), the pipeline is not used: the caller reads alone.
  @Test func theFallbackReadsOnTheCallingThread() throws {
    let settings = XMLEventPipelineSettings(batchSize: 1, ringLength: 1, minimumByteCount: 0)
    #expect(settings.isUsed(byteCount: 0))
    #expect(!XMLEventPipelineSettings.sequential.isUsed(byteCount: .max - 1))
    #expect(!XMLEventPipelineSettings.standard.isUsed(byteCount: 1000))
    SynchronizationSupport.$forcesFallback.withValue(true) {
      #expect(!settings.isUsed(byteCount: 0))
    }
    let xml = try #require(try Self.randomDocuments(count: 1).first?.xml)
    let sequential = Self.readModel(xml, options: .default, pipeline: .sequential)
    let fallback = SynchronizationSupport.$forcesFallback.withValue(true) {
      Self.readModel(xml, options: .default, pipeline: settings)
    }
    #expect(fallback == sequential)
    #expect((try? sequential.get()) != nil)
  }
}
