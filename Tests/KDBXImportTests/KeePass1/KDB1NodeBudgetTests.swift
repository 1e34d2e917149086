import KDBXCrypto
import Testing
import VectorSupport

@testable import KDBX
@testable import KDBXImport

/// The KeePass 1.x reader refuses records that no save could hold (``LoadOptions/maxXMLNodeCount``) while it reads
/// them, from their count at a lower bound of nodes each, instead of building the whole database first (#39: a
/// million empty records used 3.9 GiB before the save's node limit refused them).
@Suite struct KDB1NodeBudgetTests {
  static let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  static let key = CompositeKey(password: "pw")

  static func emptyRecords(groups: Int, entries: Int) throws -> [UInt8] {
    var fixture = KDB1Fixture()
    fixture.groups = (0..<groups).map {
      [.init(type: 1, data: KDB1Fixture.uint32(UInt32($0))), .init(type: 8, data: [0, 0])]
    }
    fixture.entries = [[KDB1Fixture.Field]](repeating: [], count: entries)
    return try fixture.file(password: "pw")
  }

  static func open(_ bytes: [UInt8], maxNodes: Int) throws(KDBXError) -> KDB1OpenedDatabase {
    var options = LoadOptions.default
    options.maxXMLNodeCount = maxNodes
    var random = SplitMix64(seed: 3)
    return try KDB1File.open(
      bytes: bytes, key: key, primitives: StandardPrimitives(), clock: clock, random: &random, options: options)
  }

  /// The number of XML nodes the open counts in the document a save of `database` writes.
  static func nodeCount(_ database: Database) throws -> Int {
    var stream = PlaintextInnerStream()
    let xml = try DatabaseXML.serialize(database, version: .v4_1, stream: &stream)
    // The smallest limit the document passes, by bisection over the open's own check.
    var low = 0
    var high = 1 << 24
    while low < high {
      let middle = low + (high - low) / 2
      var options = LoadOptions.default
      options.maxXMLNodeCount = middle
      if (try? KDBXFile.checkOpens(xml: xml, binaries: [], options: options)) != nil {
        high = middle
      } else {
        low = middle + 1
      }
    }
    return low
  }

  @Test func entriesBeyondTheNodeBudgetAreRefusedWhileRead() throws {
    // 100 empty entries take at least 4,800 nodes: a budget of 2,000 is refused by the reader itself, before the
    // database is built (without the budget the open succeeds and only a save would refuse the result).
    let bytes = try Self.emptyRecords(groups: 2, entries: 100)
    #expect(throws: KDBXError.self) { _ = try Self.open(bytes, maxNodes: 2_000) }
    do {
      _ = try Self.open(bytes, maxNodes: 2_000)
    } catch {
      guard case .limitExceeded(let what, let value, let limit) = error else {
        Issue.record("expected a limit error, got \(error)")
        return
      }
      #expect(what.hasPrefix("XML node count"))
      #expect(limit == 2_000)
      #expect(value > 2_000 && value <= 2_000 + KDB1Records.entryNodeCost)
    }
    #expect((try? Self.open(bytes, maxNodes: 1 << 24)) != nil)
  }

  @Test func groupsBeyondTheNodeBudgetAreRefusedFromTheHeaderCount() throws {
    let bytes = try Self.emptyRecords(groups: 100, entries: 0)
    var refused: KDBXError?
    do { _ = try Self.open(bytes, maxNodes: Int(100 * KDB1Records.groupNodeCost) - 1) } catch { refused = error }
    guard case .limitExceeded(_, let value, _)? = refused else {
      Issue.record("expected a limit error, got \(String(describing: refused))")
      return
    }
    #expect(value == 100 * KDB1Records.groupNodeCost)
  }

  /// The costs are lower bounds: the document of an import of empty records has more nodes than they count, so
  /// the reader never refuses what a save would write.
  @Test func nodeCostsAreLowerBounds() throws {
    let opened = try Self.open(try Self.emptyRecords(groups: 30, entries: 50), maxNodes: 1 << 24)
    #expect(opened.database.flatEntries.count == 50)
    let nodes = try Self.nodeCount(opened.database)
    #expect(UInt64(nodes) >= 30 * KDB1Records.groupNodeCost + 50 * KDB1Records.entryNodeCost)
    // And the budget is what the reader accepts: exactly the lower bound for these records opens.
    #expect(
      (try? Self.open(
        try Self.emptyRecords(groups: 30, entries: 50),
        maxNodes: Int(30 * KDB1Records.groupNodeCost + 50 * KDB1Records.entryNodeCost))) != nil)
  }
}

/// KeePass 1.x attachments are pooled through a hash table of their contents (one binary per distinct content),
/// not by `Database.makeAttachment`'s comparison with every binary so far.
@Suite struct KDB1AttachmentPoolTests {
  @Test func equalContentsShareOneBinaryDistinctOnesDoNot() throws {
    var fixture = KDB1Fixture()
    fixture.groups = [KDB1Fixture.group(id: 1, name: "G", level: 0)]
    fixture.entries = (0..<200).map { index in
      KDB1Fixture.entry(
        uuid: KDB1Fixture.uuid(UInt8(index)) + [], groupID: 1, title: "E\(index)", binaryName: "f\(index)",
        binaryData: index % 2 == 0 ? Array("shared".utf8) : Array("own \(index)".utf8))
    }
    let opened = try KDB1NodeBudgetTests.open(try fixture.file(password: "pw"), maxNodes: 1 << 24)
    let database = opened.database
    #expect(database.binaries.count == 101)
    for flat in database.flatEntries {
      let title = flat.entry[field: Entry.titleField]?.reveal() ?? ""
      let index = Int(title.dropFirst()) ?? -1
      let attachment = try #require(flat.entry.attachments.first)
      #expect(attachment.name == "f\(index)")
      #expect(
        database.binaries[attachment.binaryIndex]?.data
          == (index % 2 == 0 ? Array("shared".utf8) : Array("own \(index)".utf8)))
    }
  }
}
