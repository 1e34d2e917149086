import Foundation
import Testing

/// `kdbx open`: one unlock, then commands fed line by line; changes reach the file only through `save`.
@Suite struct CLIOpenSessionTests {
  static func copyOfFixture() throws -> String {
    let path = try TestScratch.directory("open") + "/vault.kdbx"
    try FileManager.default.copyItem(atPath: CLI.fixture, toPath: path)
    return path
  }

  @Test func commandsShareOneUnlockAndSaveWrites() throws {
    guard CLI.available else { return }
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
    guard CLI.available else { return }
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
    guard CLI.available else { return }
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
}
