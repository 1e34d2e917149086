import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Running `kdbx` with more control than ``CLI/run(_:input:binary:)``: a time limit (a FIFO key file used to block
/// the process forever), standard input fed in steps, and a scratch directory with subdirectories.
enum CLIRunner {
  /// A child process with its standard input open, so that a test can feed it line by line.
  final class Child: @unchecked Sendable {
    let process = Process()
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    private var outData = Data()
    private var errData = Data()
    private let group = DispatchGroup()

    init(_ arguments: [String], binary: String = CLI.binary) throws {
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
      process.standardInput = stdin
      process.standardOutput = stdout
      process.standardError = stderr
      _ = CLI.ignoresBrokenPipes
      try process.run()
      group.enter()
      DispatchQueue.global().async {
        self.outData = self.stdout.fileHandleForReading.readDataToEndOfFile()
        self.group.leave()
      }
      group.enter()
      DispatchQueue.global().async {
        self.errData = self.stderr.fileHandleForReading.readDataToEndOfFile()
        self.group.leave()
      }
    }

    /// Writes `line` and a newline to the child's standard input.
    func send(_ line: String) {
      try? stdin.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes standard input and waits for the end, killing the child after `seconds`. `timedOut` says whether it
    /// had to be killed.
    func finish(within seconds: Double) -> (result: CLI.Result, timedOut: Bool) {
      try? stdin.fileHandleForWriting.close()
      let deadline = Date().addingTimeInterval(seconds)
      var timedOut = false
      while process.isRunning {
        if Date() > deadline {
          timedOut = true
          kill(process.processIdentifier, SIGKILL)
          break
        }
        usleep(10_000)
      }
      process.waitUntilExit()
      group.wait()
      let result = CLI.Result(
        status: process.terminationStatus, out: String(decoding: outData, as: UTF8.self),
        err: String(decoding: errData, as: UTF8.self))
      return (result, timedOut)
    }
  }

  /// Runs `kdbx` with `input`, killing it after `seconds`.
  static func run(_ arguments: [String], input: String, within seconds: Double) throws -> (
    result: CLI.Result, timedOut: Bool
  ) {
    let child = try Child(arguments)
    child.send(input)
    return child.finish(within: seconds)
  }

  /// A fresh directory under the system's temporary directory; remove it with ``remove(_:)``.
  static func scratchDirectory() throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-io-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory.path
  }

  static func remove(_ directory: String) {
    try? FileManager.default.removeItem(atPath: directory)
  }

  /// A writable copy of the fast fixture (password `fixture`) at `path`.
  static func copyFixture(to path: String) throws {
    try FileManager.default.copyItem(atPath: CLI.fixture, toPath: path)
    chmod(path, 0o600)
  }

  /// The entry titles of the vault at `path` (fixture password), from `export --format json`.
  static func titles(_ path: String) throws -> [String] {
    let export = try CLI.run(["export", path, "--format", "json"], input: "fixture\n")
    guard export.status == 0 else { return ["<export failed: \(export.err)>"] }
    let object = try JSONSerialization.jsonObject(with: Data(export.out.utf8)) as? [String: Any]
    let entries = object?["entries"] as? [[String: Any]] ?? []
    return entries.compactMap { $0["title"] as? String }
  }

  /// Whether another process holds a `flock` on the file at `path` (tried without blocking, released at once).
  static func isLockedByAnother(_ path: String) -> Bool {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
      flock(descriptor, LOCK_UN)
      return false
    }
    return errno == EWOULDBLOCK
  }
}
