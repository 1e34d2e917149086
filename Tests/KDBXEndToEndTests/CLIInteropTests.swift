import Foundation
import Testing

/// Issue #18 through the CLI: `kdbx create --kdf aes-kdf` writes KeePass 2's KDF UUID in KDBX 4, and the quirk
/// fixtures of `Vectors/kdbx/quirks` open with a warning that `kdbx verify` prints and other commands keep quiet.
@Suite(.enabled(if: CLI.available))
struct CLIInteropTests {
  static let quirks = CLI.root.appendingPathComponent("Vectors/kdbx/quirks").path
  static let password = "quirk <&> pässwörd\n"

  static func contains(_ bytes: [UInt8], hex: String) -> Bool {
    let needle = stride(from: 0, to: hex.count, by: 2).map {
      UInt8(hex[hex.index(hex.startIndex, offsetBy: $0)..<hex.index(hex.startIndex, offsetBy: $0 + 2)], radix: 16) ?? 0
    }
    return (0...(bytes.count - needle.count)).contains { Array(bytes[$0..<($0 + needle.count)]) == needle }
  }

  @Test(arguments: ["4.0", "4.1"])
  func createWritesKeePass2AESKDFUUID(_ format: String) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-uuid-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("aes.kdbx").path
    let result = try CLI.run(
      ["create", path, "--format", format, "--kdf", "aes-kdf", "--rounds", "1000"], input: "pw <&>\n")
    #expect(result.status == 0, "\(result.err)")
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    #expect(Self.contains(bytes, hex: "c9d9f39a628a4460bf740d08c18a4fea"))
    #expect(!Self.contains(bytes, hex: "7c02bb8279a74ac0927d114a00648238"))
  }

  static let expectations: [(file: String, warning: String)] = [
    ("kdbx40-chacha20-bytes-after-gzip", "after the compressed data; written by another application; harmless"),
    ("kdbx31-aes256-bytes-after-gzip", "after the compressed data; written by another application"),
    ("kdbx31-aes256-zero-padding", "the last encrypted block has malformed padding ("),
    ("kdbx31-twofish-no-padding", "the last encrypted block has no padding; written by another application"),
    ("kdbx40-aes256-zero-padding", "the last encrypted block has malformed padding ("),
  ]

  @Test(arguments: expectations.map(\.file))
  func verifyPrintsTheWarningOtherCommandsStayQuiet(_ name: String) throws {
    let path = Self.quirks + "/\(name).kdbx"
    let wanted = try #require(Self.expectations.first { $0.file == name }?.warning)
    let verify = try CLI.run(["verify", path], input: Self.password)
    #expect(verify.status == 0, "\(verify.err)")
    let warnings = verify.out.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
    #expect(warnings.count == 1 && warnings[0].contains(wanted), "\(verify.out)")
    #expect(verify.out.hasSuffix("OK\n"))
    let json = try CLI.run(["verify", path, "--json"], input: Self.password)
    #expect(json.status == 0 && json.out.contains(wanted), "\(json.out)")
    for arguments in [
      ["ls", path, "-R"], ["show", path, "Internet/Forge <&> ✓"], ["export", path, "--format", "json"],
    ] {
      let quiet = try CLI.run(arguments, input: Self.password)
      #expect(quiet.status == 0, "\(arguments[0]): \(quiet.err)")
      #expect(!quiet.out.contains("warning") && quiet.err.isEmpty, "\(arguments[0]): \(quiet.out) \(quiet.err)")
    }
    let wrong = try CLI.run(["verify", path], input: "quirk <&> passwörd\n")
    #expect(wrong.status == 2 && wrong.err.contains("wrong password"), "\(wrong.err)")
  }

  /// A save writes the file correctly: the warning is gone.
  @Test func aSaveRemovesTheQuirk() throws {
    let copy = try CLI.scratchCopy(of: Self.quirks + "/kdbx40-chacha20-bytes-after-gzip.kdbx")
    defer { try? FileManager.default.removeItem(atPath: (copy as NSString).deletingLastPathComponent) }
    let edit = try CLI.run(["edit", copy, "Internet/Forge <&> ✓", "--notes", "saved"], input: Self.password)
    #expect(edit.status == 0, "\(edit.err)")
    let verify = try CLI.run(["verify", copy], input: Self.password)
    #expect(verify.status == 0 && !verify.out.contains("warning"), "\(verify.out)")
  }
}
