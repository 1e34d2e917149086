import KDBX
import KDBXCrypto
import Testing
import VectorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// The "hostile vault" harness (issue #19, acceptance): files with valid cryptography and hostile costs are made in
// the test (no binary blobs), the `kdbx` binary runs on each under a hard timeout, and the outcome is checked: a
// clean exit 1 or 2 with a message, no signal, peak memory (GNU time's %M) and time within the stated bounds.
//
// To add a case, make a file with `HostileVaultFile` (or any bytes) and call `HostileVaultHarness.check` with a
// `HostileCase`; see HostileVaultTests.swift.

/// Makes KDBX files with chosen, possibly hostile, settings and valid cryptography, without running their KDF.
enum HostileVaultFile {
  /// A small database: a root group with one entry.
  static func smallDatabase() -> Database {
    let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
    var random = SystemRandomNumberGenerator()
    var database = Database.new(name: "hostile", clock: clock, random: &random)
    var entry = Entry.new(clock: clock, random: &random)
    entry[field: Entry.titleField] = .plain("Entry")
    if let root = database.root?.uuid { _ = database.addEntry(entry, to: root) }
    return database
  }

  /// `database` written as KDBX `version` with `kdf`, without running the KDF: the file is sealed with a random
  /// transformed key (`CompositeKey(transformedKey:)` keeps the KDF parameters as given, seed included). Every
  /// layer is intact (header hash and HMAC, block HMACs, cipher, gzip, XML), so a reader can only refuse it for its
  /// costs; no password opens it, so one that runs the KDF ends with "wrong password".
  static func sealed(
    kdf: KDFParameters, version: KDBXVersion = .v4_0, database: Database = smallDatabase()
  ) throws -> [UInt8] {
    var system = SystemRandomNumberGenerator()
    let transformed = (0..<32).map { _ in UInt8.random(in: 0...255, using: &system) }
    let key = try CompositeKey(transformedKey: transformed)
    return try KDBXFile.saveBlocking(database, key: key, settings: SaveSettings(version: version, kdf: kdf))
  }

  /// Argon2id settings with a fixed salt.
  static func argon2(memoryBytes: UInt64, iterations: UInt64, parallelism: UInt32 = 2) -> KDFParameters {
    .argon2(
      Argon2KDFParameters(
        variant: .id, iterations: iterations, memoryBytes: memoryBytes, parallelism: parallelism,
        salt: [UInt8](repeating: 0x5A, count: 32)))
  }

  /// AES-KDF settings with a fixed seed.
  static func aesKDF(rounds: UInt64, version: KDBXVersion = .v4_0) -> KDFParameters {
    .aesKDF(
      AESKDFParameters(
        rounds: rounds, seed: [UInt8](repeating: 0xA5, count: 32), uuidVariant: version.isKDBX4 ? .aesKDBX4 : .aesKDBX3
      ))
  }
}

/// One hostile input and what a clean refusal of it looks like.
struct HostileCase {
  /// Names the case in failures.
  var name: String
  /// The vault, written to a fresh temporary directory as `vault.kdbx`.
  var file: [UInt8]
  /// The command line after `kdbx`; `{FILE}` stands for the vault's path, and a leading `{DIR}` for its directory.
  var arguments: [String]
  /// Standard input (the password line).
  var input = "hostile\n"
  /// Exit statuses that count as a clean refusal.
  var allowedStatuses: Set<Int32> = [1, 2]
  /// Text standard error must contain.
  var message: String
  /// The most resident memory the child may reach (peak RSS), in MiB.
  var maxResidentMiB = 256
  /// The hard timeout: the child is killed after this, and the case fails (a bound, not a speed measurement).
  var timeoutSeconds: Double = 60
  /// An address-space limit for the child (`ulimit -v`, in KiB), to stand for a machine with less memory.
  var addressSpaceLimitKiB: Int?
}

/// How a child process ended.
struct ChildOutcome {
  /// The exit status, when it exited.
  var status: Int32?
  /// The signal that ended it, when one did.
  var signal: Int32?
  /// Whether the harness killed it at the timeout.
  var timedOut: Bool
  var out: String
  var err: String
  /// Peak resident memory of the command, in KiB (from GNU time; `nil` when it was not measured).
  var peakResidentKiB: Int?
  var seconds: Double

  var summary: String {
    "status \(status.map(String.init) ?? "-"), signal \(signal.map(String.init) ?? "-"), timed out \(timedOut), "
      + "\(peakResidentKiB.map { "\($0 / 1_024) MiB" } ?? "unmeasured") peak, \(Int(seconds * 1_000)) ms; "
      + "stderr: \(err.prefix(600))"
  }
}

enum HostileVaultHarness {
  /// The `kdbx` binary of this build (`EndToEnd.kdbxBinary`).
  static let binary = EndToEnd.kdbxBinary

  /// Whether the end-to-end suites run (`KDBX_E2E=1`) and the binary is built.
  static let available = EndToEnd.kdbxAvailable

  /// Writes the case's file, runs `kdbx` on it and records an issue for each bound it breaks. Returns the outcome.
  @discardableResult
  static func check(_ hostile: HostileCase, sourceLocation: SourceLocation = #_sourceLocation) throws -> ChildOutcome {
    let directory = try temporaryDirectory()
    defer { removeDirectory(directory) }
    let path = directory + "/vault.kdbx"
    try writeFile(hostile.file, to: path)
    let arguments = hostile.arguments.map { argument in
      if argument == "{FILE}" { return path }
      return argument.hasPrefix("{DIR}") ? directory + argument.dropFirst("{DIR}".count) : argument
    }
    let outcome = try runKDBX(
      arguments, input: hostile.input, timeoutSeconds: hostile.timeoutSeconds,
      addressSpaceLimitKiB: hostile.addressSpaceLimitKiB)
    let name = hostile.name
    print("hostile vault '\(name)': \(outcome.summary)")
    #expect(
      !outcome.timedOut, "\(name): killed after \(hostile.timeoutSeconds) s; \(outcome.summary)",
      sourceLocation: sourceLocation)
    #expect(outcome.signal == nil, "\(name): ended by a signal; \(outcome.summary)", sourceLocation: sourceLocation)
    if let status = outcome.status {
      #expect(
        hostile.allowedStatuses.contains(status) && status <= 128,
        "\(name): exit status \(status), expected one of \(hostile.allowedStatuses.sorted()); \(outcome.summary)",
        sourceLocation: sourceLocation)
    }
    #expect(
      outcome.err.contains(hostile.message), "\(name): message '\(hostile.message)' missing; \(outcome.summary)",
      sourceLocation: sourceLocation)
    if let peak = outcome.peakResidentKiB {
      #expect(
        peak <= hostile.maxResidentMiB * 1_024,
        "\(name): peak memory over \(hostile.maxResidentMiB) MiB; \(outcome.summary)", sourceLocation: sourceLocation)
    } else {
      #expect(timeTool == nil, "\(name): peak memory missing; \(outcome.summary)", sourceLocation: sourceLocation)
    }
    return outcome
  }

  /// GNU time, which measures the peak memory of the process it starts.
  static let timeTool: String? = {
    let found = access("/usr/bin/time", X_OK) == 0
    if !found { print("HostileVaultHarness: /usr/bin/time is missing; peak memory is not checked") }
    return found ? "/usr/bin/time" : nil
  }()

  /// Runs `kdbx` with `arguments`, optionally under an address-space limit (through `/bin/sh -c 'ulimit -v'`),
  /// under `/usr/bin/time` for its peak memory.
  ///
  /// Why not `wait4`'s `ru_maxrss` for the child: on Linux a process started with `posix_spawn` (`vfork`) from this
  /// test process inherits, at `exec`, the peak resident size of the test process itself (hundreds of MiB once many
  /// tests ran). GNU time forks from its own small image, so its figure is the command's alone.
  static func runKDBX(
    _ arguments: [String], input: String, timeoutSeconds: Double, addressSpaceLimitKiB: Int? = nil
  ) throws -> ChildOutcome {
    let peakFile = "/tmp/kdbx-hostile-peak-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { unlink(peakFile) }
    var command = [binary] + arguments
    if let timeTool { command = [timeTool, "-f", "%M", "-o", peakFile, "--"] + command }
    if let limit = addressSpaceLimitKiB {
      command = ["/bin/sh", "-c", "ulimit -v \(limit) && exec \"$0\" \"$@\""] + command
    }
    var outcome = try run(command, input: input, timeoutSeconds: timeoutSeconds)
    guard timeTool != nil else { return outcome }
    // GNU time writes "Command exited with non-zero status N" or "Command terminated by signal N", then %M.
    let report = (try? readFile(peakFile)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    let lines = report.split(separator: "\n")
    outcome.peakResidentKiB = lines.last.flatMap { Int($0) }
    if let line = lines.first(where: { $0.hasPrefix("Command terminated by signal ") }) {
      outcome.signal = Int32(line.dropFirst("Command terminated by signal ".count))
      outcome.status = nil
    }
    return outcome
  }

  struct SpawnError: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `argv` with `input` on standard input, collects its output, and kills it and its process group
  /// (`SIGKILL`) once `timeoutSeconds` have passed.
  static func run(_ argv: [String], input: String, timeoutSeconds: Double) throws -> ChildOutcome {
    var stdinPipe: [Int32] = [0, 0]
    var stdoutPipe: [Int32] = [0, 0]
    var stderrPipe: [Int32] = [0, 0]
    guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
      throw SpawnError(description: "pipe failed: errno \(errno)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
    posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
    posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
    for descriptor in stdinPipe + stdoutPipe + stderrPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
    var cArguments = argv.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    // A process group of its own, so that the timeout kills the command with any wrapper (sh, time) around it.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    var pid: pid_t = 0
    let clock = ContinuousClock()
    let start = clock.now
    let spawned = posix_spawn(&pid, argv[0], &actions, &attributes, &cArguments, environ)
    close(stdinPipe[0])
    close(stdoutPipe[1])
    close(stderrPipe[1])
    guard spawned == 0 else {
      close(stdinPipe[1])
      close(stdoutPipe[0])
      close(stderrPipe[0])
      throw SpawnError(description: "posix_spawn \(argv[0]) failed: \(spawned)")
    }
    // SIGPIPE when the child exits before reading its input would end the test process: ignore it.
    signal(SIGPIPE, SIG_IGN)
    let bytes = Array(input.utf8)
    _ = bytes.withUnsafeBytes { write(stdinPipe[1], $0.baseAddress, $0.count) }
    close(stdinPipe[1])
    // Both outputs are drained while waiting (non-blocking), so that a child writing much never blocks on a pipe.
    for descriptor in [stdoutPipe[0], stderrPipe[0]] {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }
    var out: [UInt8] = []
    var err: [UInt8] = []
    var status: Int32 = 0
    var timedOut = false
    let deadline = start + .milliseconds(Int64(timeoutSeconds * 1_000))
    while true {
      drain(stdoutPipe[0], into: &out)
      drain(stderrPipe[0], into: &err)
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid { break }
      if reaped < 0 && errno != EINTR { throw SpawnError(description: "waitpid failed: errno \(errno)") }
      if clock.now >= deadline && !timedOut {
        timedOut = true
        kill(-pid, SIGKILL)
      }
      usleep(5_000)
    }
    let elapsed = clock.now - start
    drainToEnd(stdoutPipe[0], into: &out)
    drainToEnd(stderrPipe[0], into: &err)
    close(stdoutPipe[0])
    close(stderrPipe[0])
    // The wait status: low 7 bits the terminating signal (0 when it exited), bits 8-15 the exit status.
    let signalNumber = status & 0x7F
    let exited = signalNumber == 0
    return ChildOutcome(
      status: exited ? (status >> 8) & 0xFF : nil, signal: exited ? nil : signalNumber, timedOut: timedOut,
      out: String(decoding: out, as: UTF8.self), err: String(decoding: err, as: UTF8.self),
      peakResidentKiB: nil,
      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
  }

  private static func drain(_ descriptor: Int32, into bytes: inout [UInt8]) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      bytes.append(contentsOf: buffer[0..<count])
    }
  }

  private static func drainToEnd(_ descriptor: Int32, into bytes: inout [UInt8]) {
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    drain(descriptor, into: &bytes)
  }

  // MARK: Files

  static func temporaryDirectory() throws -> String {
    var template = Array("/tmp/kdbx-hostile-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer -> UnsafeMutablePointer<CChar>? in
      guard let base = buffer.baseAddress else { return nil }
      return mkdtemp(base)
    }
    guard let made else {
      throw SpawnError(description: "mkdtemp failed: errno \(errno)")
    }
    return String(cString: made)
  }

  static func writeFile(_ bytes: [UInt8], to path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard descriptor >= 0 else { throw SpawnError(description: "cannot create \(path): errno \(errno)") }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { throw SpawnError(description: "cannot write \(path): errno \(errno)") }
      written += count
    }
  }

  static func readFile(_ path: String) throws -> [UInt8] {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { throw SpawnError(description: "cannot open \(path): errno \(errno)") }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes.append(contentsOf: buffer[0..<count])
    }
    return bytes
  }

  static func removeDirectory(_ directory: String) {
    guard let entries = opendir(directory) else { return }
    while let entry = readdir(entries) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      if name != "." && name != ".." { unlink(directory + "/" + name) }
    }
    closedir(entries)
    rmdir(directory)
  }
}
