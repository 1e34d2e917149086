import Foundation
import Testing

/// The must-fail KDBX files of `../shared/corpus` (MANIFEST.tsv `negative` = yes) still fail through the CLI, with
/// exit status 1 (damage, unsupported) or 2 (wrong key) and a message, and print nothing on standard output: the
/// quirk tolerance of issue #18 relaxes no integrity check (a broken Meta/HeaderHash is still refused).
@Suite(.enabled(if: CorpusExport.isAvailable, "needs ../shared/corpus and a built kdbx"))
struct CLICorpusNegativeTests {
  struct File: Sendable, CustomTestStringConvertible {
    var path: String
    var password: String?
    var keyFile: String?
    var testDescription: String { path }
  }

  static let mustFail: [File] = {
    guard let root = CorpusExport.root,
      let manifest = try? String(contentsOfFile: root + "/MANIFEST.tsv", encoding: .utf8)
    else { return [] }
    return manifest.split(separator: "\n").dropFirst().compactMap { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count > 8, cells[8] == "yes", cells[0].hasSuffix(".kdbx") else { return nil }
      return File(path: cells[0], password: cells[5] == "-" ? nil : cells[5], keyFile: cells[6] == "-" ? nil : cells[6])
    }
  }()

  @Test func corpusHasMustFailFiles() {
    #expect(Self.mustFail.count >= 7)
    #expect(Self.mustFail.contains { $0.path == "keepassxc/BrokenHeaderHash.kdbx" })
  }

  @Test(arguments: mustFail)
  func mustFailFileFailsWithAMessage(_ file: File) throws {
    let root = try #require(CorpusExport.root)
    var arguments = ["export", root + "/" + file.path, "--format", "json"]
    if file.password == nil { arguments.append("--no-password") }
    if let keyFile = file.keyFile { arguments += ["--key-file", root + "/" + keyFile] }
    let result = try CLI.run(arguments, input: file.password.map { $0 + "\n" }, binary: CorpusExport.binary)
    #expect(result.status == 1 || result.status == 2, "\(file.path): exit \(result.status)")
    #expect(result.err.hasPrefix("kdbx export: ") && result.err.count > 20, "\(file.path): \(result.err)")
    #expect(result.out.isEmpty, "\(file.path): \(result.out.prefix(200))")
  }
}
