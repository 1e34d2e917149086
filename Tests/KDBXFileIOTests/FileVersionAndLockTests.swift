import Foundation
import KDBX
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

/// The compare-and-replace primitive (``FileIO/atomicWrite(_:toPath:options:expecting:verify:)`` with a
/// ``FileExpectation``), ``VaultFileLock``, symbolic links and ``FileVaultStorage``'s use of both.
@Suite struct FileVersionAndLockTests {
  let original = Array("the vault as it was".utf8)
  let theirs = Array("another program's save".utf8)
  let mine = Array("my save".utf8)

  /// Another program replaces the file (by rename, as savers do) after we read it: nothing is written.
  @Test func aReplacedFileIsNotOverwritten() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let (bytes, version) = try FileIO.readFileAndVersion(atPath: path)
    #expect(bytes == original)
    try FileIO.atomicWrite(theirs, toPath: path)
    #expect(throws: FileIOError.changedSinceRead(path: path)) {
      try FileIO.atomicWrite(self.mine, toPath: path, expecting: .unchanged(version))
    }
    #expect(try FileIO.readFile(atPath: path) == theirs)
    #expect(scratch.entries() == ["vault.kdbx"])
  }

  /// The reads that hash on a helper give the bytes and version of the plain reads, and the version is that of the
  /// bytes read even when it is collected after another program replaced the file.
  @Test func versionsHashedOnAHelperAreThoseOfTheBytesRead() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    let large = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
    for content in [original, large] {
      try FileIO.atomicWrite(content, toPath: path)
      let plain = try FileIO.readFileAndVersion(atPath: path)
      let started = try FileIO.readFileStartingVersion(atPath: path)
      #expect(started.bytes == content)
      #expect(started.version.result() == plain.version)
      let deferred = try FileIO.readFileDeferringVersion(atPath: path)
      #expect(deferred.bytes == content)
      #expect(deferred.version.result() == plain.version)
      let lock = try VaultFileLock.acquire(path, timeoutSeconds: 0)
      let locked = try lock.readStartingVersion()
      try FileIO.atomicWrite(theirs, toPath: path)
      #expect(locked.bytes == content)
      let version = locked.version.result()
      #expect(version.hasSameContent(as: plain.version))
      #expect(throws: FileIOError.changedSinceRead(path: path)) {
        try FileIO.atomicWrite(self.mine, toPath: path, expecting: .unchanged(version))
      }
      lock.release()
    }
  }

  /// A change in place of the same size, whatever the timestamps say, is a change (the content decides).
  @Test func anInPlaceChangeOfTheSameSizeIsDetected() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let (_, version) = try FileIO.readFileAndVersion(atPath: path)
    var changed = original
    changed[0] ^= 1
    let descriptor = open(path, O_WRONLY)
    _ = changed.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    var times = [timespec(tv_sec: Int(version.modificationSeconds), tv_nsec: Int(version.modificationNanoseconds))]
    times.append(times[0])
    futimens(descriptor, &times)  // even with the old modification time
    close(descriptor)
    #expect(throws: FileIOError.changedSinceRead(path: path)) {
      try FileIO.atomicWrite(self.mine, toPath: path, expecting: .unchanged(version))
    }
    #expect(try FileIO.readFile(atPath: path) == changed)
  }

  /// The same bytes under a new inode (a sync client re-writing the file) are not a conflict.
  @Test func identicalContentUnderANewInodeIsUnchanged() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let (_, version) = try FileIO.readFileAndVersion(atPath: path)
    try FileIO.atomicWrite(original, toPath: path)
    let after = try #require(try FileIO.currentVersion(ofFileAtPath: path))
    #expect(after.inode != version.inode)
    #expect(after.hasSameContent(as: version))
    let written = try FileIO.atomicWrite(mine, toPath: path, expecting: .unchanged(version))
    #expect(try FileIO.readFile(atPath: path) == mine)
    #expect(try FileIO.currentVersion(ofFileAtPath: path) == written)
  }

  @Test func removedAndAppearingFilesAreRefused() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let (_, version) = try FileIO.readFileAndVersion(atPath: path)
    unlink(path)
    #expect(throws: FileIOError.changedSinceRead(path: path)) {
      try FileIO.atomicWrite(self.mine, toPath: path, expecting: .unchanged(version))
    }
    #expect(try FileIO.currentVersion(ofFileAtPath: path) == nil)
    try FileIO.atomicWrite(theirs, toPath: path, expecting: .absent)
    #expect(throws: FileIOError.alreadyExists(path: path)) {
      try FileIO.atomicWrite(self.mine, toPath: path, expecting: .absent)
    }
    #expect(try FileIO.readFile(atPath: path) == theirs)
    #expect(scratch.entries() == ["vault.kdbx"])
  }

  @Test func aHeldLockTimesOutNamingThisProcess() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let held = try VaultFileLock.acquire(path, timeoutSeconds: 0)
    var waitedFor: FileLockHolder?? = .none
    do {
      _ = try VaultFileLock.acquire(path, timeoutSeconds: 0.2) { waitedFor = $0 }
      Issue.record("a second lock was granted")
    } catch {
      guard case .lockTimeout(let lockedPath, let seconds, let holder) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(lockedPath == path)
      #expect(seconds == 0.2)
      #expect(holder?.processID == getpid())
      #expect(error.description.contains("is locked by another program (pid \(getpid())"))
    }
    #expect(waitedFor != nil)
    held.release()
    #expect(!held.isHeld)
    let next = try VaultFileLock.acquire(path, timeoutSeconds: 0)
    #expect(try next.read().bytes == original)
  }

  /// A waiter whose file was replaced by the holder's save locks (and reads) the new file, not the old inode.
  @Test func aWaiterLocksTheFileThatReplacedTheOneItWaitedFor() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let holder = try VaultFileLock.acquire(path)
    let (_, version) = try holder.read()
    final class Box: @unchecked Sendable { var holder: VaultFileLock?; var theirs: [UInt8] = [] }
    let box = Box()
    box.holder = holder
    box.theirs = theirs
    let saver = Thread {
      usleep(100_000)
      _ = try? FileIO.atomicWrite(box.theirs, toPath: path, expecting: .unchanged(version))
      box.holder?.release()
    }
    saver.start()
    let waiter = try VaultFileLock.acquire(path, timeoutSeconds: 20)
    #expect(try waiter.read().bytes == theirs)
    #expect(throws: FileIOError.self) { try VaultFileLock.acquire(path, timeoutSeconds: 0) }
  }

  @Test func writesGoThroughSymbolicLinksAndKeepTheBackupBesideTheTarget() throws {
    let scratch = ScratchDirectory()
    let target = scratch.file("target.kdbx")
    let link = scratch.file("link.kdbx")
    try FileIO.atomicWrite(original, toPath: target)
    chmod(target, 0o664)
    #expect(symlink("target.kdbx", link) == 0)
    var options = AtomicWriteOptions()
    options.keepsBackup = true
    let (_, version) = try FileIO.readFileAndVersion(atPath: link)
    try FileIO.atomicWrite(mine, toPath: link, options: options, expecting: .unchanged(version))
    #expect(try FileIO.resolveDestination(link) == target)
    #expect(try FileIO.readFile(atPath: target) == mine)
    #expect(try FileIO.readFile(atPath: target + ".old") == original)
    var status = stat()
    #expect(lstat(link, &status) == 0 && status.st_mode & S_IFMT == S_IFLNK)
    #expect(stat(target, &status) == 0 && status.st_mode & 0o7777 == 0o664)
    #expect(scratch.entries() == ["link.kdbx", "target.kdbx", "target.kdbx.old"])

    let dangling = scratch.file("dangling.kdbx")
    #expect(symlink("gone.kdbx", dangling) == 0)
    #expect(throws: FileIOError.danglingSymbolicLink(path: dangling, target: "gone.kdbx")) {
      try FileIO.atomicWrite(self.mine, toPath: dangling)
    }
    #expect(throws: FileIOError.notRegularFile(path: "/tmp", kind: .directory)) {
      try FileIO.atomicWrite(self.mine, toPath: "/tmp")
    }
    unlink(dangling)
  }

  @Test func staleTemporaryFilesOfDeadProcessesAreRemoved() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    try FileIO.atomicWrite(original, toPath: path)
    let pidMax =
      Int32(
        String(decoding: (try? FileIO.readFile(atPath: "/proc/sys/kernel/pid_max")) ?? [], as: UTF8.self)
          .split(separator: "\n").first ?? "") ?? 4_194_304
    let dead = ".vault.kdbx.tmp-\(pidMax + 1)-42"  // above pid_max: no such process
    let live = ".vault.kdbx.tmp-\(getpid())-43"
    for name in [dead, live] { try FileIO.atomicWrite(theirs, toPath: scratch.file(name)) }
    #expect(FileIO.removeStaleTemporaryFiles(for: path) == [dead])
    let now = Int64(time(nil)) + FileIO.staleTemporaryFileAge + 60
    #expect(FileIO.removeStaleTemporaryFiles(for: path, now: now) == [live])
    #expect(scratch.entries() == ["vault.kdbx"])
  }

  /// ``FileVaultStorage`` replaces only the version it read, under the lock.
  @Test func fileVaultStorageRefusesToReplaceAVersionItDidNotRead() throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("vault.kdbx")
    // The storage checks the KDBX signature and version of what it writes: a KDBX 4.0 start, then distinct tails.
    let start: [UInt8] = [0x03, 0xD9, 0xA2, 0x9A, 0x67, 0xFB, 0x4B, 0xB5, 0x00, 0x00, 0x04, 0x00]
    let original = start + self.original
    let theirs = start + self.theirs
    let mine = start + self.mine
    try FileIO.atomicWrite(original, toPath: path)
    var storage = FileVaultStorage(path: path)
    let (read, version) = try storage.read()
    #expect(read == original)
    try FileIO.atomicWrite(theirs, toPath: path)
    #expect(throws: VaultStorageError.changedSinceRead(location: path)) {
      _ = try storage.write(mine, replacing: version)
    }
    #expect(try FileIO.readFile(atPath: path) == theirs)
    // A file expected absent that exists is not replaced either.
    #expect(throws: VaultStorageError.changedSinceRead(location: path)) {
      _ = try storage.write(mine, replacing: nil)
    }

    let (again, current) = try storage.read()
    #expect(again == theirs)
    let lock = try VaultFileLock.acquire(path)
    storage.lockTimeoutSeconds = 0.1
    do {
      _ = try storage.write(mine, replacing: current)
      Issue.record("the write ignored the lock")
    } catch {
      #expect(error.description.contains("is locked by another program"), "\(error)")
    }
    // The holder of the lock writes through it.
    let mineVersion = try storage.write(mine, replacing: current, holding: lock, verify: nil)
    lock.release()
    #expect(try FileIO.readFile(atPath: path) == mine)
    _ = try storage.write(original, replacing: mineVersion)  // its own write is the version it expects next
    #expect(try FileIO.readFile(atPath: path) == original)
    // A removed file is a change too.
    unlink(path)
    #expect(throws: VaultStorageError.changedSinceRead(location: path)) {
      _ = try storage.write(mine, replacing: mineVersion)
    }
    _ = try storage.write(mine, replacing: nil)
    #expect(try FileIO.readFile(atPath: path) == mine)
  }

  @Test func errnoNumbersAreDescribedInWords() {
    #expect(FileIO.describe(errno: EACCES) == "permission denied")
    #expect(FileIO.describe(errno: EISDIR) == "is a directory")
    #expect(FileIO.describe(errno: ENOSPC) == "no space left on device (disk full)")
    #expect(FileIO.describe(errno: ENOENT) == "no such file or directory")
    #expect(FileIO.describe(errno: EPIPE) == "broken pipe")  // from strerror
    #expect(
      FileIOError.openFailed(path: "v.kdbx", errno: EACCES).description == "cannot open v.kdbx: permission denied")
    for code in [EACCES, EISDIR, ENOTDIR, ENOSPC, EROFS, EDQUOT, EIO, EPIPE] {
      #expect(!FileIO.describe(errno: code).contains("\(code)"))
    }
  }
}
