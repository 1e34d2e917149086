import KDBX
import KDBXXML
import Testing
import VectorSupport

/// The XML reader reads nested groups with an explicit stack: a document at the nesting cap
/// (``LoadOptions/maxGroupDepth``, 496 groups) opens on a thread with a small stack, as an app's secondary thread
/// or a Swift concurrency worker has (512 KiB on Darwin). The recursive reader took about 5 KiB of stack per
/// level in release, more in debug, and overflowed such a stack at about 100 levels.
@Suite struct DeepGroupReadTests {
  static let cap = LoadOptions.default.maxGroupDepth

  /// A document `depth` groups deep: each group has a name, an unknown element and a comment before its
  /// subgroup and an unknown element after it; the deepest group holds an entry.
  static func document(depth: Int) -> [UInt8] {
    var xml = "<KeePassFile><Meta/><Root>"
    for level in 1...depth {
      xml += "<Group><Name>g\(level)</Name><Before n=\"\(level)\"/><!--c\(level)-->"
    }
    xml += "<Entry><String><Key>Title</Key><Value>deepest</Value></String></Entry>"
    for level in stride(from: depth, through: 1, by: -1) { xml += "<After n=\"\(level)\"/></Group>" }
    return Array((xml + "</Root></KeePassFile>").utf8)
  }

  static func read(_ xml: [UInt8]) throws(KDBXError) -> Database {
    var stream = CountingStream()
    var random = SplitMix64(seed: 1)
    return try DatabaseXMLReader.read(xml: xml, stream: &stream, random: &random, gzip: NoGzipDecompressor())
  }

  /// The depth, the deepest group's name and entry, and whether every level kept its unknown XML in order
  /// (written back: name, `Before`, comment, subgroup, `After`).
  static func summary(_ database: Database, depth: Int) throws -> [Int] {
    var stream = CountingStream()
    let xml = try DatabaseXML.serialize(database, version: .v4_1, stream: &stream)
    let text = String(decoding: xml, as: UTF8.self)
    var keptInOrder = 1
    var position = text.startIndex
    for level in 1...depth {
      for part in ["<Name>g\(level)</Name>", "<Before n=\"\(level)\"", "<!--c\(level)-->"] {
        guard let found = text.range(of: part, range: position..<text.endIndex) else { return [0] }
        position = found.upperBound
      }
    }
    for level in stride(from: depth, through: 1, by: -1) {
      guard let found = text.range(of: "<After n=\"\(level)\"", range: position..<text.endIndex) else {
        keptInOrder = 0
        break
      }
      position = found.upperBound
    }
    var bottom = database.root
    while let next = bottom?.groups.first { bottom = next }
    return [
      database.groupNestingDepth, bottom?.name == "g\(depth)" ? 1 : 0,
      bottom?.entries.first?.title == "deepest" ? 1 : 0,
      keptInOrder,
    ]
  }

  @Test func aDocumentAtTheCapReadsWithEveryLevelInOrder() throws {
    var database = try Self.read(Self.document(depth: Self.cap))
    defer { DeepTreeWalkTests.dismantle(&database) }
    #expect(try Self.summary(database, depth: Self.cap) == [Self.cap, 1, 1, 1])
    let refused = SaveLimitsTests.error { () throws(KDBXError) in _ = try Self.read(Self.document(depth: Self.cap + 1))
    }
    #expect(
      refused == .limitExceeded(what: "group nesting depth", value: UInt64(Self.cap + 1), limit: UInt64(Self.cap)))
  }

  #if canImport(Glibc) || canImport(Musl)
    /// The open of a document at the cap, and the check that every save runs on its document, on a thread with a
    /// 256 KiB stack (the tree is taken apart there a group at a time: the runtime frees nested groups
    /// recursively).
    @Test func aDocumentAtTheCapReadsOnASmallStack() throws {
      let xml = Self.document(depth: Self.cap)
      let run = SmallStackRun {
        var results: [Int] = []
        do {
          var database = try Self.read(xml)
          results.append(database.groupNestingDepth)
          DeepTreeWalkTests.dismantle(&database)
          results.append(try KDBXFile.checkDocument(xml, options: .default).groupDepth)
        } catch {
          results.append(-1)
        }
        return results
      }
      let results = try #require(run.wait(stackBytes: 256 * 1024))
      #expect(results == [Self.cap, Self.cap])
    }
  #endif
}
