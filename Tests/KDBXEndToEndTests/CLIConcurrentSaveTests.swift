import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #19 item 1: concurrent `kdbx` commands on one vault take turns under the vault's lock, and a save never
/// replaces a file that another program changed after it was read.
@Suite(.enabled(if: CLI.available), .serialized)
struct CLIConcurrentSaveTests {
  /// Five `kdbx add` at once, twenty rounds: every entry whose `add` exited 0 is in the vault, exactly once.
  /// (Before the lock, every process exited 0 and 42-64 of the 100 entries remained.)
  @Test func fiveConcurrentAddsTwentyTimesKeepEveryEntry() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let vault = directory + "/v.kdbx"
    try CLIRunner.copyFixture(to: vault)
    let before = try CLIRunner.titles(vault)
    final class Outcomes: @unchecked Sendable {
      let lock = NSLock()
      var succeeded: [String] = []
      var failures: [String] = []
    }
    let outcomes = Outcomes()
    for round in 1...20 {
      DispatchQueue.concurrentPerform(iterations: 5) { index in
        let title = "R\(round)-P\(index)"
        let result = try? CLI.run(["add", vault, title], input: "fixture\n")
        outcomes.lock.lock()
        if result?.status == 0 {
          outcomes.succeeded.append(title)
        } else {
          outcomes.failures.append("\(title): \(result?.err ?? "did not run")")
        }
        outcomes.lock.unlock()
      }
    }
    let added = try CLIRunner.titles(vault).filter { !before.contains($0) }
    #expect(outcomes.failures.isEmpty, "\(outcomes.failures.prefix(3))")
    #expect(outcomes.succeeded.count == 100)
    #expect(added.sorted() == outcomes.succeeded.sorted(), "\(outcomes.succeeded.count) exited 0, \(added.count) kept")
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "v.kdbx" }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }

  /// A command that cannot get the lock in time says who holds it and saves nothing; with the lock free it saves.
  @Test func aHeldLockTimesOutNamingTheHolder() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let vault = directory + "/v.kdbx"
    try CLIRunner.copyFixture(to: vault)
    let original = try Data(contentsOf: URL(fileURLWithPath: vault))
    let descriptor = open(vault, O_RDONLY | O_CLOEXEC)
    #expect(flock(descriptor, LOCK_EX) == 0)
    let blocked = try CLI.run(["add", vault, "Blocked", "--lock-timeout", "0.3"], input: "fixture\n")
    #expect(blocked.status == 1)
    #expect(blocked.err.contains("is locked by another program (pid \(getpid())"), "\(blocked.err)")
    #expect(blocked.err.contains("gave up after 0.3 s"))
    #expect(blocked.err.contains("nothing was saved"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == original)
    close(descriptor)
    let free = try CLI.run(["add", vault, "Free", "--lock-timeout", "0.3"], input: "fixture\n")
    #expect(free.status == 0, "\(free.err)")
    #expect(try CLIRunner.titles(vault).contains("Free"))
    // Read-only commands take no lock and do not accept the option.
    let listed = try CLI.run(["ls", vault, "--lock-timeout", "1"], input: "fixture\n")
    #expect(listed.status == 1)
    #expect(listed.err.contains("unknown option --lock-timeout"))
  }

  /// Another program (which does not take the lock) replaces the vault while `kdbx add -p` waits for the entry's
  /// password: the save is refused with exit 1 and the other program's file stays.
  @Test func aSaveOverAFileChangedSinceItWasReadIsRefused() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let vault = directory + "/v.kdbx"
    try CLIRunner.copyFixture(to: vault)
    let child = try CLIRunner.Child(["add", vault, "Mine", "-p"])
    child.send("fixture")
    // The vault is open (and locked) once kdbx waits for the entry password.
    var locked = false
    for _ in 0..<1000 where !locked {
      locked = CLIRunner.isLockedByAnother(vault)
      if !locked { usleep(10_000) }
    }
    #expect(locked, "kdbx add did not lock the vault")
    if !locked { sleep(2) }  // without the lock (old code), give it time to read the file
    // The other program saves by renaming a new file over the vault, as most do.
    let theirs = try Data(contentsOf: URL(fileURLWithPath: CLI.fixtures + "/kdbx41-chacha20-aeskdf.kdbx"))
    try theirs.write(to: URL(fileURLWithPath: directory + "/other.tmp"))
    #expect(rename(directory + "/other.tmp", vault) == 0)
    child.send("entry password")
    let (result, timedOut) = child.finish(within: 60)
    #expect(!timedOut)
    #expect(result.status == 1)
    #expect(result.err.contains("changed since it was read"), "\(result.err)")
    #expect(result.err.contains("nothing was saved"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: vault)) == theirs)
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "v.kdbx" }
    #expect(leftovers.isEmpty, "\(leftovers)")
  }
}
