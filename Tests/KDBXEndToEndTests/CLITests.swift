import Foundation
import Testing
import VectorSupport

/// End-to-end tests of the `kdbx` command-line tool: each runs the `kdbx` of this build (`EndToEnd.kdbxBinary`:
/// beside the test executable) with the password piped on standard input, and checks its output and exit status.
///
/// A test target cannot build the executable itself. When the binary is missing (for example
/// `swift test --skip-build`), these tests are skipped and the skip is printed. `swift build` or `swift test`
/// builds it. `.ci/cli-tests.sh` runs the same scenarios from bash.
enum CLI {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
  static let binary = EndToEnd.kdbxBinary
  /// Whether the end-to-end suites run (`KDBX_E2E=1`) and the binary is built.
  static let available = EndToEnd.kdbxAvailable

  static let demo = root.appendingPathComponent("Vectors/demo/demo.kdbx").path
  static let fixtures = root.appendingPathComponent("Vectors/kdbx/fixtures").path
  /// A fast fixture (AES-KDF with few rounds), password `fixture`.
  static let fixture = fixtures + "/kdbx40-aes256-aeskdf.kdbx"

  struct Result {
    var status: Int32
    var out: String
    var err: String
  }

  /// Standard error read by another thread (written before the group is left, read after the wait).
  final class ErrorOutput: @unchecked Sendable {
    var data = Data()
  }

  /// SIGPIPE is ignored once for the whole test process.
  static let ignoresBrokenPipes: Bool = {
    signal(SIGPIPE, SIG_IGN)
    return true
  }()

  static func run(_ arguments: [String], input: String? = nil, binary: String = binary) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    _ = ignoresBrokenPipes
    try process.run()
    // A child that exits before reading its input (a usage error, say) closes the pipe: the write then fails with
    // EPIPE, which is fine, instead of killing the test process with SIGPIPE.
    if let input { try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8)) }
    try? stdin.fileHandleForWriting.close()
    // Standard error is drained on another thread: a child that writes much to it (a sanitizer report, say)
    // would otherwise block on a full pipe while we wait for the end of standard output.
    let errorBox = ErrorOutput()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errorBox.data = stderr.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let out = stdout.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let err = errorBox.data
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, out: String(decoding: out, as: UTF8.self),
      err: String(decoding: err, as: UTF8.self))
  }

  /// A copy of `path` in a fresh temporary directory.
  static func scratchCopy(of path: String) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let copy = directory.appendingPathComponent("vault.kdbx").path
    try FileManager.default.copyItem(atPath: path, toPath: copy)
    return copy
  }
}

@Suite(.enabled(if: CLI.available))
struct CLITests {
  @Test func readmeCommandShowsGitHubWithTOTP() throws {
    let result = try CLI.run(["show", CLI.demo, "Internet/GitHub", "--totp"], input: "demo\n")
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("Title: GitHub\n"))
    #expect(result.out.contains("UserName: alex-dev\n"))
    #expect(result.out.contains("Password: PROTECTED\n"))
    #expect(result.out.contains("recovery-codes.txt (40 bytes)"))
    let totp = result.out.split(separator: "\n").first { $0.hasPrefix("TOTP: ") }
    let code = totp.map { String($0.dropFirst(6).prefix(while: { $0 != " " })) } ?? ""
    #expect(code.count == 6 && code.allSatisfy(\.isNumber), "TOTP line: \(String(describing: totp))")
  }

  @Test func wrongPasswordExitsWithTwo() throws {
    let result = try CLI.run(["ls", CLI.fixture], input: "not the password\n")
    #expect(result.status == 2)
    #expect(result.err.contains("wrong password or key file"))
    #expect(result.out.isEmpty)
  }

  @Test func missingEntryAndBadArgumentsExitWithOne() throws {
    let missing = try CLI.run(["show", CLI.fixture, "Internet/Nope"], input: "fixture\n")
    #expect(missing.status == 1)
    #expect(missing.err.contains("no entry named 'Internet/Nope'"))
    let unknown = try CLI.run(["ls", CLI.fixture, "--bogus"], input: "fixture\n")
    #expect(unknown.status == 1)
    #expect(unknown.err.contains("unknown option --bogus"))
    let noFile = try CLI.run(["info", "/nonexistent/x.kdbx"], input: "fixture\n")
    #expect(noFile.status == 1)
    #expect(noFile.err.contains("/nonexistent/x.kdbx"))
    let command = try CLI.run(["frobnicate"])
    #expect(command.status == 1)
  }

  @Test func listRecursive() throws {
    let result = try CLI.run(["ls", CLI.fixture, "-R"], input: "fixture\n")
    #expect(result.status == 0, "\(result.err)")
    #expect(
      result.out == """
        Internet/
          GitHub
          Ünïcødé 🔑 site
          Empty fields
        Email/
          Mail
        Banking/
          Cards/
            Visa
        Recycle Bin/
          Old account

        """)
    let flat = try CLI.run(["ls", CLI.fixture, "Banking", "-R", "--flatten"], input: "fixture\n")
    #expect(flat.out == "Cards/\nCards/Visa\n")
  }

  @Test func showAttributesAndKeyFile() throws {
    let result = try CLI.run(
      ["show", CLI.fixture, "Email/Mail", "-a", "UserName", "-a", "PIN"], input: "fixture\n")
    #expect(result.status == 0, "\(result.err)")
    let expected = try Oracle(CLI.fixture).entry(titled: "Mail")
    #expect(result.out == "\(expected["username"] as? String ?? "?")\n4321\n")
    let keyFile = try CLI.run([
      "ls", CLI.fixtures + "/keyfile-only.kdbx", "--no-password", "--key-file", CLI.fixtures + "/keys/xml-v2.keyx",
    ])
    #expect(keyFile.status == 0, "\(keyFile.err)")
    #expect(!keyFile.out.isEmpty)
  }

  @Test func infoAndSearch() throws {
    let info = try CLI.run(["info", CLI.fixture, "--json"], input: "fixture\n")
    #expect(info.status == 0, "\(info.err)")
    let object = try JSONSerialization.jsonObject(with: Data(info.out.utf8)) as? [String: Any]
    #expect(object?["version"] as? String == "4.0")
    #expect(object?["cipher"] as? String == "AES-256")
    let counts = object?["counts"] as? [String: Any]
    #expect(counts?["entries"] as? Int == 6)
    let search = try CLI.run(["search", CLI.fixture, "mail"], input: "fixture\n")
    #expect(search.status == 0, "\(search.err)")
    #expect(search.out.contains("Email/Mail\n"))
  }

  /// `export --format json` matches the content pykeepass read from the same fixture (its expected JSON).
  @Test(arguments: ["kdbx40-aes256-aeskdf.kdbx", "kdbx31-aes256-aeskdf.kdbx", "kdbx41-chacha20-aeskdf.kdbx"])
  func exportJSONMatchesOracle(_ name: String) throws {
    let path = CLI.fixtures + "/" + name
    let oracle = try Oracle(path)
    let result = try CLI.run(["export", path, "--format", "json"], input: (oracle.password ?? "") + "\n")
    #expect(result.status == 0, "\(result.err)")
    let document = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any] ?? [:]
    let entries = document["entries"] as? [[String: Any]] ?? []
    #expect(entries.count == oracle.entries.count)
    for expected in oracle.entries {
      let uuid = expected["uuid"] as? String
      guard let ours = entries.first(where: { $0["uuid"] as? String == uuid }) else {
        Issue.record("entry \(uuid ?? "?") missing")
        continue
      }
      for (mine, theirs) in [("title", "title"), ("username", "username"), ("password", "password"), ("url", "url")] {
        #expect((ours[mine] as? String ?? "") == (expected[theirs] as? String ?? ""), "\(mine) of \(uuid ?? "")")
      }
      #expect(ours["historyCount"] as? Int == expected["history_count"] as? Int)
      #expect(ours["groupPath"] as? [String] == Array((expected["group_path"] as? [String] ?? []).dropFirst()))
      // pykeepass lists `otp` as an entry property, not a custom field; ours keeps it in `fields`.
      var fields = ours["fields"] as? [String: String] ?? [:]
      let names = Set(fields.keys).union(["Title", "UserName", "Password", "URL", "Notes"])
      #expect(names == Set(expected["string_fields"] as? [String] ?? []))
      fields["otp"] = nil
      #expect(fields == (expected["custom_fields"] as? [String: String] ?? [:]))
      let sums = { (list: Any?) in ((list as? [[String: Any]]) ?? []).compactMap { $0["sha256"] as? String }.sorted() }
      #expect(sums(ours["attachments"]) == sums(expected["attachments"]))
    }
  }

  @Test func exportCSVAndXML() throws {
    let csv = try CLI.run(["export", CLI.fixture, "--format", "csv"], input: "fixture\n")
    #expect(csv.status == 0, "\(csv.err)")
    #expect(csv.out.hasPrefix("\"Group\",\"Title\",\"Username\",\"Password\",\"URL\",\"Notes\""))
    let xml = try CLI.run(["export", CLI.fixture], input: "fixture\n")
    #expect(xml.status == 0, "\(xml.err)")
    #expect(xml.out.contains("<KeePassFile>"))
    #expect(!xml.out.contains("Protected=\"True\""))
    let bad = try CLI.run(["export", CLI.fixture, "--format", "yaml"], input: "fixture\n")
    #expect(bad.status == 1)
  }
}

/// The vault-changing commands, on a copy of the fast fixture.
@Suite(.enabled(if: CLI.available))
struct CLIEditingTests {
  @Test func addEditMoveRemove() throws {
    let vault = try CLI.scratchCopy(of: CLI.fixture)
    defer { try? FileManager.default.removeItem(atPath: (vault as NSString).deletingLastPathComponent) }
    func kdbx(_ arguments: [String], _ input: String = "fixture\n") throws -> CLI.Result {
      try CLI.run([arguments[0], vault] + arguments.dropFirst(), input: input)
    }
    #expect(try kdbx(["mkdir", "Work/Projects"]).status == 1)
    #expect(try kdbx(["mkdir", "Work"]).status == 0)
    let add = try kdbx(
      ["add", "Work/Wiki", "--username", "ada", "--url", "https://wiki.example.com", "-p"], "fixture\ns3cret\n")
    #expect(add.status == 0, "\(add.err)")
    #expect(try kdbx(["add", "Work/Wiki"]).err.contains("already exists"))
    let edit = try kdbx(["edit", "Work/Wiki", "--username", "grace"])
    #expect(edit.status == 0, "\(edit.err)")
    let shown = try kdbx(["show", "Work/Wiki", "-s"])
    #expect(shown.out.contains("UserName: grace\nPassword: s3cret\nURL: https://wiki.example.com\n"), "\(shown.out)")
    let exported = try kdbx(["export", "--format", "json"])
    #expect(exported.out.contains("\"historyCount\": 1"))
    #expect(try kdbx(["mv", "Work/Wiki", "Email"]).status == 0)
    #expect(try kdbx(["show", "Email/Wiki"]).status == 0)
    let recycle = try kdbx(["rm", "Email/Wiki"])
    #expect(recycle.out.contains("recycle bin"), "\(recycle.err)")
    let delete = try kdbx(["rm", "Recycle Bin/Wiki"])
    #expect(delete.out.contains("deleted permanently"), "\(delete.err)")
    #expect(try kdbx(["show", "Recycle Bin/Wiki"]).status == 1)
    // A read-only vault is refused and left as it was.
    try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: vault)
    let before = try Data(contentsOf: URL(fileURLWithPath: vault))
    let refused = try kdbx(["mkdir", "Other"])
    #expect(refused.status == 1)
    #expect(refused.err.contains("read-only"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == before)
    #expect(try kdbx(["ls"]).out.hasPrefix("Internet/\nEmail/\nBanking/\nRecycle Bin/\nWork/\n"))
  }

  @Test func attachmentExport() throws {
    let directory = try CLI.scratchCopy(of: CLI.fixture)
    defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
    let target = (directory as NSString).deletingLastPathComponent + "/codes.txt"
    let oracle = try Oracle(CLI.fixture).entry(titled: "GitHub")
    let attachment = try #require((oracle["attachments"] as? [[String: Any]])?.first)
    let name = try #require(attachment["name"] as? String)
    let result = try CLI.run(["attachment-export", CLI.fixture, "Internet/GitHub", name, target], input: "fixture\n")
    #expect(result.status == 0, "\(result.err)")
    let data = try Data(contentsOf: URL(fileURLWithPath: target))
    #expect(data.count == attachment["size"] as? Int)
    let again = try CLI.run(["attachment-export", CLI.fixture, "Internet/GitHub", name, target], input: "fixture\n")
    #expect(again.status == 1)
    #expect(again.err.contains("already exists"))
  }
}

/// `create`, and `kill -9` in the middle of saves.
@Suite(.enabled(if: CLI.available))
struct CLIWholeDatabaseTests {
  @Test(arguments: [["4.0", "chacha20", "argon2d"], ["4.1", "twofish", "argon2id"], ["3.1", "aes256", "aes-kdf"]])
  func createdFilesOpen(_ spec: [String]) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("new.kdbx").path
    let created = try CLI.run(
      [
        "create", path, "--format", spec[0], "--cipher", spec[1], "--kdf", spec[2], "--iterations", "1", "--memory",
        "1", "--parallelism", "1", "--rounds", "1000", "--name", "Fresh",
      ], input: "new password\n")
    #expect(created.status == 0, "\(created.err)")
    let info = try CLI.run(["info", path], input: "new password\n")
    #expect(info.out.contains("Format:          KDBX \(spec[0])"), "\(info.out)\(info.err)")
    #expect(info.out.contains("Name:            Fresh"))
    #expect(try CLI.run(["info", path], input: "wrong\n").status == 2)
    #expect(try CLI.run(["create", path], input: "x\n").err.contains("already exists"))
  }

  /// `kill -9` at random moments of `edit` (open, save, atomic write): the vault always opens afterwards.
  /// 25 trials here; `.ci/cli-tests.sh` runs 200.
  @Test func killDuringSaveNeverBreaksTheVault() throws {
    let vault = try CLI.scratchCopy(of: CLI.fixture)
    defer { try? FileManager.default.removeItem(atPath: (vault as NSString).deletingLastPathComponent) }
    var generator = SystemRandomNumberGenerator()
    for trial in 0..<25 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: CLI.binary)
      process.arguments = ["edit", vault, "Email/Mail", "--notes", "trial \(trial)"]
      let input = Pipe()
      process.standardInput = input
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      input.fileHandleForWriting.write(Data("fixture\n".utf8))
      try input.fileHandleForWriting.close()
      usleep(UInt32.random(in: 0..<150_000, using: &generator))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let check = try CLI.run(["ls", vault], input: "fixture\n")
      #expect(check.status == 0, "trial \(trial): \(check.err)")
    }
  }
}

/// The content a reference reader (pykeepass) recorded for a fixture: `<file>.expected.json`.
struct Oracle {
  var password: String?
  var entries: [[String: Any]]

  init(_ path: String) throws {
    let data = try Data(contentsOf: URL(fileURLWithPath: path + ".expected.json"))
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    password = (object["credentials"] as? [String: Any])?["password"] as? String
    entries = object["entries"] as? [[String: Any]] ?? []
  }

  func entry(titled title: String) throws -> [String: Any] {
    try #require(entries.first { $0["title"] as? String == title })
  }
}
