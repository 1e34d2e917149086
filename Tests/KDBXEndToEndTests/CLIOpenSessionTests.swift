import Foundation
import Testing

/// `kdbx open`: one unlock, then commands fed line by line; changes reach the file only through `save`.
@Suite(.enabled(if: CLI.available)) struct CLIOpenSessionTests {
  static func copyOfFixture() throws -> String {
    let path = try TestScratch.directory("open") + "/vault.kdbx"
    try FileManager.default.copyItem(atPath: CLI.fixture, toPath: path)
    return path
  }

  @Test func commandsShareOneUnlockAndSaveWrites() throws {
    let path = try Self.copyOfFixture()
    let child = try CLIRunner.Child(["open", path])
    for line in ["fixture", "mkdir Work", "add Work/VPN -u ops -p", "vpn pass", "show Work/VPN -a Password", "save"] {
      child.send(line)
    }
    child.send("exit")
    let (result, timedOut) = child.finish(within: 60)
    #expect(!timedOut)
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("vpn pass\n"), "\(result.out)")
    #expect(result.out.contains("Saved \(path)."), "\(result.out)")
    let shown = try CLI.run(["show", path, "Work/VPN", "-a", "UserName"], input: "fixture\n")
    #expect(shown.out == "ops\n", "\(shown.err)")
  }

  @Test func unsavedChangesAreDiscardedWithStatus1() throws {
    let path = try Self.copyOfFixture()
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let (result, timedOut) = try CLIRunner.run(["open", path], input: "fixture\nrm Email/Mail\nls Email", within: 60)
    #expect(!timedOut)
    #expect(result.status == 1)
    #expect(result.out.contains("[empty]"), "\(result.out)")
    #expect(result.err.contains("unsaved changes to \(path) were discarded"), "\(result.err)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  @Test func idleTimeoutLocks() throws {
    let path = try Self.copyOfFixture()
    let child = try CLIRunner.Child(["open", path, "--timeout", "1"])
    child.send("fixture")
    child.send("ls")
    // No more input: the session locks after a second, with the pipe still open.
    let deadline = Date().addingTimeInterval(30)
    while child.process.isRunning && Date() < deadline { usleep(50_000) }
    child.send("ls")
    let (result, timedOut) = child.finish(within: 5)
    #expect(!timedOut)
    #expect(result.status == 0, "\(result.err)")
    #expect(result.err.contains("Locked after 1 s without a command."), "\(result.err)")
  }

  /// Standard input is read in blocks: a script of thousands of commands runs (one `read` per byte took about a
  /// second per megabyte), an unknown command is named on one line, cut to 40 characters (a megabyte line was
  /// echoed whole), and lines that arrived in one block all run before the idle timeout (the timeout waits for
  /// input only when no line is buffered).
  @Test func scriptsAreReadInBlocks() throws {
    let path = try Self.copyOfFixture()
    let junk = String(repeating: "x", count: 100_000)
    let script = ["fixture"] + [String](repeating: "ls Email", count: 2_000) + [junk, "show Email/Mail -a UserName"]
    let child = try CLIRunner.Child(["open", path, "--timeout", "2"])
    // One write: every line arrives in the first block the tool reads; the pipe stays open.
    child.send(script.joined(separator: "\n"))
    usleep(500_000)
    child.send("exit")
    let (result, timedOut) = child.finish(within: 120)
    #expect(!timedOut)
    #expect(result.status == 1, "one command failed: \(result.err)")
    #expect(result.out.components(separatedBy: "Mail\n").count > 2_000, "\(result.out.suffix(200))")
    #expect(result.out.hasSuffix("me@example.org\n"), "\(result.out.suffix(200))")
    #expect(result.err.contains("unknown command '\(String(repeating: "x", count: 40))...' (type 'help')"))
    #expect(result.err.count < 1_000, "\(result.err.prefix(300))")
    #expect(!result.err.contains("Locked"), "\(result.err.prefix(300))")
  }
}
