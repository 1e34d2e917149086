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

/// Issue #19 items 3 and 5: saving through a symbolic link changes the real vault and keeps the link, its
/// permissions and owner; a save removes the temporary files an interrupted save of the same vault left behind.
@Suite(.enabled(if: CLI.available))
struct CLISymlinkAndStaleFileTests {
  static func isSymbolicLink(_ path: String) -> Bool {
    var status = stat()
    return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
  }

  static func mode(_ path: String) -> mode_t {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
  }

  @Test func savingThroughRelativeAndAbsoluteLinksChangesTheTargetAndKeepsTheLinks() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: directory + "/links", withIntermediateDirectories: true)
    let target = directory + "/real/vault.kdbx"
    try CLIRunner.copyFixture(to: target)
    chmod(target, 0o664)
    #expect(symlink("../real/vault.kdbx", directory + "/links/relative.kdbx") == 0)
    #expect(symlink(target, directory + "/links/absolute.kdbx") == 0)

    let relative = try CLI.run(["add", directory + "/links/relative.kdbx", "ViaRelative"], input: "fixture\n")
    #expect(relative.status == 0, "\(relative.err)")
    let absolute = try CLI.run(["mkdir", directory + "/links/absolute.kdbx", "ViaAbsolute"], input: "fixture\n")
    #expect(absolute.status == 0, "\(absolute.err)")

    #expect(Self.isSymbolicLink(directory + "/links/relative.kdbx"))
    #expect(Self.isSymbolicLink(directory + "/links/absolute.kdbx"))
    let listing = try CLI.run(["ls", target], input: "fixture\n")
    #expect(listing.out.contains("ViaRelative"))
    #expect(listing.out.contains("ViaAbsolute/"))
    #expect(Self.mode(target) == 0o664, "mode \(String(Self.mode(target), radix: 8))")
    // The temporary files went beside the target and are gone; nothing new beside the links.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/real") == ["vault.kdbx"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory + "/links").sorted() == [
        "absolute.kdbx", "relative.kdbx",
      ])
  }

  @Test func aDanglingLinkIsRefusedWithAClearMessage() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let link = directory + "/dangling.kdbx"
    #expect(symlink("nowhere.kdbx", link) == 0)
    let result = try CLI.run(["add", link, "X"], input: "fixture\n")
    #expect(result.status == 1)
    #expect(result.err.contains("\(link) is a symbolic link to nowhere.kdbx, which does not exist"), "\(result.err)")
    #expect(Self.isSymbolicLink(link))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["dangling.kdbx"])
  }

  @Test func aSaveKeepsTheOwnerOfTheVaultWhenRunAsRoot() throws {
    guard geteuid() == 0 else {
      print("CLISymlinkAndStaleFileTests SKIP owner check: not running as root")
      return
    }
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let vault = directory + "/v.kdbx"
    try CLIRunner.copyFixture(to: vault)
    #expect(chown(vault, 12345, 23456) == 0)
    let result = try CLI.run(["add", vault, "Owned"], input: "fixture\n")
    #expect(result.status == 0, "\(result.err)")
    var status = stat()
    #expect(stat(vault, &status) == 0)
    #expect(status.st_uid == 12345 && status.st_gid == 23456, "owner \(status.st_uid):\(status.st_gid)")
    #expect(status.st_mode & 0o7777 == 0o600)
  }

  /// A save removes `.NAME.tmp-PID-RANDOM` files of dead processes (or older than an hour), and nothing else.
  @Test func aSaveRemovesStaleTemporaryFilesOfThatVaultOnly() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let vault = directory + "/v.kdbx"
    try CLIRunner.copyFixture(to: vault)
    // A process id that is surely gone: a child that has exited and been waited for.
    let exited = Process()
    exited.executableURL = URL(fileURLWithPath: "/bin/true")
    try exited.run()
    exited.waitUntilExit()
    let dead = exited.processIdentifier
    let live = getpid()
    let stale = [".v.kdbx.tmp-\(dead)-12345", ".v.kdbx.tmp-\(live)-777"]  // the second is made an hour old
    let kept = [
      ".v.kdbx.tmp-\(live)-778",  // a live process, fresh: maybe a save in progress
      ".v.kdbx.tmp-\(dead)-1x",  // not our pattern
      ".v.kdbx.tmp-\(dead)",  // not our pattern
      ".other.kdbx.tmp-\(dead)-1",  // another vault's
      "v.kdbx.tmp-\(dead)-1",  // no leading dot
      "notes.txt",
    ]
    for name in stale + kept {
      #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: Data("partial".utf8)))
    }
    var old = [timespec(tv_sec: time(nil) - 7200, tv_nsec: 0), timespec(tv_sec: time(nil) - 7200, tv_nsec: 0)]
    #expect(utimensat(AT_FDCWD, directory + "/" + stale[1], &old, 0) == 0)

    let result = try CLI.run(["add", vault, "AfterCrash"], input: "fixture\n")
    #expect(result.status == 0, "\(result.err)")
    let names = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
    for name in stale { #expect(!names.contains(name), "\(name) was left") }
    for name in kept { #expect(names.contains(name), "\(name) was removed") }
  }
}
