import KDBX
import KDBXXML
import Testing
import VectorSupport

/// One cap on group nesting for every tree, and a save that checks its document with the open's own counting
/// rule: no save writes a file that the open refuses, and a tree of any depth is refused without recursion.
@Suite struct SaveLimitsTests {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  static let key = CompositeKey(password: "limits")
  static let settings = SaveSettings(version: .v4_1, cipher: .chaCha20, kdf: KDBXFileTests.aes, compression: .gzip)

  /// A database whose group tree is `depth` deep (the root counts as 1), one chain, an entry in the deepest group.
  /// Built bottom up, so that building it does not recurse either.
  static func chain(depth: Int) -> Database {
    var random = SplitMix64(seed: 7)
    var database = Database.new(name: "Root", clock: clock, random: &random)
    guard depth > 1 else { return database }
    var inner = Group.new(name: "G\(depth)", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry.title = "deepest"
    inner.entries.append(entry)
    for level in stride(from: depth - 1, through: 2, by: -1) {
      var parent = Group.new(name: "G\(level)", clock: clock, random: &random)
      parent.groups = [inner]
      inner = parent
    }
    database.root?.groups = [inner]
    return database
  }

  /// Takes a deep chain apart from the top, so that releasing it does not recurse once per level (the runtime
  /// destroys nested arrays recursively, and a sanitizer's larger frames would make that deep).
  static func dismantle(_ database: inout Database) {
    guard var current = database.root else { return }
    database.root = nil
    while let next = current.groups.popLast() { current = next }
  }

  static func save(_ database: Database, limits: LoadOptions = .default) throws(KDBXError) -> [UInt8] {
    var random = SplitMix64(seed: 3)
    return try KDBXFile.write(
      database, key: key, settings: settings, primitives: FakePrimitives(), random: &random, limits: limits
    ).bytes
  }

  static func open(_ bytes: [UInt8], options: LoadOptions = .default) throws(KDBXError) -> Database {
    var random = SplitMix64(seed: 4)
    return try KDBXFile.open(bytes: bytes, key: key, primitives: FakePrimitives(), random: &random, options: options)
      .database
  }

  static func error(_ body: () throws(KDBXError) -> Void) -> KDBXError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func theCapFollowsTheXMLDepthLimit() {
    #expect(LoadOptions.default.maxGroupDepth == 496)
    #expect(LoadOptions(maxXMLDepth: 40).maxGroupDepth == 24)
    #expect(Self.chain(depth: 1).groupNestingDepth == 1)
    #expect(Self.chain(depth: 7).groupNestingDepth == 7)
  }

  /// At the cap the save writes a file that opens with every group; one more level is refused before anything
  /// is written, with the open's own words.
  @Test func aSaveAtTheCapOpensAndOneLevelMoreIsRefused() throws {
    let cap = LoadOptions.default.maxGroupDepth
    let file = try Self.save(Self.chain(depth: cap))
    let back = try Self.open(file)
    #expect(back.groupNestingDepth == cap)
    #expect(back.flatEntries.first?.groupPath.count == cap - 1)
    let tooDeep = Self.error { () throws(KDBXError) in _ = try Self.save(Self.chain(depth: cap + 1)) }
    #expect(tooDeep == .limitExceeded(what: "group nesting depth", value: UInt64(cap + 1), limit: UInt64(cap)))
  }

  /// A tree thousands of groups deep (as an import of a 10 KB file built one) crashed the save's recursive XML
  /// walk with a stack overflow; it is now refused after a walk with an explicit stack.
  @Test func aTreeThousandsDeepIsRefusedNotACrash() {
    var database = Self.chain(depth: 5_000)
    #expect(database.groupNestingDepth == 5_000)
    let refused = Self.error { () throws(KDBXError) in _ = try Self.save(database) }
    #expect(refused == .limitExceeded(what: "group nesting depth", value: 5_000, limit: 496))
    Self.dismantle(&database)
  }

  /// The writer walks the tree with an explicit stack: at a depth whose recursive walk used several megabytes of
  /// stack in a debug build, it writes every level, each group inside the one before.
  @Test func theWriterWalksDeepTreesWithoutRecursion() throws {
    var stream = CountingStream()
    var database = Self.chain(depth: 3_000)
    defer { Self.dismantle(&database) }
    let xml = try DatabaseXML.serialize(database, version: .v4_1, stream: &stream)
    var options = LoadOptions.default
    options.maxXMLDepth = 3_016
    let check = try KDBXFile.checkDocument(xml, options: options)
    #expect(check.groupDepth == 3_000)
    let text = String(decoding: xml, as: UTF8.self)
    #expect(text.contains("<Name>G3000</Name>"))
    #expect(text.split(separator: "<Group>", omittingEmptySubsequences: false).count == 3_001)
    let refused = Self.error { () throws(KDBXError) in _ = try KDBXFile.checkDocument(xml, options: .default) }
    #expect(refused == .limitExceeded(what: "group nesting depth", value: 497, limit: 496))
  }

  /// The open refuses a document deeper than the cap with the same error, and so does the document check that
  /// every save and `kdbx verify` run.
  @Test func theOpenAndTheCheckRefuseAGroupTreeDeeperThanTheCap() throws {
    var options = LoadOptions.default
    options.maxXMLDepth = 30
    let cap = options.maxGroupDepth
    for depth in [cap, cap + 1] {
      let xml = Array(
        ("<KeePassFile><Meta/><Root>" + String(repeating: "<Group><Name>g</Name>", count: depth)
          + String(repeating: "</Group>", count: depth) + "</Root></KeePassFile>").utf8)
      let refused = KDBXError.limitExceeded(what: "group nesting depth", value: UInt64(cap + 1), limit: UInt64(cap))
      var stream = CountingStream()
      var random = SplitMix64(seed: 1)
      let opened = Self.error { () throws(KDBXError) in
        _ = try DatabaseXMLReader.read(
          xml: xml, stream: &stream, random: &random, gzip: NoGzipDecompressor(), options: options)
      }
      let checked = Self.error { () throws(KDBXError) in _ = try KDBXFile.checkDocument(xml, options: options) }
      #expect(opened == (depth > cap ? refused : nil))
      #expect(checked == (depth > cap ? refused : nil))
    }
  }

  /// The save's check counts nodes exactly as the open does (text runs included, which the check read without
  /// counting before: a save of 400,000 imported items succeeded and the open then refused the file), at the
  /// limit - 1, the limit and + 1. 600 entries make a document past 256 KiB, which the open and the save's check
  /// read through the event pipeline (a helper reads ahead).
  @Test(arguments: [40, 600]) func theSaveAndTheOpenCountNodesAlike(entryCount: Int) throws {
    var random = SplitMix64(seed: 9)
    var database = Database.new(name: "Nodes", clock: Self.clock, random: &random)
    for index in 0..<entryCount {
      var entry = Entry.new(clock: Self.clock, random: &random)
      entry.title = "entry \(index)"
      entry.setCustomField("note", to: "  spaced  <&> text \(index)", protected: index % 3 == 0)
      database.root?.entries.append(entry)
    }
    let file = try Self.save(database)
    var stream = CountingStream()
    var xmlRandom = SplitMix64(seed: 2)
    let xml = try DatabaseXML.serialize(database, version: .v4_1, stream: &stream)
    let check = try KDBXFile.checkDocument(xml, options: .default)
    #expect(check.nodeCount > check.elementCount, "text runs are nodes")
    #expect((xml.count >= XMLEventPipelineSettings.standard.minimumByteCount) == (entryCount > 40))
    let count = check.nodeCount
    for limit in [count - 1, count, count + 1] {
      var options = LoadOptions.default
      options.maxXMLNodeCount = limit
      let refused = KDBXError.limitExceeded(what: "XML node count", value: UInt64(count), limit: UInt64(limit))
      let saved = Self.error { () throws(KDBXError) in _ = try Self.save(database, limits: options) }
      let opened = Self.error { () throws(KDBXError) in _ = try Self.open(file, options: options) }
      var readStream = CountingStream()
      let read = Self.error { () throws(KDBXError) in
        _ = try DatabaseXMLReader.read(
          xml: xml, stream: &readStream, random: &xmlRandom, gzip: NoGzipDecompressor(), options: options)
      }
      #expect(saved == (limit < count ? refused : nil), "save at limit \(limit) of \(count)")
      #expect(opened == (limit < count ? refused : nil), "open at limit \(limit) of \(count)")
      #expect(read == (limit < count ? refused : nil), "model read at limit \(limit) of \(count)")
    }
  }

  /// What the model may hold is bounded by the document's size on open (three times it plus 16 MiB); 40,000
  /// entries that hold nothing but a UUID (built through the API) need more than their 2.6 MB document allows. The
  /// save wrote that file and the open refused it; the save now reads its document with the open's reader and
  /// refuses it the same way, while 10,000 such entries save and open.
  @Test func theSaveRefusesWhatTheOpenWouldRefuseForItsModelSize() throws {
    func bare(_ count: Int) -> Database {
      var random = SplitMix64(seed: 11)
      var database = Database.new(name: "Bare", clock: Self.clock, random: &random)
      for _ in 0..<count {
        let bytes = (0..<2).flatMap { _ in withUnsafeBytes(of: random.next()) { Array($0) } }
        guard let uuid = KDBXUUID(bytes: bytes) else { continue }
        database.root?.entries.append(Entry(uuid: uuid))
      }
      return database
    }
    let refused = Self.error { () throws(KDBXError) in _ = try Self.save(bare(40_000)) }
    guard case .limitExceeded(let what, _, _)? = refused else {
      Issue.record("expected the open's limit, got \(String(describing: refused))")
      return
    }
    #expect(what == "memory the XML document's content needs, in bytes,")
    let file = try Self.save(bare(10_000))
    #expect(try Self.open(file).root?.entries.count == 10_000)
  }
}
