import Foundation
import Testing

/// `kdbx passkey`: bad input gets a clear error and changes nothing; the private key reaches output only with
/// `--show-protected`. (`.ci/passkey-interop.py` checks the output against relying parties and peers.)
@Suite(.enabled(if: CLI.available, "the kdbx binary is missing (swift build)"))
struct CLIPasskeyTests {
  static let password = "pk"
  static let challenge = String(repeating: "A", count: 43)

  static func run(_ arguments: [String]) throws -> CLI.Result {
    try CLI.run(arguments, input: password + "\n")
  }

  static func vault() throws -> String {
    let path = try TestScratch.directory("passkey") + "/v.kdbx"
    let made = try CLI.run(
      ["create", path, "--iterations", "1", "--memory", "1"], input: "\(password)\n\(password)\n")
    #expect(made.status == 0, "\(made.err)")
    return path
  }

  @Test func registerListAssertAndExport() throws {
    let path = try Self.vault()
    let registered = try Self.run([
      "passkey", "register", path, "Example", "--rp", "example.com", "--user", "alice", "--algorithm", "eddsa",
    ])
    #expect(registered.status == 0, "\(registered.err)")
    #expect(registered.out.hasPrefix("Added passkey entry Example ("))
    let listed = try Self.run(["passkey", "ls", path])
    #expect(listed.out == "example.com\talice\tEdDSA\tExample\n")
    let json = try Self.run(["passkey", "ls", path, "--json"])
    #expect(json.out.contains("\"coseAlgorithm\": -8"))
    let assertion = try Self.run([
      "passkey", "assert", path, "Example", "--challenge", Self.challenge, "--origin", "https://example.com",
    ])
    #expect(assertion.status == 0, "\(assertion.err)")
    #expect(assertion.out.contains("\"type\": \"public-key\"") && assertion.out.contains("\"signature\": "))
    let exported = try Self.run(["passkey", "export-public", path, "Example"])
    #expect(exported.out.contains("-----BEGIN PUBLIC KEY-----"))
    #expect(!exported.out.contains("PRIVATE KEY"), "the private key only with --show-protected")
    let shown = try Self.run(["passkey", "export-public", path, "Example", "--show-protected"])
    #expect(shown.out.contains("-----BEGIN PRIVATE KEY-----"))
    for output in [registered, listed, json, assertion] {
      #expect(!output.out.contains("PRIVATE KEY") && !output.err.contains("PRIVATE KEY"))
    }
    // Again on the same entry: stored on it, the old version in its history.
    let again = try Self.run(["passkey", "register", path, "Example", "--rp", "example.com", "--user", "bob"])
    #expect(again.out.hasPrefix("Stored a passkey on Example ("), "\(again.err)")
    #expect(try Self.run(["passkey", "ls", path]).out == "example.com\tbob\tES256\tExample\n")
  }

  @Test func badInputGetsAClearErrorAndChangesNothing() throws {
    let path = try Self.vault()
    #expect(try Self.run(["passkey", "register", path, "Example", "--rp", "example.com", "--user", "a"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    // The library refuses a 1 MiB challenge (WebAuthnTests); one argument is limited to 128 KiB by the kernel.
    let huge = String(repeating: "A", count: 120_000)
    let cases: [([String], String)] = [
      (["register", path, "New", "--rp", "", "--user", "a"], "the relying party ID is empty"),
      (
        ["register", path, "New", "--rp", "Example.COM", "--user", "a"], "'Example.COM' is not a valid relying party ID"
      ),
      (
        ["register", path, "New", "--rp", "a.com", "--user", "a", "--user-handle", "**"],
        "the user handle is not base64url"
      ),
      (["register", path, "New", "--rp", "a.com", "--user", "a", "--algorithm", "rs256"], "RS256 passkeys are kept"),
      (
        ["assert", path, "Example", "--challenge", "!!", "--origin", "https://example.com"],
        "the challenge is not base64url"
      ),
      (["assert", path, "Example", "--challenge", huge, "--origin", "https://example.com"], "longer than 1024 bytes"),
      (["assert", path, "Example", "--challenge", "AAAA", "--origin", "https://example.com"], "not 3"),
      (
        ["assert", path, "Example", "--challenge", Self.challenge, "--origin", "https://evil.com"],
        "is not an https origin"
      ),
      (["assert", path, "Example", "--challenge", Self.challenge], "--challenge and --origin go together"),
      (["frobnicate", path], "unknown passkey command"),
    ]
    for (arguments, message) in cases {
      let result = try Self.run(["passkey"] + arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(result.err.contains(message), "\(arguments): \(result.err)")
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before, "nothing was saved")
  }
}
