import Foundation
import KDBXBase
import KDBXCrypto
import Testing
import VectorSupport

@testable import KDBX
@testable import KDBXImport

/// The KeePass 1.x files of the acceptance corpus (`../shared/corpus`, written by KeePass 1.x and KeePassX):
/// each opens with its credentials and matches its oracle (`<file>.expected.json`, read by File::KeePass or the
/// corpus' own kdb1.py), a wrong password is a wrong key, and truncations and byte flips fail cleanly.
@Suite(.enabled(if: Corpus.isAvailable, "needs ../shared/corpus"))
struct KDB1CorpusTests {
  struct File: Sendable, CustomTestStringConvertible {
    var path: String
    var password: String?
    var keyFile: String?
    var testDescription: String { path }

    var key: CompositeKey {
      get throws {
        let keyFile = try self.keyFile.map { path in try KeyFile(contents: try #require(Corpus.file(path))) }
        return CompositeKey(password: password, keyFile: keyFile)
      }
    }
  }

  /// The KDB1 rows of MANIFEST.tsv.
  static let files: [File] = {
    guard let manifest = Corpus.file("MANIFEST.tsv") else { return [] }
    return String(decoding: manifest, as: UTF8.self).split(separator: "\n").dropFirst().compactMap { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count > 8, cells[4] == "KDB1", cells[8] == "no" else { return nil }
      return File(
        path: cells[0], password: cells[5] == "-" ? nil : cells[5], keyFile: cells[6] == "-" ? nil : cells[6])
    }
  }()

  static func open(_ bytes: [UInt8], key: CompositeKey) throws(KDBXError) -> KDB1OpenedDatabase {
    var random = SplitMix64(seed: 11)
    return try KDB1File.open(
      bytes: bytes, key: key, primitives: StandardPrimitives(), clock: KDB1Tests.clock, random: &random)
  }

  /// The corpus oracle of `path` (`PATH.expected.json`, schema in ../shared/corpus/README.md).
  static func oracle(_ path: String) -> [String: Any]? {
    guard let bytes = Corpus.file(path + ".expected.json") else { return nil }
    return (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
  }

  @Test func corpusHasTheEightFiles() {
    #expect(Self.files.count == 8, "\(Self.files.map(\.path))")
  }

  @Test(arguments: files)
  func matchesOracle(_ file: File) throws {
    let bytes = try #require(Corpus.file(file.path))
    let expected = try #require(Self.oracle(file.path))
    let opened = try Self.open(bytes, key: try file.key)
    let problems = KDB1Oracle.compare(opened, with: expected)
    #expect(problems.isEmpty, "\(file.path): \(problems.prefix(12).joined(separator: "; "))")
    if file.path.hasSuffix("CP-1252.kdb") { #expect(opened.passwordEncoding == .windows1252) }
    if file.keyFile != nil && file.password == nil { #expect(opened.passwordEncoding == nil) }
  }

  @Test(arguments: files)
  func wrongPasswordIsAWrongKey(_ file: File) throws {
    let bytes = try #require(Corpus.file(file.path))
    let keyFile = try file.keyFile.map { path in try KeyFile(contents: try #require(Corpus.file(path))) }
    let wrong = CompositeKey(password: (file.password ?? "") + "x", keyFile: keyFile)
    #expect(throws: KDBXError.invalidCredentials) { try Self.open(bytes, key: wrong) }
  }

  /// Every truncation and a flip of every byte (two patterns), opened with the file's transformed key (no KDF per
  /// try): nothing traps, nothing but the header's unchecked bytes opens, and with the key right, any change to the
  /// encrypted content, the IV or the content hash reads as damage, not as a wrong key.
  @Test(arguments: files)
  func mutationSweep(_ file: File) throws {
    let bytes = try #require(Corpus.file(file.path))
    let opened = try Self.open(bytes, key: try file.key)
    let key = try CompositeKey(transformedKey: opened.transformedKey)
    let header = KDB1Header.byteCount
    #expect((bytes.count - header) / 16 >= 4)
    func outcome(_ mutated: [UInt8]) -> Result<KDB1OpenedDatabase, KDBXError> {
      do throws(KDBXError) { return .success(try Self.open(mutated, key: key)) } catch { return .failure(error) }
    }
    for length in 0..<bytes.count {
      switch outcome(Array(bytes[0..<length])) {
      case .success: Issue.record("\(file.path): truncated to \(length) bytes opened")
      case .failure(let error):
        if length >= header + 16, (length - header) % 16 == 0 {
          // Damage, or (when too little is left for the counted records) found before the key derivation.
          var early = false
          if case .malformedHeader("Groups/Entries", _) = error { early = true }
          #expect(KDB1Tests.isDamage(error) || early, "\(file.path) cut to \(length): \(error)")
        } else if length >= 8 {
          guard case .truncated = error else {
            Issue.record("\(file.path) cut to \(length): \(error)")
            continue
          }
        }
      }
    }
    for offset in 0..<bytes.count {
      for pattern: UInt8 in [0x01, 0xFF] {
        var mutated = bytes
        mutated[offset] ^= pattern
        let result = outcome(mutated)
        switch offset {
        case 32..<48, 56..<88, header...:  // IV, content hash, encrypted content
          guard case .failure(let error) = result, KDB1Tests.isDamage(error) else {
            Issue.record("\(file.path) byte \(offset) ^ \(pattern): \(result)")
            continue
          }
        case 16..<32:  // master seed: another cipher key
          guard case .failure(.invalidCredentials) = result else {
            Issue.record("\(file.path) byte \(offset) ^ \(pattern): \(result)")
            continue
          }
        case 8..<13, 88..<124:
          // Unchecked, and allowed to open: flag bits other than the cipher's, the low version byte, and the
          // transform seed and rounds (the cached key skips the KDF).
          break
        default:  // signatures, version, counts
          if case .success = result { Issue.record("\(file.path) byte \(offset) ^ \(pattern) opened") }
        }
      }
    }
  }

  /// The oracle comparison can fail: a changed title, password, time and a lost group are each reported.
  @Test func oracleComparisonReportsDifferences() throws {
    let file = try #require(Self.files.first { $0.path.hasSuffix("basic.kdb") })
    let expected = try #require(Self.oracle(file.path))
    var opened = try Self.open(try #require(Corpus.file(file.path)), key: try file.key)
    #expect(KDB1Oracle.compare(opened, with: expected).isEmpty)
    var root = try #require(opened.database.root)
    root.groups[0].entries[0][field: Entry.titleField] = .plain("Changed")
    var random = SplitMix64(seed: 2)
    root.groups[0].entries[0][field: Entry.passwordField] = .protected(ProtectedValue("other", using: &random))
    root.groups[0].entries[0].times?.expires = false
    root.groups[0].groups.removeLast()  // Internet/Subgroup 2
    opened.database.root = root
    let problems = KDB1Oracle.compare(opened, with: expected)
    for needle in [".title", ".password", ".expires", "counts.groups"] {
      #expect(problems.contains { $0.contains(needle) }, "\(needle) not reported: \(problems)")
    }
  }

  /// With the real key, a changed transform seed or master seed is a wrong key.
  @Test func keyDerivationInputsMatter() throws {
    let file = try #require(Self.files.first { $0.path.hasSuffix("basic.kdb") })
    let bytes = try #require(Corpus.file(file.path))
    for offset in [16, 31, 88, 119] {
      var mutated = bytes
      mutated[offset] ^= 0x10
      #expect(throws: KDBXError.invalidCredentials) { try Self.open(mutated, key: try file.key) }
    }
    var rounds = bytes
    rounds[120] ^= 0x01  // 713 -> 712 rounds
    #expect(throws: KDBXError.invalidCredentials) { try Self.open(rounds, key: try file.key) }
  }
}

/// Compares an opened KeePass 1.x file with its corpus oracle (schema in ../shared/corpus/README.md: KDB1 dumps
/// have no root group and list meta-streams apart). Expected differences, each checked in its own way:
/// - Notes: KeePassXC (and this reader) drop an empty line that follows an auto-type line; File::KeePass keeps it.
///   For entries with auto-type, notes are compared without empty lines.
/// - Auto-type: File::KeePass also pairs an `Auto-Type-N` sequence that has no `Auto-Type-Window-N` with the
///   unnumbered windows; KeePassXC does not. Every association we make must be in the oracle (an empty sequence
///   meaning the entry's default), and every window of the oracle must be one of ours.
/// - Icons: an entry icon beyond the 69 standard ones (KeePassX's custom icons) is icon 0 with a custom icon.
/// - Expanded: File::KeePass reports only KeePassX's `KPX_GROUP_TREE_STATE`; KeePass 1.x keeps the state in the
///   group flags (`PWGF_EXPANDED`), which this reader also reads. Compared when the file has the stream.
/// - Meta-streams: File::KeePass consumes `KPX_GROUP_TREE_STATE` without listing it.
enum KDB1Oracle {
  static func compare(_ opened: KDB1OpenedDatabase, with expected: [String: Any]) -> [String] {
    var problems: [String] = []
    func check(_ what: String, _ actual: Any?, _ wanted: Any?) {
      let a = actual.map { "\($0)" } ?? "nil"
      let w = wanted.map { "\($0)" } ?? "nil"
      if a != w { problems.append("\(what): got \(a), expected \(w)") }
    }
    let database = opened.database
    guard let root = database.root else { return ["no root group"] }
    var groups: [(path: [String], group: Group)] = []
    func walk(_ group: Group, _ path: [String]) {
      for child in group.groups {
        groups.append((path + [child.name], child))
        walk(child, path + [child.name])
      }
    }
    walk(root, [])
    let entries = database.flatEntries
    let counts = expected["counts"] as? [String: Any] ?? [:]
    check("counts.groups", groups.count, counts["groups"])
    check("counts.entries", entries.count, counts["entries"])

    let treeState = opened.metaStreams.contains(KDB1MetaStream.groupTreeState)
    let wantedGroups = expected["groups"] as? [[String: Any]] ?? []
    for (index, wanted) in wantedGroups.enumerated() where index < groups.count {
      let (path, group) = groups[index]
      let label = "group \(index) \(path)"
      check("\(label).path", path, wanted["path"])
      check("\(label).name", group.name, wanted["name"])
      check("\(label).icon", Int(group.iconID ?? -1), wanted["icon"])
      check("\(label).subgroups", group.groups.count, wanted["subgroups"])
      check("\(label).entries", group.entries.count, wanted["entries"])
      if treeState, let expanded = wanted["expanded"] as? Bool {
        check("\(label).expanded", group.isExpanded, expanded)
      }
    }

    for wanted in expected["entries"] as? [[String: Any]] ?? [] {
      let uuid = wanted["uuid"] as? String ?? "?"
      guard let item = entries.first(where: { Hex.encode($0.entry.uuid.bytes) == uuid }) else {
        problems.append("entry \(uuid) missing")
        continue
      }
      let entry = item.entry
      let label = "entry \(uuid)"
      check("\(label).group_path", item.groupPath, wanted["group_path"])
      for (key, field) in [
        ("title", Entry.titleField), ("username", Entry.userNameField), ("password", Entry.passwordField),
        ("url", Entry.urlField),
      ] {
        check("\(label).\(key)", entry[field: field]?.reveal() ?? "", wanted[key])
      }
      check("\(label).password protected", entry[field: Entry.passwordField]?.isProtected, true)
      let autoType = wanted["auto_type"] as? [[String: Any]] ?? []
      let notes = entry[field: Entry.notesField]?.reveal() ?? ""
      if autoType.isEmpty {
        check("\(label).notes", notes, wanted["notes"])
      } else {
        func dropEmptyLines(_ text: String) -> String {
          text.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
        }
        check("\(label).notes", dropEmptyLines(notes), (wanted["notes"] as? String).map(dropEmptyLines))
        let defaultSequence = entry.autoType?.defaultSequence ?? ""
        let ours = (entry.autoType?.associations ?? []).map { association in
          let sequence = association.keystrokeSequence ?? ""
          return "\(association.window)=\(sequence.isEmpty ? defaultSequence : sequence)"
        }
        let theirs = autoType.map { "\($0["window"] as? String ?? "")=\($0["keys"] as? String ?? "")" }
        for association in ours where !theirs.contains(association) {
          problems.append("\(label).auto_type: \(association) is not in the oracle")
        }
        let ourWindows = Set((entry.autoType?.associations ?? []).map { $0.window })
        for window in autoType.compactMap({ $0["window"] as? String }) where !ourWindows.contains(window) {
          problems.append("\(label).auto_type: window \(window) missing")
        }
      }
      let wantedIcon = wanted["icon"] as? Int ?? 0
      if wantedIcon >= 69 {
        check("\(label).icon", entry.iconID, 0)
        check("\(label).customIcon", entry.customIconUUID != nil, true)
      } else {
        check("\(label).icon", Int(entry.iconID ?? -1), wantedIcon)
      }
      if let times = wanted["times"] as? [String: Any] {
        func iso(_ text: Any?) -> String? {
          (text as? String).map { $0.replacingOccurrences(of: " ", with: "T") + "Z" }
        }
        check("\(label).created", KDB1Tests.iso(entry.times?.creationTime), iso(times["created"]))
        check("\(label).modified", KDB1Tests.iso(entry.times?.lastModificationTime), iso(times["modified"]))
        check("\(label).accessed", KDB1Tests.iso(entry.times?.lastAccessTime), iso(times["accessed"]))
        check("\(label).expiry", KDB1Tests.iso(entry.times?.expiryTime), iso(times["expiry"]))
        check("\(label).expires", entry.times?.expires, (times["expiry"] as? String) != "2999-12-28 23:59:59")
      }
      let attachments = entry.attachments.map { attachment -> String in
        let data = database.contents(of: attachment) ?? []
        return "\(attachment.name):\(data.count):\(Hex.encode(SHA256.hash(data).bytes))"
      }
      let wantedAttachments = (wanted["attachments"] as? [[String: Any]] ?? []).map {
        "\($0["name"] as? String ?? ""):\($0["size"] as? Int ?? -1):\($0["sha256"] as? String ?? "")"
      }
      check("\(label).attachments", attachments, wantedAttachments)
    }

    let wantedStreams = expected["meta_streams"] as? [String] ?? []
    for name in wantedStreams where !opened.metaStreams.contains(name) {
      problems.append("meta-stream \(name) not consumed")
    }
    for name in opened.metaStreams where !wantedStreams.contains(name) && name != KDB1MetaStream.groupTreeState {
      problems.append("meta-stream \(name) not in the oracle")
    }
    return problems
  }
}
