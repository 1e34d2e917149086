import Foundation
import KDBX
import KDBXXML
import Testing
import VectorSupport

/// Issue #19 items 8, 12, 13 and 14 (dangling attachment references, characters XML 1.0 cannot carry): vaults with
/// valid cryptography around a chosen database XML, made here with the library (``HostileVault``), opened by the
/// CLI as a user would. Each test failed before the fix (see the report of the `reader` branch).
@Suite(.enabled(if: CLI.available))
struct HostileXMLTests {
  static let password = "hostile"

  // MARK: - Item 8: XML memory

  /// 16 MiB of `<a/>` inside Meta (4 M unknown elements, a 16 KiB file): the open peaks at 21 times the document
  /// before the fix (about 350 MB); the bound is four times the document plus the 16 MiB floor, above the
  /// process's own footprint.
  @Test(.enabled(if: PeakMemory.available != nil, "GNU time is needed to measure peak memory"))
  func millionsOfTinyUnknownElementsStayUnderFourTimesTheDocument() throws {
    let time = try #require(PeakMemory.available)
    let count = 4 << 20
    var xml = HostileVault.prefix(meta: "<Generator>hostile</Generator>")
    xml.reserveCapacity(count * 4 + 4096)
    for _ in 0..<count { xml += Array("<a/>".utf8) }
    xml += HostileVault.suffix(meta: "", root: HostileVault.rootGroup(""))
    let path = try HostileVault.write([.xml(xml)], version: .v4_0)
    let baseline = try time.peakKilobytes(["ls", try HostileVault.write([.xml(HostileVault.small)], version: .v4_0)])
    let run = try time.run(["ls", path])
    #expect(run.status == 0, "\(run.err)")
    let bound = baseline.kilobytes + (4 * xml.count + (16 << 20)) / 1024
    print(
      "HostileXMLTests: \(xml.count) bytes of XML: peak \(run.kilobytes) KB, bound \(bound) KB (an empty vault \(baseline.kilobytes) KB)"
    )
    #expect(run.kilobytes <= bound, "peak \(run.kilobytes) KB, bound \(bound) KB (baseline \(baseline.kilobytes) KB)")
  }

  /// Half a million empty entries (4 MB of XML) would need about 400 MB of model: refused with a message, within
  /// the same bound, without a signal.
  @Test(.enabled(if: PeakMemory.available != nil, "GNU time is needed to measure peak memory"))
  func emptyEntriesBeyondTheModelBudgetAreRefused() throws {
    let time = try #require(PeakMemory.available)
    var entries: [UInt8] = []
    for _ in 0..<(1 << 19) { entries += Array("<Entry/>".utf8) }
    let xml = HostileVault.prefix(meta: "") + HostileVault.suffix(meta: "", root: HostileVault.rootGroup(entries))
    let path = try HostileVault.write([.xml(xml)], version: .v4_0)
    let baseline = try time.peakKilobytes(["ls", try HostileVault.write([.xml(HostileVault.small)], version: .v4_0)])
    let run = try time.run(["ls", path])
    #expect(run.status == 1, "exit \(run.status): \(run.err)")
    #expect(run.err.contains("exceeds the limit"), "\(run.err)")
    let bound = baseline.kilobytes + (4 * xml.count + (16 << 20)) / 1024
    print(
      "HostileXMLTests: \(xml.count) bytes of XML: peak \(run.kilobytes) KB, bound \(bound) KB (an empty vault \(baseline.kilobytes) KB)"
    )
    #expect(run.kilobytes <= bound, "peak \(run.kilobytes) KB, bound \(bound) KB (baseline \(baseline.kilobytes) KB)")
  }

  // MARK: - Item 12: verify says what it checked

  /// A KDBX 3.1 file without Meta/HeaderHash (KeePass before 2.20) whose ProtectedStreamKey was changed: it opens
  /// (nothing authenticates the header) with garbled protected values; verify must not claim a header hash.
  @Test func verifyDoesNotClaimAHeaderHashThatIsNotThere() throws {
    let entry = HostileVault.entry(
      title: "Bank", fields: [("Password", .protected(Array("correct horse battery staple".utf8)))])
    let parts = HostileVault.document(meta: "<Generator>KeePass 2.19</Generator>", entries: entry)
    let intact = try HostileVault.write(parts, version: .v3_1)
    let clean = try CLI.run(["verify", intact], input: Self.password + "\n")
    #expect(clean.status == 0, "\(clean.err)")
    #expect(!clean.out.contains("header hash in Meta"), "\(clean.out)")
    #expect(
      clean.out.contains(
        "header not authenticated (no HeaderHash in this KDBX 3.x file); content verified by block hashes"),
      "\(clean.out)")

    let damaged = try HostileVault.flipProtectedStreamKey(of: intact)
    let result = try CLI.run(["verify", damaged], input: Self.password + "\n")
    #expect(result.out.contains("header not authenticated"), "\(result.out)")
    #expect(result.out.contains("not valid UTF-8"), "\(result.out)\(result.err)")

    // With a HeaderHash, verify says it was checked.
    let hashed = HostileVault.document(
      meta: "<Generator>KeePass 2.20</Generator>", headerHash: true, entries: entry)
    let checked = try CLI.run(["verify", try HostileVault.write(hashed, version: .v3_1)], input: Self.password + "\n")
    #expect(checked.status == 0, "\(checked.err)")
    #expect(checked.out.contains("header hash in Meta"), "\(checked.out)")
    #expect(!checked.out.contains("header not authenticated"), "\(checked.out)")
  }

  // MARK: - Item 13: invalid UTF-8 in protected values

  /// A protected value whose bytes are not UTF-8, in KDBX 3.1 (Salsa20) and 4 (ChaCha20): the bytes survive open,
  /// edit and save; show prints them escaped; verify warns.
  @Test(arguments: [KDBXVersion.v3_1, .v4_0])
  func protectedBytesThatAreNotUTF8SurviveAndShowEscaped(_ version: KDBXVersion) throws {
    let raw: [UInt8] = [0x66, 0xFF, 0x6F, 0xC3]
    let entry = HostileVault.entry(title: "Odd", fields: [("Password", .protected(raw))])
    let path = try HostileVault.write(HostileVault.document(meta: "", entries: entry), version: version)

    let show = try CLI.run(["show", path, "Odd", "-s"], input: Self.password + "\n")
    #expect(show.status == 0, "\(show.err)")
    #expect(show.out.contains("Password: f\\xffo\\xc3\n"), "\(show.out)")
    let verify = try CLI.run(["verify", path], input: Self.password + "\n")
    #expect(verify.out.contains("1 protected value(s) are not valid UTF-8 (Odd: Password)"), "\(verify.out)")

    // An edit of the entry saves the vault (and puts the old version in history): the bytes stay as they were.
    let edit = try CLI.run(["edit", path, "Odd", "--username", "someone"], input: Self.password + "\n")
    #expect(edit.status == 0, "\(edit.err)")
    let opened = try KDBXFile.openBlocking(
      bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))), key: CompositeKey(password: Self.password))
    let odd = try #require(opened.database.root?.entries.first)
    guard case .protected(let value)? = odd[field: "Password"] else {
      Issue.record("the password is not protected any more")
      return
    }
    #expect(value.revealBytes() == raw)
    guard case .protected(let old)? = odd.history?.first?[field: "Password"] else {
      Issue.record("no history item with the password")
      return
    }
    #expect(old.revealBytes() == raw)
  }

  // MARK: - Item 14: dangling attachment references

  /// `<Value Ref="5"/>` with no binary 5 made the whole vault unopenable. It opens, the attachment is listed as
  /// missing, verify reports it, and a save keeps the reference (still missing) and the other attachments.
  @Test(arguments: [KDBXVersion.v3_1, .v4_0])
  func danglingAttachmentReferenceOpensAndIsReported(_ version: KDBXVersion) throws {
    let first = HostileVault.entry(
      title: "Docs", fields: [("UserName", .plain("me"))],
      extra: "<Binary><Key>lost.txt</Key><Value Ref=\"5\"/></Binary>")
    let second = HostileVault.entry(title: "Other", fields: [])
    let path = try HostileVault.write(HostileVault.document(meta: "", entries: first + second), version: version)

    let list = try CLI.run(["ls", path], input: Self.password + "\n")
    #expect(list.status == 0, "\(list.err)")
    #expect(list.out == "Docs\nOther\n", "\(list.out)")
    let show = try CLI.run(["show", path, "Docs"], input: Self.password + "\n")
    #expect(show.status == 0, "\(show.err)")
    #expect(show.out.contains("  lost.txt (missing: the file's reference 5 names no stored data)\n"), "\(show.out)")
    let verify = try CLI.run(["verify", path], input: Self.password + "\n")
    #expect(verify.status == 1)
    #expect(verify.out.contains("Docs: attachment 'lost.txt' points at missing data (reference 5)"), "\(verify.out)")

    // A save (through an edit of the other entry, and an attachment added there) keeps the missing reference.
    let attachment = path + ".txt"
    try Data("kept".utf8).write(to: URL(fileURLWithPath: attachment))
    let add = try CLI.run(["attachment-import", path, "Other", "kept.txt", attachment], input: Self.password + "\n")
    #expect(add.status == 0, "\(add.err)")
    let again = try CLI.run(["show", path, "Docs"], input: Self.password + "\n")
    #expect(again.out.contains("lost.txt (missing"), "\(again.out)")
    let other = try CLI.run(["show", path, "Other"], input: Self.password + "\n")
    #expect(other.out.contains("kept.txt (4 bytes)"), "\(other.out)")
  }

  // MARK: - Item 14: characters XML 1.0 cannot carry, in export

  /// A protected value holding U+0011 (KDBX stores protected values as base64, so it can): `export --format xml`
  /// failed. It leaves the character out, as KeePass does, says so on stderr, and leaves the vault unchanged.
  @Test func xmlExportLeavesOutWhatXMLCannotCarry() throws {
    let entry = HostileVault.entry(title: "Ctl", fields: [("Notes", .protected(Array("a\u{11}b".utf8)))])
    let path = try HostileVault.write(HostileVault.document(meta: "", entries: entry), version: .v4_0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let export = try CLI.run(["export", path, "--format", "xml"], input: Self.password + "\n")
    #expect(export.status == 0, "\(export.err)")
    #expect(export.out.contains("<Value ProtectInMemory=\"True\">ab</Value>"), "\(export.out)")
    #expect(!export.out.unicodeScalars.contains("\u{11}"))
    #expect(export.err.contains("left out 1 character(s) that XML 1.0 cannot carry"), "\(export.err)")
    #expect(export.err.contains("Ctl: Notes"), "\(export.err)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    // The export reads back (import), with the value protected.
    let xml = path + ".xml"
    try Data(export.out.utf8).write(to: URL(fileURLWithPath: xml))
    let imported = path + ".imported.kdbx"
    let result = try CLI.run(["import", xml, imported, "--kdf", "aes-kdf", "--rounds", "1000"], input: "x\n")
    #expect(result.status == 0, "\(result.err)")
    let shown = try CLI.run(["show", imported, "Ctl"], input: "x\n")
    #expect(shown.out.contains("Notes: PROTECTED"), "\(shown.out)")
  }
}

/// Peak resident memory of a CLI run, read by `/usr/bin/time -f %M` (GNU time). Missing time(1) skips the memory
/// tests with a note.
struct PeakMemory {
  static let path = "/usr/bin/time"
  static let available: PeakMemory? = {
    guard FileManager.default.isExecutableFile(atPath: path) else {
      print("HostileXMLTests: SKIP memory checks: \(path) is missing")
      return nil
    }
    return PeakMemory()
  }()

  struct Run {
    var status: Int32
    var out: String
    var err: String
    var kilobytes: Int
  }

  func run(_ arguments: [String]) throws -> Run {
    let result = try CLI.run(
      ["-f", "peak-kilobytes=%M", CLI.binary] + arguments, input: HostileXMLTests.password + "\n",
      binary: Self.path)
    let line = result.err.split(separator: "\n").last { $0.hasPrefix("peak-kilobytes=") }
    let kilobytes = line.flatMap { Int($0.dropFirst("peak-kilobytes=".count)) } ?? .max
    // GNU time reports the child's exit status as its own, and a signal as "Command terminated by signal N".
    #expect(!result.err.contains("terminated by signal"), "\(result.err)")
    return Run(status: result.status, out: result.out, err: result.err, kilobytes: kilobytes)
  }

  func peakKilobytes(_ arguments: [String]) throws -> Run { try run(arguments) }
}

/// KDBX files with real cryptography around a chosen database XML document: ``HostileVault/rawDocument(_:)`` gives the
/// document to `KDBXFile.write` instead of the model's, protecting the values marked protected with the file's
/// inner random stream, in document order.
enum HostileVault {
  enum Part {
    case xml([UInt8])
    /// A protected value's plaintext, written as base64 of the bytes XORed with the inner random stream.
    case protected([UInt8])
    /// KDBX 3.1's `Meta/HeaderHash` of the file being written.
    case headerHash
  }

  enum Value {
    case plain(String)
    case protected([UInt8])
  }

  static func prefix(meta: String) -> [UInt8] {
    Array("<?xml version=\"1.0\" encoding=\"utf-8\" standalone=\"yes\"?>\n<KeePassFile><Meta>\(meta)".utf8)
  }

  static func suffix(meta: String, root: [UInt8]) -> [UInt8] {
    Array("\(meta)</Meta><Root>".utf8) + root + Array("</Root></KeePassFile>".utf8)
  }

  static func rootGroup(_ content: String) -> [UInt8] { rootGroup(Array(content.utf8)) }

  static func rootGroup(_ content: [UInt8]) -> [UInt8] {
    Array("<Group><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>".utf8) + content + Array("</Group>".utf8)
  }

  static let small = prefix(meta: "") + suffix(meta: "", root: rootGroup(""))

  /// An entry with `title` and `fields` (and `extra` XML inside it).
  static func entry(title: String, fields: [(String, Value)], extra: String = "") -> [Part] {
    var uuid = [UInt8](repeating: 0, count: 16)
    uuid[15] = UInt8(truncatingIfNeeded: title.utf8.reduce(0) { $0 &+ Int($1) } &+ fields.count)
    uuid[14] = UInt8(truncatingIfNeeded: title.utf8.count)
    var parts: [Part] = [
      .xml(Array("<Entry><UUID>\(Data(uuid).base64EncodedString())</UUID>".utf8)),
      .xml(Array("<String><Key>Title</Key><Value>\(title)</Value></String>".utf8)),
    ]
    for (key, value) in fields {
      switch value {
      case .plain(let text): parts.append(.xml(Array("<String><Key>\(key)</Key><Value>\(text)</Value></String>".utf8)))
      case .protected(let bytes):
        parts.append(.xml(Array("<String><Key>\(key)</Key><Value Protected=\"True\">".utf8)))
        parts.append(.protected(bytes))
        parts.append(.xml(Array("</Value></String>".utf8)))
      }
    }
    parts.append(.xml(Array("\(extra)</Entry>".utf8)))
    return parts
  }

  /// A whole document: Meta (with `meta`, and KDBX 3.1's HeaderHash when asked), a root group holding `entries`.
  static func document(meta: String, headerHash: Bool = false, entries: [Part]) -> [Part] {
    var parts: [Part] = [.xml(prefix(meta: meta))]
    if headerHash { parts += [.xml(Array("<HeaderHash>".utf8)), .headerHash, .xml(Array("</HeaderHash>".utf8))] }
    parts.append(.xml(Array("</Meta><Root><Group><UUID>AAAAAAAAAAAAAAAAAAAAAQ==</UUID><Name>Root</Name>".utf8)))
    parts += entries
    parts.append(.xml(Array("</Group></Root></KeePassFile>".utf8)))
    return parts
  }

  /// Writes the file (AES-256, AES-KDF with 1,000 rounds, gzip) in a fresh temporary directory; returns its path.
  static func write(_ parts: [Part], version: KDBXVersion) throws -> String {
    let settings = SaveSettings(
      version: version, kdf: .aesKDF(AESKDFParameters(rounds: 1000, seed: [UInt8](repeating: 0, count: 32))))
    var random = SystemRandomNumberGenerator()
    let saved = try KDBXFile.write(
      Database(root: Group(uuid: .zero, name: "Root")),
      key: CompositeKey(password: HostileXMLTests.password), settings: settings,
      primitives: StandardPrimitives(), random: &random, checksLimits: false, xml: rawDocument(parts))
    let path = try TestScratch.directory("kdbx-hostile") + "/vault.kdbx"
    try Data(saved.bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A copy of the KDBX 3.x file at `path` with one byte of its ProtectedStreamKey header field (ID 8) flipped.
  static func flipProtectedStreamKey(of path: String) throws -> String {
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    var offset = 12
    while offset + 3 <= bytes.count {
      let id = bytes[offset]
      let size = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8
      if id == 8 {
        bytes[offset + 3] ^= 0x01
        break
      }
      if id == 0 { break }
      offset += 3 + size
    }
    let copy = path + ".flipped.kdbx"
    try Data(bytes).write(to: URL(fileURLWithPath: copy))
    return copy
  }
}

extension HostileVault {
  /// The database XML writer replaced by one that writes the given document: the protected parts masked with the
  /// file's inner random stream, the header hash the save computed.
  static func rawDocument(_ parts: [Part]) -> DatabaseXMLOverride<StandardPrimitives.InnerStream> {
    DatabaseXMLOverride(serialize: { database, _, stream in
      var out: [UInt8] = []
      for part in parts {
        switch part {
        case .xml(let bytes): out += bytes
        case .protected(let plain):
          var masked = plain
          stream.apply(to: &masked)
          out += Array(Data(masked).base64EncodedString().utf8)
        case .headerHash:
          out += Array(Data(database.meta.headerHash ?? []).base64EncodedString().utf8)
        }
      }
      return out
    })
  }
}
