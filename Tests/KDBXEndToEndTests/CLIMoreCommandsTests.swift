import Foundation
import Testing

/// The commands the other CLI suites do not run: `totp`, `verify`, `generate`, `rmdir`, `attachment-import`,
/// `attachment-rm`, `import`, `convert` and `merge`, each with a failure path. `.ci/cli-tests.sh` runs them too,
/// and checks the TOTP code against an independent python3 reference.
@Suite(.enabled(if: CLI.available))
struct CLIMoreCommandsTests {
  /// A fresh directory holding a writable copy of the fast fixture as `vault.kdbx`.
  static func scratch() throws -> (directory: String, vault: String) {
    let vault = try CLI.scratchCopy(of: CLI.fixture)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: vault)
    return ((vault as NSString).deletingLastPathComponent, vault)
  }

  @Test func totpAndVerifyAndGenerate() throws {
    let totp = try CLI.run(["totp", CLI.fixture, "Internet/GitHub", "--json"], input: "fixture\n")
    #expect(totp.status == 0, "\(totp.err)")
    let object = try JSONSerialization.jsonObject(with: Data(totp.out.utf8)) as? [String: Any]
    let code = object?["code"] as? String ?? ""
    #expect(code.count == 6 && code.allSatisfy(\.isNumber), "\(totp.out)")
    #expect((1...30).contains(object?["secondsRemaining"] as? Int ?? 0))
    let none = try CLI.run(["totp", CLI.fixture, "Email/Mail"], input: "fixture\n")
    #expect(none.status == 1)
    #expect(none.err.contains("no one-time password"))

    let verify = try CLI.run(["verify", CLI.fixture], input: "fixture\n")
    #expect(verify.status == 0, "\(verify.err)")
    #expect(verify.out.hasPrefix("KDBX 4.0: integrity OK"))
    #expect(verify.out.hasSuffix("OK\n"))
    #expect(try CLI.run(["verify", CLI.fixture], input: "wrong\n").status == 2)

    let generated = try CLI.run(["generate", "--length", "16", "--digits", "--count", "3"])
    #expect(generated.status == 0, "\(generated.err)")
    let lines = generated.out.split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines.allSatisfy { $0.count == 16 && $0.allSatisfy(\.isNumber) })
    let impossible = try CLI.run(["generate", "--length", "4", "--digits", "--exclude", "0123456789"])
    #expect(impossible.status == 1)
  }

  @Test func attachmentsAndGroups() throws {
    let (directory, vault) = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let file = directory + "/note.txt"
    try Data("hello attachment\n".utf8).write(to: URL(fileURLWithPath: file))
    let attach = try CLI.run(["attachment-import", vault, "Email/Mail", "note.txt", file], input: "fixture\n")
    #expect(attach.status == 0, "\(attach.err)")
    let again = try CLI.run(["attachment-import", vault, "Email/Mail", "note.txt", file], input: "fixture\n")
    #expect(again.status == 1)
    #expect(again.err.contains("already has an attachment"))
    let shown = try CLI.run(["attachment-export", vault, "Email/Mail", "note.txt", "--stdout"], input: "fixture\n")
    #expect(shown.out == "hello attachment\n")
    #expect(try CLI.run(["attachment-rm", vault, "Email/Mail", "note.txt"], input: "fixture\n").status == 0)
    let gone = try CLI.run(["attachment-rm", vault, "Email/Mail", "note.txt"], input: "fixture\n")
    #expect(gone.status == 1)
    #expect(gone.err.contains("no attachment named"))

    #expect(try CLI.run(["mkdir", vault, "Old"], input: "fixture\n").status == 0)
    let binned = try CLI.run(["rmdir", vault, "Old"], input: "fixture\n")
    #expect(binned.out.contains("recycle bin"), "\(binned.err)")
    let deleted = try CLI.run(["rmdir", vault, "Recycle Bin/Old"], input: "fixture\n")
    #expect(deleted.out.contains("deleted permanently"), "\(deleted.err)")
    let root = try CLI.run(["rmdir", vault, "/"], input: "fixture\n")
    #expect(root.status == 1)
    #expect(root.err.contains("root group cannot be removed"))
  }

  @Test func importConvertAndMerge() throws {
    let (directory, vault) = try Self.scratch()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let xml = try CLI.run(["export", CLI.fixture, "--format", "xml"], input: "fixture\n")
    try Data(xml.out.utf8).write(to: URL(fileURLWithPath: directory + "/export.xml"))
    let imported = directory + "/imported.kdbx"
    let result = try CLI.run(
      ["import", directory + "/export.xml", imported, "--kdf", "aes-kdf", "--rounds", "1000"], input: "new\n")
    #expect(result.status == 0, "\(result.err)")
    #expect(try CLI.run(["show", imported, "Email/Mail"], input: "new\n").out.contains("Title: Mail\n"))
    let notXML = try CLI.run(["import", CLI.fixture, directory + "/bad.kdbx"], input: "new\n")
    #expect(notXML.status == 1)

    let source = CLI.fixtures + "/kdbx41-chacha20-aeskdf.kdbx"
    let refused = try CLI.run(["convert", source, directory + "/v31.kdbx", "--format", "3.1"], input: "fixture\n")
    #expect(refused.status == 1)
    #expect(refused.err.contains("--accept-loss"))
    let converted = try CLI.run(
      ["convert", source, directory + "/v31.kdbx", "--format", "3.1", "--accept-loss"], input: "fixture\n")
    #expect(converted.status == 0, "\(converted.err)")
    #expect(try CLI.run(["info", directory + "/v31.kdbx"], input: "fixture\n").out.contains("KDBX 3.1"))

    let other = directory + "/other.kdbx"
    try FileManager.default.copyItem(atPath: CLI.fixture, toPath: other)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: other)
    #expect(try CLI.run(["add", other, "Email/FromOther", "--username", "bee"], input: "fixture\n").status == 0)
    let dry = try CLI.run(["merge", vault, other, "--same-credentials", "--dry-run"], input: "fixture\n")
    #expect(dry.status == 0, "\(dry.err)")
    #expect(try CLI.run(["show", vault, "Email/FromOther"], input: "fixture\n").status == 1)
    let merged = try CLI.run(["merge", vault, other, "--same-credentials"], input: "fixture\n")
    #expect(merged.status == 0, "\(merged.err)")
    #expect(try CLI.run(["show", vault, "Email/FromOther"], input: "fixture\n").out.contains("UserName: bee\n"))
    let wrong = try CLI.run(["merge", vault, other], input: "fixture\nnope\n")
    #expect(wrong.status == 2)
    #expect(wrong.err.contains("wrong password or key file"))
  }
}
