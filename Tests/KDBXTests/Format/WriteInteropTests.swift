import Foundation
import KDBX
import Testing
import VectorSupport

/// Files that we write must open in keepassxc-cli and pykeepass with the same content: every fixture (each cipher x
/// KDF x version, each key-file form) is opened, saved by us, and read back by both peers.
@Suite("Interop: files we write open in keepassxc-cli and pykeepass")
struct WriteInteropTests {
  /// `python3` as found on PATH (through /usr/bin/env), so that the interpreter `pip install` used is the one run.
  static let python: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/env") ? "/usr/bin/env" : nil

  static var pykeepassAvailable: Bool {
    guard EndToEnd.isEnabled else { return false }
    guard let python else {
      print("note: python3 is absent; the pykeepass interop test is skipped")
      return false
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = ["python3", "-c", "import pykeepass"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    if process.terminationStatus != 0 { print("note: pykeepass is absent; the pykeepass interop test is skipped") }
    return process.terminationStatus == 0
  }

  /// Writes the fixture again with our codec into a temporary file; returns its path and the credentials.
  static func rewrite(_ fixture: Fixture) throws -> (path: String, password: String?, keyFile: String?) {
    let bytes = try #require(fixture.bytes)
    let key = try fixture.key()
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
    let saved = try KDBXFile.saveBlocking(opened.database, key: key, settings: SaveSettings(keeping: opened))
    let path = NSTemporaryDirectory() + "swift-kdbx-\(fixture.name)-\(UUID().uuidString).kdbx"
    try Data(saved).write(to: URL(fileURLWithPath: path))
    let credentials = fixture.expected?["credentials"] as? [String: Any]
    let keyFile = (credentials?["keyfile"] as? String).map { Vectors.root + "/kdbx/fixtures/keys/" + $0 }
    return (path, credentials?["password"] as? String, keyFile)
  }

  @Test(.enabled(if: KeePassXCCLI.isAvailable), arguments: Fixture.all)
  func keepassxcOpensWhatWeWrite(_ fixture: Fixture) throws {
    let (path, password, keyFile) = try Self.rewrite(fixture)
    defer { try? FileManager.default.removeItem(atPath: path) }
    var options: [String] = ["-q"]
    if let keyFile { options += ["--key-file", keyFile] }
    if password == nil { options.append("--no-password") }
    let input = (password ?? "") + "\n"
    let listing = String(decoding: try KeePassXCCLI.run(["ls", "-R"] + options + [path], input: input), as: UTF8.self)
    #expect(listing.contains("GitHub"))
    #expect(listing.contains("Ünïcødé 🔑 site"))
    let shown = String(
      decoding: try KeePassXCCLI.run(["show", "-s"] + options + [path, "Internet/GitHub"], input: input),
      as: UTF8.self)
    #expect(shown.contains("Password: correct horse battery staple"))
    let attachment = path + ".attachment"
    defer { try? FileManager.default.removeItem(atPath: attachment) }
    try KeePassXCCLI.run(
      ["attachment-export"] + options + [path, "Internet/GitHub", "recovery-codes.txt", attachment], input: input)
    #expect(FileManager.default.contents(atPath: attachment) == Data("1111-2222\n3333-4444\n5555-6666\n".utf8))
  }

  @Test(.enabled(if: pykeepassAvailable), arguments: Fixture.all)
  func pykeepassOpensWhatWeWrite(_ fixture: Fixture) throws {
    let (path, password, keyFile) = try Self.rewrite(fixture)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let script = """
      import json, sys
      from pykeepass import PyKeePass
      kp = PyKeePass(sys.argv[1], password=None if sys.argv[2] == '-' else sys.argv[2],
                     keyfile=None if sys.argv[3] == '-' else sys.argv[3])
      print(json.dumps(sorted([e.title or '', e.password or '', len(e.history), len(e.attachments)]
                              for e in kp.entries)))
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(Self.python))
    process.arguments = ["python3", "-c", script, path, password ?? "-", keyFile ?? "-"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let rows = try #require(try JSONSerialization.jsonObject(with: data) as? [[Any]])
    let expectedEntries = fixture.expected?["entries"] as? [[String: Any]] ?? []
    let wanted = expectedEntries.map { entry in
      "\(entry["title"] as? String ?? "")|\(entry["password"] as? String ?? "")|"
        + "\(entry["history_count"] as? Int ?? 0)|\((entry["attachments"] as? [Any])?.count ?? 0)"
    }.sorted()
    let got = rows.map { row in row.map { "\($0)" }.joined(separator: "|") }.sorted()
    #expect(got == wanted)
  }
}
