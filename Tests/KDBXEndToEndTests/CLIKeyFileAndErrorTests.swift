import Foundation
import KDBX
import KDBXFileIO
import Testing
import VectorSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Issue #19 item 10 (key files: regular files only, bounded memory, a size limit unless asked) and the errno
/// wording of item 14 (no "errno 21" in messages).
@Suite(.enabled(if: CLI.available))
struct CLIKeyFileAndErrorTests {
  /// A FIFO as key file used to block forever; now it is refused at once.
  @Test func aFIFOKeyFileIsRefusedPromptly() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let fifo = directory + "/key.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let (result, timedOut) = try CLIRunner.run(
      ["ls", CLI.fixture, "--key-file", fifo], input: "fixture\n", within: 20)
    #expect(!timedOut, "kdbx blocked on the FIFO")
    #expect(result.status == 1)
    #expect(result.err.contains("key file \(fifo) is a FIFO (named pipe), not a regular file"), "\(result.err)")
    let device = try CLI.run(["ls", CLI.fixture, "--key-file", "/dev/null"], input: "fixture\n")
    #expect(device.status == 1)
    #expect(device.err.contains("is a character device, not a regular file"), "\(device.err)")
    let folder = try CLI.run(["ls", CLI.fixture, "--key-file", directory], input: "fixture\n")
    #expect(folder.status == 1)
    #expect(folder.err.contains("is a directory, not a regular file"), "\(folder.err)")
  }

  /// A file to attach may be a pipe or FIFO (the shell's `<(command)`), read to its end; a directory is refused.
  /// (Refusing every FIFO, as vaults and key files do, broke `attachment-import ... <(command)`.)
  @Test func attachmentsMayComeFromAFIFO() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let vault = directory + "/v.kdbx"
    let bytes = try FileIO.readFile(atPath: CLI.fixture)
    try FileIO.atomicWrite(bytes, toPath: vault)
    let fifo = directory + "/content.fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let writer = Thread {
      let descriptor = open(fifo, O_WRONLY)
      let text = Array("from a FIFO\n".utf8)
      _ = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
    writer.start()
    let (result, timedOut) = try CLIRunner.run(
      ["attachment-import", vault, "Email/Mail", "fifo.txt", fifo], input: "fixture\n", within: 20)
    #expect(!timedOut)
    #expect(result.status == 0, "\(result.err)")
    let exported = try CLI.run(["attachment-export", vault, "Email/Mail", "fifo.txt", "--stdout"], input: "fixture\n")
    #expect(exported.out == "from a FIFO\n")
    let folder = try CLI.run(["attachment-import", vault, "Email/Mail", "d.txt", directory], input: "fixture\n")
    #expect(folder.status == 1)
    #expect(folder.err.contains("is a directory, not a regular file"), "\(folder.err)")
  }

  /// A 65 MiB (sparse) key file, just over the limit, is refused unless asked; with the flag it opens a vault
  /// whose key is the SHA-256 of the same content computed by another tool, and the process stays small.
  @Test func aLargeKeyFileNeedsTheFlagAndIsHashedInAStream() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let keyPath = directory + "/big.key"
    let byteCount = 65 << 20
    let descriptor = open(keyPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    #expect(ftruncate(descriptor, off_t(byteCount)) == 0)
    close(descriptor)
    // The vault's key: SHA-256 of 65 MiB of zero bytes, from Python's hashlib
    // (`hashlib.sha256(b'\0' * (65 << 20)).hexdigest()`), the "any other file" form of KeePass key files.
    let digest = TestHex.bytes("25631f11bd18756ec0029380ec886af0c8824dc6b2706bbdb1d9451c7cf45f42")
    let keyFile = try KeyFile(sha256OfContents: digest)
    let settings = SaveSettings(
      version: .v4_0, cipher: .aes256,
      kdf: .aesKDF(AESKDFParameters(rounds: 100, seed: [UInt8](repeating: 7, count: 32))))
    var random = SystemRandomNumberGenerator()
    let database = Database.new(name: "Big key", clock: FixedClock(Timestamp(unixSeconds: 0)), random: &random)
    let vault = directory + "/v.kdbx"
    try FileIO.atomicWrite(
      try KDBXFile.saveBlocking(database, key: CompositeKey(password: nil, keyFile: keyFile), settings: settings),
      toPath: vault)

    let refused = try CLI.run(["ls", vault, "--no-password", "--key-file", keyPath])
    #expect(refused.status == 1)
    #expect(refused.err.contains("key file \(keyPath) is 65 MiB"), "\(refused.err)")
    #expect(refused.err.contains("--allow-large-key-file"))

    let arguments = ["ls", vault, "--no-password", "--key-file", keyPath, "--allow-large-key-file"]
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/time") {
      let measured = try CLI.run(["-f", "maxrss=%M", CLI.binary] + arguments, binary: "/usr/bin/time")
      #expect(measured.status == 0, "\(measured.err)")
      let line = measured.err.split(separator: "\n").last { $0.hasPrefix("maxrss=") } ?? ""
      let kibibytes = Int(line.dropFirst("maxrss=".count)) ?? .max
      // Reading the key file whole would take 65 MiB; hashing it in a stream takes 64 KiB.
      #expect(kibibytes < 64 * 1024, "peak resident memory \(kibibytes) KiB")
    } else {
      print("CLIKeyFileAndErrorTests NOTE: /usr/bin/time missing; peak memory not checked")
      let opened = try CLI.run(arguments)
      #expect(opened.status == 0, "\(opened.err)")
    }
  }

  /// Messages name the problem in words, never as an errno number.
  @Test func ioErrorsAreWordsNotErrnoNumbers() throws {
    let directory = try CLIRunner.scratchDirectory()
    defer { CLIRunner.remove(directory) }
    let folder = try CLI.run(["ls", directory], input: "fixture\n")
    #expect(folder.status == 1)
    #expect(folder.err.contains("\(directory) is a directory"), "\(folder.err)")
    let notDirectory = try CLI.run(["ls", CLI.fixture + "/vault.kdbx"], input: "fixture\n")
    #expect(notDirectory.status == 1)
    #expect(notDirectory.err.contains("not a directory"), "\(notDirectory.err)")
    let missing = try CLI.run(["ls", directory + "/missing.kdbx"], input: "fixture\n")
    #expect(missing.err.contains("no such file or directory"), "\(missing.err)")
    let export = try CLI.run(
      ["attachment-export", CLI.demo, "Internet/GitHub", "recovery-codes.txt", directory + "/no/such/dir/out.txt"],
      input: "demo\n")
    #expect(export.status == 1)
    #expect(export.err.contains("no such file or directory"), "\(export.err)")
    for result in [folder, notDirectory, missing, export] {
      #expect(!result.err.contains("errno"), "\(result.err)")
    }
  }
}
