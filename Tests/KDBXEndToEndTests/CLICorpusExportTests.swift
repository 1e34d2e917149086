import Foundation
import Testing
import VectorSupport

/// The acceptance corpus (`../shared/corpus`, kept outside the repository) as the CLI sees it: every valid KeePass
/// database listed in its MANIFEST.tsv (KDBX 2.x, 3.x, 4.x and KeePass 1.x `.kdb`), with the credentials to pass
/// on the command line.
enum CorpusExport {
  /// `../shared/corpus` beside the clone (or beside the worktree folder), or `nil` with a printed note.
  static let root: String? = {
    for candidate in [CLI.root.path + "/../shared/corpus", CLI.root.path + "/../../shared/corpus"]
    where FileManager.default.fileExists(atPath: candidate + "/MANIFEST.tsv") {
      return URL(fileURLWithPath: candidate).standardizedFileURL.path
    }
    print("note: CLICorpusExportTests SKIPPED: ../shared/corpus is absent")
    return nil
  }()

  /// The `kdbx` built in the configuration this test runs in: beside the test runner (`.build/<triple>/debug` or
  /// `release`), else `.build/debug` or `.build/release`.
  static let binary = EndToEnd.kdbxBinary

  static let isAvailable: Bool = root != nil && EndToEnd.kdbxAvailable

  struct File: Sendable, CustomTestStringConvertible {
    var path: String
    /// `nil`: no password component (`-` in the manifest); `""`: the empty password, which is part of the key.
    var password: String?
    var keyFile: String?
    /// The manifest's cipher/KDF column, e.g. `aes256 argon2d gzip m=16384KiB,t=2,p=2`.
    var settings: String
    var byteCount: Int
    var testDescription: String { path }

    /// Slow in a debug build (a debug `kdbx` derives about 10 MiB of Argon2 per second, and 250,000 AES-KDF
    /// rounds): over 1 MB, Argon2 above 2 MiB x passes, or more than 100,000 AES-KDF rounds.
    var isHeavy: Bool {
      if byteCount > 1_000_000 { return true }
      for part in settings.split(separator: " ") {
        if part.hasPrefix("rounds=") { return Int(part.dropFirst(7)).map { $0 > 100_000 } ?? true }
        if part.hasPrefix("m=") {
          let fields = part.split(separator: ",")
          let memoryKiB = Int(fields[0].dropFirst(2).dropLast(3)) ?? Int.max
          let passes = fields.count > 1 ? Int(fields[1].dropFirst(2)) ?? Int.max : Int.max
          return memoryKiB.multipliedReportingOverflow(by: passes).partialValue > 2_048 || memoryKiB == Int.max
        }
      }
      return true
    }
  }

  /// The valid database rows of MANIFEST.tsv (`negative` = no).
  static let all: [File] = {
    guard let root, let manifest = try? String(contentsOfFile: root + "/MANIFEST.tsv", encoding: .utf8) else {
      return []
    }
    var files: [File] = []
    for line in manifest.split(separator: "\n").dropFirst() {
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count > 11, cells[4].hasPrefix("KDBX") || cells[4] == "KDB1", cells[8] == "no" else { continue }
      let size = (try? FileManager.default.attributesOfItem(atPath: root + "/" + cells[0]))?[.size] as? Int ?? 0
      files.append(
        File(
          path: cells[0], password: cells[5] == "-" ? nil : cells[5], keyFile: cells[6] == "-" ? nil : cells[6],
          settings: cells[11], byteCount: size))
    }
    return files
  }()

  static var heavyTestsEnabled: Bool { ProcessInfo.processInfo.environment["KDBX_HEAVY_TESTS"] == "1" }

  /// The files of this run: all of them with `KDBX_HEAVY_TESTS=1` (CI's release pass), else the light ones.
  static let selected: [File] = {
    if heavyTestsEnabled { return all }
    let heavy = all.filter(\.isHeavy)
    if !heavy.isEmpty {
      print(
        "note: CLICorpusExportTests: \(heavy.count) heavy corpus file(s) skipped in this run "
          + "(KDBX_HEAVY_TESTS=1 runs them; CI does in its release pass): "
          + heavy.map(\.path).joined(separator: ", "))
    }
    return all.filter { !$0.isHeavy }
  }()

  /// Files whose credentials the CLI cannot supply: a hardware challenge-response is part of their key.
  /// `kdbx` has no challenge-response option (like keepassxc-cli, which only talks to a real YubiKey), so the
  /// key it builds is wrong and it must say so with exit status 2.
  static let needsChallengeResponse: Set<String> = [
    // HMAC-SHA1 challenge-response (YubiKey slot 2 emulation); pykeepass opened it with the precomputed response.
    "keepass-rs/test_db_with_challenge_response_key.kdbx",
    // A real YubiKey's challenge-response; the corpus has no expected JSON for it.
    "keepassxc/YubiKeyProtectedPasswords.kdbx",
  ]

  /// KeePass 1.x files (`.kdb`, format KDB1): `kdbx` opens them read-only; their oracles have their own schema
  /// (no root group, File::KeePass or kdb1.py names), compared by ``KDB1ExportComparison``.
  static func isKeePass1(_ file: File) -> Bool { file.path.hasSuffix(".kdb") }

  /// Runs `kdbx export FILE --format json` with the file's credentials.
  static func export(_ file: File, root: String) throws -> CLI.Result {
    var arguments = ["export", root + "/" + file.path, "--format", "json"]
    if file.password == nil { arguments.append("--no-password") }
    if let keyFile = file.keyFile { arguments += ["--key-file", root + "/" + keyFile] }
    return try CLI.run(arguments, input: file.password.map { $0 + "\n" }, binary: binary)
  }
}

/// `kdbx export --format json` on every valid corpus file matches the content pykeepass read from it
/// (`<file>.expected.json`, schema in ../shared/corpus/README.md). The two schemas differ by design: ours leaves
/// the root group out of `groups` and of paths, and names fields in camel case; ``ExportComparison`` maps them.
@Suite(.enabled(if: CorpusExport.isAvailable, "needs ../shared/corpus and a built kdbx"))
struct CLICorpusExportTests {
  @Test(arguments: CorpusExport.selected)
  func exportMatchesExpectedJSON(_ file: CorpusExport.File) throws {
    let root = try #require(CorpusExport.root)
    let result = try CorpusExport.export(file, root: root)
    if CorpusExport.needsChallengeResponse.contains(file.path) {
      #expect(result.status == 2, "\(file.path): \(result.err)")
      #expect(result.err.contains("wrong password or key file"))
      #expect(result.out.isEmpty)
      return
    }
    #expect(result.status == 0, "\(file.path): \(result.err)")
    let expectedData = try Data(contentsOf: URL(fileURLWithPath: root + "/" + file.path + ".expected.json"))
    let expected = try #require(try JSONSerialization.jsonObject(with: expectedData) as? [String: Any])
    let ours = try #require(
      try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(file.path): not JSON")
    let problems =
      CorpusExport.isKeePass1(file)
      ? KDB1ExportComparison.compare(ours, with: expected) : ExportComparison.compare(ours, with: expected)
    #expect(problems.isEmpty, "\(file.path): \(problems.prefix(10).joined(separator: "; "))")
  }

  @Test func corpusListsTheFilesWeExpect() throws {
    try #require(CorpusExport.root != nil)
    #expect(CorpusExport.all.count >= 85)
    #expect(CorpusExport.all.filter { $0.path.hasSuffix(".kdbx") }.count >= 80)
    #expect(CorpusExport.selected.filter(CorpusExport.isKeePass1).count == 8)
    #expect(CorpusExport.all.filter { !$0.isHeavy }.count >= 35)
  }

  /// The comparison can fail: a changed title, a lost entry and a wrong path are each reported.
  @Test func comparisonReportsDifferences() {
    let expected: [String: Any] = [
      "header": ["format": "KDBX4.0"],
      "meta": ["database_name": "DB", "database_description": "", "generator": "g", "recycle_bin_uuid": NSNull()],
      "groups": [["path": ["Root"], "uuid": "r", "name": "Root", "notes": "", "icon": 48]],
      "entries": [
        [
          "uuid": "e1", "group_path": ["Root"], "title": "A", "username": "", "password": "", "url": "", "notes": "",
          "tags": [], "string_fields": ["Title"], "custom_fields": [:], "attachments": [], "icon": 0,
          "history_count": 0,
          "times": ["created": "1-01-01T00:00:00Z", "modified": "", "accessed": "", "expiry": "", "expires": false],
        ]
      ],
    ]
    var entry: [String: Any] = [
      "uuid": "e1", "groupPath": [String](), "title": "A", "username": "", "password": "", "url": "", "notes": "",
      "tags": [String](), "fields": [String: String](), "attachments": [[String: Any]](), "historyCount": 0,
      "icon": 0, "expires": false,
      "times": ["created": "0001-01-01T00:00:00Z", "modified": "", "accessed": "", "expiry": ""],
    ]
    var ours: [String: Any] = [
      "version": "4.0", "meta": ["name": "DB", "description": "", "generator": "g", "recycleBin": NSNull()],
      "groups": [[String: Any]](), "entries": [entry],
    ]
    #expect(ExportComparison.compare(ours, with: expected).isEmpty)
    entry["title"] = "B"
    entry["groupPath"] = ["Other"]
    ours["entries"] = [entry]
    let problems = ExportComparison.compare(ours, with: expected)
    #expect(problems.contains { $0.contains("e1.title") })
    #expect(problems.contains { $0.contains("e1.groupPath") })
    ours["entries"] = [[String: Any]]()
    #expect(ExportComparison.compare(ours, with: expected).contains { $0.contains("entry e1 missing") })
  }
}

/// Compares our export JSON with a corpus oracle and lists the mismatches (empty when everything matches).
enum ExportComparison {
  static func compare(_ ours: [String: Any], with expected: [String: Any]) -> [String] {
    var problems: [String] = []
    func check(_ what: String, _ actual: Any?, _ wanted: Any?) {
      let a = text(actual)
      let w = text(wanted)
      if a != w { problems.append("\(what): got \(a), expected \(w)") }
    }
    let header = expected["header"] as? [String: Any] ?? [:]
    check("version", "KDBX" + (ours["version"] as? String ?? "?"), header["format"])
    let meta = ours["meta"] as? [String: Any] ?? [:]
    let wantedMeta = expected["meta"] as? [String: Any] ?? [:]
    check("meta.name", meta["name"], wantedMeta["database_name"] as? String ?? "")
    check("meta.description", meta["description"], wantedMeta["database_description"] as? String ?? "")
    check("meta.generator", meta["generator"], wantedMeta["generator"] as? String ?? "")
    check("meta.recycleBin", meta["recycleBin"], wantedMeta["recycle_bin_uuid"])

    // The oracle lists the root group first (path [root name]); ours starts below it.
    let groups = ours["groups"] as? [[String: Any]] ?? []
    let wantedGroups = (expected["groups"] as? [[String: Any]] ?? []).dropFirst()
    check("groups.count", groups.count, wantedGroups.count)
    for wanted in wantedGroups {
      let uuid = wanted["uuid"] as? String ?? "?"
      guard let group = groups.first(where: { $0["uuid"] as? String == uuid }) else {
        problems.append("group \(uuid) missing")
        continue
      }
      check("group \(uuid).path", group["path"], Array((wanted["path"] as? [String] ?? []).dropFirst()))
      for key in ["name", "notes", "icon"] { check("group \(uuid).\(key)", group[key], wanted[key]) }
    }

    let entries = ours["entries"] as? [[String: Any]] ?? []
    let wantedEntries = expected["entries"] as? [[String: Any]] ?? []
    check("entries.count", entries.count, wantedEntries.count)
    let standard: Set<String> = ["Title", "UserName", "Password", "URL", "Notes"]
    for wanted in wantedEntries {
      let uuid = wanted["uuid"] as? String ?? "?"
      guard let entry = entries.first(where: { $0["uuid"] as? String == uuid }) else {
        problems.append("entry \(uuid) missing")
        continue
      }
      let label = "entry \(uuid)"
      check("\(label).groupPath", entry["groupPath"], Array((wanted["group_path"] as? [String] ?? []).dropFirst()))
      for key in ["title", "username", "password", "url", "notes", "icon"] {
        check("\(label).\(key)", entry[key], wanted[key])
      }
      check("\(label).tags", (entry["tags"] as? [String])?.sorted(), (wanted["tags"] as? [String])?.sorted())
      check("\(label).fields", entry["fields"] as? [String: String], wanted["custom_fields"] as? [String: String])
      // The oracle lists the five standard fields even when the file omits them (readers add them as empty).
      let fieldNames = Set((entry["fields"] as? [String: String] ?? [:]).keys).union(standard)
      check(
        "\(label).string_fields", fieldNames.sorted(),
        standard.union(wanted["string_fields"] as? [String] ?? []).sorted())
      check("\(label).attachments", attachments(entry["attachments"]), attachments(wanted["attachments"]))
      check("\(label).historyCount", entry["historyCount"], wanted["history_count"])
      let times = entry["times"] as? [String: Any] ?? [:]
      let wantedTimes = wanted["times"] as? [String: Any] ?? [:]
      check("\(label).expires", entry["expires"], wantedTimes["expires"])
      for key in ["created", "modified", "accessed", "expiry"] {
        check("\(label).times.\(key)", times[key], (wantedTimes[key] as? String).map(paddingYear))
      }
    }
    return problems
  }

  /// A canonical text for a JSON value, so that values compare by content whatever Foundation type holds them.
  static func text(_ value: Any?) -> String {
    switch value {
    case nil, is NSNull: return "null"
    case let string as String: return "\"\(string)\""
    // Both sides come from JSONSerialization (or both from literals), so a number that also reads as a Bool (0, 1)
    // reads so on both sides.
    case let bool as Bool: return bool ? "true" : "false"
    case let int as Int: return String(int)
    case let double as Double: return String(double)
    case let list as [Any]: return "[" + list.map { text($0) }.joined(separator: ",") + "]"
    case let object as [String: Any]:
      return "{" + object.keys.sorted().map { "\($0):\(text(object[$0]))" }.joined(separator: ",") + "}"
    case let other?: return "\(other)"
    }
  }

  /// `name:size:sha256` of each attachment, sorted.
  static func attachments(_ list: Any?) -> [String] {
    (list as? [[String: Any]] ?? []).map {
      "\($0["name"] as? String ?? ""):\(text($0["size"])):\($0["sha256"] as? String ?? "")"
    }.sorted()
  }

  /// Expected difference: pykeepass writes years below 1000 without padding (`1-01-01T00:00:00Z`, from Python's
  /// `strftime("%Y")` on glibc) where ISO 8601 and our export have four digits (`0001-01-01T00:00:00Z`). KeePass
  /// stores "no time" as year 1, so this shows up in expiry times.
  static func paddingYear(_ time: String) -> String {
    guard let dash = time.firstIndex(of: "-"), time[..<dash].count < 4, time[..<dash].allSatisfy(\.isNumber) else {
      return time
    }
    return String(repeating: "0", count: 4 - time[..<dash].count) + time
  }
}
