import KDBXFileIO
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

/// A fresh directory under /tmp, removed with its files when the test ends.
final class ScratchDirectory {
  let path: String

  init() {
    var template = Array("/tmp/kdbx-fileio-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } }
    precondition(made != nil, "mkdtemp failed")
    path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  deinit {
    for name in entries() { unlink(path + "/" + name) }
    rmdir(path)
  }

  func entries() -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
  }

  func file(_ name: String) -> String { path + "/" + name }
}

@Suite("Atomic write")
struct AtomicWriteTests {
  let original = Array("the vault as it was".utf8)
  let replacement = Array("the vault as it is now, longer".utf8)

  @Test func replacesTheFileAndLeavesNoTemporaryFiles() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    try FileIO.atomicWrite(replacement, toPath: path)
    #expect(try FileIO.readFile(atPath: path) == replacement)
    #expect(scratch.entries() == ["vault.kdbx"])
  }

  @Test func newFilesAreOwnerOnlyAndReplacedFilesKeepTheirMode() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    var status = stat()
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o600)
    chmod(path, 0o640)
    try FileIO.atomicWrite(replacement, toPath: path)
    #expect(stat(path, &status) == 0)
    #expect(status.st_mode & 0o777 == 0o640)
  }

  @Test("a failure at any stage leaves the original intact", arguments: AtomicWriteStage.allCases)
  func faultInjection(_ stage: AtomicWriteStage) throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    var options = AtomicWriteOptions()
    options.keepsBackup = true
    options.injectedFailure = stage
    #expect(throws: FileIOError.injectedFailure(stage: stage)) {
      try FileIO.atomicWrite(self.replacement, toPath: path, options: options)
    }
    #expect(try FileIO.readFile(atPath: path) == original)
    #expect(scratch.entries() == ["vault.kdbx"] || scratch.entries() == ["vault.kdbx", "vault.kdbx.old"])
    #expect(!scratch.entries().contains { $0.contains(".tmp") })
  }

  @Test func failedVerificationLeavesTheOriginalIntact() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    #expect(throws: FileIOError.self) {
      try FileIO.atomicWrite(self.replacement, toPath: path) { _ in "does not open" }
    }
    #expect(try FileIO.readFile(atPath: path) == original)
    #expect(scratch.entries() == ["vault.kdbx"])
  }

  @Test func verificationSeesTheBytesReadBack() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    var seen: [UInt8] = []
    try FileIO.atomicWrite(replacement, toPath: path) { bytes in
      seen = bytes
      return nil
    }
    #expect(seen == replacement)
  }

  @Test func keepsTheRequestedBackup() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    var options = AtomicWriteOptions()
    options.keepsBackup = true
    try FileIO.atomicWrite(original, toPath: path, options: options)
    #expect(scratch.entries() == ["vault.kdbx"])
    try FileIO.atomicWrite(replacement, toPath: path, options: options)
    #expect(try FileIO.readFile(atPath: path + ".old") == original)
    #expect(try FileIO.readFile(atPath: path) == replacement)
  }

  @Test func refusesAReadOnlyDestination() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    chmod(path, 0o400)
    #expect(throws: FileIOError.readOnly(path: path)) {
      try FileIO.atomicWrite(self.replacement, toPath: path)
    }
    #expect(try FileIO.readFile(atPath: path) == original)
  }

  @Test func readRefusesFilesOverTheLimitAndReportsMissingOnes() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    #expect(throws: FileIOError.tooLarge(path: path, byteCount: original.count, limit: 4)) {
      try FileIO.readFile(atPath: path, maxByteCount: 4)
    }
    #expect(throws: FileIOError.openFailed(path: scratch.file("missing"), errno: ENOENT)) {
      try FileIO.readFile(atPath: scratch.file("missing"))
    }
  }
}
