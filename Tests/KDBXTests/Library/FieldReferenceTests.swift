import KDBX
import KDBXBase
import Testing
import VectorSupport

/// Entries with field references, in one root group.
enum ReferenceFixture {
  static func uuid(_ byte: UInt8) -> KDBXUUID { KDBXUUID(bytes: [UInt8](repeating: byte, count: 16)) ?? .zero }
  static let shared = uuid(0xA1)
  static let alias = uuid(0xA2)
  static let custom = uuid(0xA3)
  static let viaOther = uuid(0xA4)
  static let selfLoop = uuid(0xA5)
  static let ping = uuid(0xA6)
  static let pong = uuid(0xA7)
  static let hexOfShared = "A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1"

  static func entry(_ id: KDBXUUID, _ fields: [(String, String)], random: inout SplitMix64) -> Entry {
    var entry = Entry(uuid: id)
    for (key, value) in fields {
      entry[field: key] =
        key == Entry.passwordField ? .protected(ProtectedValue(value, using: &random)) : .plain(value)
    }
    return entry
  }

  static func make(extra: [Entry] = []) -> Database {
    var random = SplitMix64(seed: 77)
    var root = Group(uuid: uuid(0xA0), name: "Root")
    root.entries =
      [
        entry(
          shared,
          [
            ("Title", "Shared login"), ("UserName", "alice"), ("Password", "pa55"),
            ("URL", "https://bob:pw@Example.COM:8443/path/x?q=1#frag"), ("Notes", "see {USERNAME}"),
          ], random: &random),
        entry(
          alias,
          [
            ("Title", "Alias"), ("UserName", "{REF:U@I:\(hexOfShared)}"), ("Password", "{REF:P@T:shared}"),
            ("URL", "{REF:A@U:ALICE}"), ("Notes", "{ref:n@i:\(hexOfShared.lowercased())}"),
          ], random: &random),
        entry(custom, [("Title", "Custom"), ("Password", "c-pass"), ("Account", "acct-77")], random: &random),
        entry(viaOther, [("Title", "Via other"), ("Password", "{REF:P@O:ACCT-77}")], random: &random),
        entry(selfLoop, [("Title", "Loop"), ("Password", "x{REF:P@T:Loop}y")], random: &random),
        entry(ping, [("Title", "Ping"), ("Password", "{REF:P@T:Pong}")], random: &random),
        entry(pong, [("Title", "Pong"), ("Password", "{REF:P@T:Ping}")], random: &random),
      ] + extra
    return Database(root: root)
  }
}

@Suite struct FieldReferenceTests {
  static let database = ReferenceFixture.make()
  static let resolver = PlaceholderResolver(database: database)

  static func value(_ field: String, of id: KDBXUUID) -> String {
    guard let entry = database.entry(withUUID: id) else { return "<missing>" }
    return resolver.value(ofField: field, for: entry)
  }

  @Test func parsesTheReferenceSyntax() {
    let reference = FieldReference(placeholder: "REF:P@I:0011")
    #expect(reference == FieldReference(wanted: .password, searchIn: .uuid, text: "0011"))
    #expect(reference?.placeholder == "{REF:P@I:0011}")
    #expect(FieldReference(placeholder: "ref:a@o:x:y")?.text == "x:y")
    #expect(FieldReference(placeholder: "REF:O@T:x") == nil)  // O is a search field only
    #expect(FieldReference(placeholder: "REF:X@T:x") == nil)
    #expect(FieldReference(placeholder: "REF:P-T:x") == nil)
    #expect(FieldReference(placeholder: "REF:P@T") == nil)
    #expect(
      FieldReference.references(in: "a {REF:T@I:00} b {TITLE} {REF:U@T:z}").map(\.wanted) == [.title, .userName])
  }

  @Test func resolvesEveryWantedAndSearchField() {
    #expect(Self.value("UserName", of: ReferenceFixture.alias) == "alice")
    #expect(Self.value("Password", of: ReferenceFixture.alias) == "pa55")
    #expect(Self.value("URL", of: ReferenceFixture.alias) == "https://bob:pw@Example.COM:8443/path/x?q=1#frag")
    // The referenced notes contain a placeholder, resolved in the referenced entry's context.
    #expect(Self.value("Notes", of: ReferenceFixture.alias) == "see alice")
    #expect(Self.value("Password", of: ReferenceFixture.viaOther) == "c-pass")
    let text = "{REF:I@T:custom} {REF:T@A:example.com} {REF:N@P:PA55}"
    let any = Entry(uuid: .zero)
    #expect(Self.resolver.resolve(text, for: any) == "A3A3A3A3A3A3A3A3A3A3A3A3A3A3A3A3 Shared login see alice")
  }

  @Test func anUnmatchedReferenceStaysAsWritten() {
    let text = "{REF:P@T:no such title} and {REF:P@I:zz}"
    #expect(Self.resolver.resolve(text, for: Entry(uuid: .zero)) == text)
  }

  @Test func cyclesAreLeftUnresolved() {
    #expect(Self.value("Password", of: ReferenceFixture.selfLoop) == "x{REF:P@T:Loop}y")
    // Ping -> Pong -> Ping: Pong's reference back to Ping stays as text.
    #expect(Self.value("Password", of: ReferenceFixture.ping) == "{REF:P@T:Ping}")
    #expect(Self.value("Password", of: ReferenceFixture.pong) == "{REF:P@T:Pong}")
  }

  @Test(arguments: [3, 9, 20])
  func depthIsLimited(chainLength: Int) {
    // Entry k's password refers to entry k + 1 by UUID; the last password is "end".
    var random = SplitMix64(seed: 78)
    let ids = (0..<chainLength).map { KDBXUUID(bytes: [0xC0, UInt8($0)] + [UInt8](repeating: 0, count: 14)) ?? .zero }
    var chain: [Entry] = []
    for (index, id) in ids.enumerated() {
      let next = index + 1 < ids.count ? "{REF:P@I:\(Hex.encode(ids[index + 1].bytes))}" : "end"
      chain.append(ReferenceFixture.entry(id, [("Title", "c\(index)"), ("Password", next)], random: &random))
    }
    let database = ReferenceFixture.make(extra: chain)
    let resolver = PlaceholderResolver(database: database, maximumDepth: 10)
    let first = database.entry(withUUID: ids[0]) ?? Entry(uuid: .zero)
    let result = resolver.value(ofField: "Password", for: first)
    if chainLength <= 9 {
      #expect(result == "end")
    } else {
      #expect(result.hasPrefix("{REF:P@I:"))
    }
  }

  @Test func reverseIndexListsReferencingEntries() {
    let index = Self.database.fieldReferenceIndex()
    #expect(index[ReferenceFixture.shared] == [ReferenceFixture.alias])
    #expect(index[ReferenceFixture.custom] == [ReferenceFixture.viaOther])
    #expect(index[ReferenceFixture.selfLoop] == [ReferenceFixture.selfLoop])
    #expect(index[ReferenceFixture.ping] == [ReferenceFixture.pong])
    #expect(index[ReferenceFixture.alias] == nil)
    #expect(Self.database.entriesReferencing(ReferenceFixture.pong) == [ReferenceFixture.ping])
    #expect(Self.database.entriesReferencing(ReferenceFixture.viaOther).isEmpty)
  }
}
