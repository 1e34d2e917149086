import Foundation
import KDBX
import Testing
import VectorSupport

/// Issue #26 acceptance: merging a corpus file with its own re-save by KeePass 2, keepassxc-cli or pykeepass
/// changes nothing (an empty report, the same history counts). The files whose key derivation is cheap in a debug
/// build run here; `KDBX_HEAVY_TESTS=1` adds the rest, and `.ci/merge-resave-sweep.py` runs every file through the
/// CLI. A peer that is missing, or that cannot read or write a file (KeePass 2.47 has no Twofish, pykeepass reads
/// no KDBX 2.x and writes KDBX 3.1 files with a stale header hash that no reader accepts), is skipped with a note.
@Suite("Merge: a vault merged with a peer's re-save of itself", .enabled(if: EndToEnd.isEnabled, EndToEnd.skipReason))
struct MergeResaveTests {
  enum Peer: String, CaseIterable, Sendable {
    case keePass2 = "KeePass 2"
    case keePassXC = "keepassxc-cli"
    case pykeepass
  }

  /// Re-saves that really change content: the merge must report them, and keeps both versions.
  static let changedByPeer: [String: Peer] = [
    // keepassxc-cli 2.7.4 decodes this KDBX 3.1 file's ChaCha20 inner stream wrongly (the MANIFEST records
    // 'admin' against a garbled password), so its re-save holds another password at the same time: a conflict.
    "keepass-rs/test_db_kdbx3_with_chacha20_protected_fields.kdbx": .keePassXC
  ]

  static var files: [CorpusKDBXFile] {
    CorpusKDBXFile.all.filter { file in
      !CorpusOpenTests.needsHardware.contains(file.path)
        && (CorpusKDBXFile.heavyTestsEnabled || (file.cheapKDF && (Corpus.file(file.path)?.count ?? 0) < 1_000_000))
    }
  }

  /// Writes the peer's re-save of `path` to `out`; `nil`, or why the peer cannot.
  static func resave(_ peer: Peer, _ file: CorpusKDBXFile, path: String, keyFile: String?, out: String) -> String? {
    do {
      switch peer {
      case .keePass2:
        if let missing = KeePass2.missing { return missing }
        var arguments = [(KeePass2.peers ?? "") + "/kp2dump.sh", path, "--resave", out]
        if let password = file.password { arguments += ["--password", password] }
        if let keyFile { arguments += ["--keyfile", keyFile] }
        try KeePass2.run("/bin/bash", arguments)
      case .keePassXC:
        guard let cli = KeePassXCCLI.path else { return "keepassxc-cli is absent" }
        try FileManager.default.copyItem(atPath: path, toPath: out)
        var arguments = ["db-edit", "-q"] + (keyFile.map { ["-k", $0] } ?? [])
        var input = ""
        if let password = file.password, !password.isEmpty {
          // Setting the same password again rewrites the file and changes no entry.
          arguments += ["-p", out]
          input = "\(password)\n\(password)\n\(password)\n"
        } else if let keyFile {
          arguments += (file.password == nil ? ["--no-password"] : []) + ["--set-key-file", keyFile, out]
          input = file.password == nil ? "" : "\n"
        } else {
          // An empty password cannot be set again (an empty answer removes it): edit an entry's title to the
          // title it has, which rewrites the file and changes nothing.
          let listing = try KeePass2.run(cli, ["ls", "-q", "-R", "-f", out], input: "\n")
          guard let entry = listing.split(separator: "\n").first(where: { !$0.hasSuffix("/") }) else {
            return "keepassxc-cli cannot re-save an empty-password vault without entries"
          }
          arguments = ["edit", "-q", out, String(entry), "-t", String(entry.split(separator: "/").last ?? "")]
          input = "\n"
        }
        try KeePass2.run(cli, arguments, input: input)
      case .pykeepass:
        guard WriteInteropTests.pykeepassAvailable else { return "pykeepass is absent" }
        let script =
          "import sys; from pykeepass import PyKeePass; PyKeePass(sys.argv[1], password=sys.argv[2][1:] "
          + "if sys.argv[2] else None, keyfile=sys.argv[3] or None).save(sys.argv[4])"
        try KeePass2.run(
          "/usr/bin/env",
          ["python3", "-c", script, path, file.password.map { "=" + $0 } ?? "", keyFile ?? "", out])
      }
      return nil
    } catch {
      return "\(peer.rawValue) cannot re-save it: \(String(describing: error).prefix(160))"
    }
  }

  static func historyCount(_ database: Database) -> Int {
    database.flatEntries.reduce(0) { $0 + ($1.entry.history?.count ?? 0) }
  }

  @Test(.enabled(if: Corpus.isAvailable), arguments: files)
  func mergingAPeersResaveChangesNothing(_ file: CorpusKDBXFile) throws {
    guard let root = Corpus.root else { return }
    let path = root + "/" + file.path
    let keyFile = file.keyFile.map { root + "/" + $0 }
    // The expected JSON carries the challenge-response of the file that has one (a heavy file).
    let key = try CorpusOpenTests.key(
      password: file.password, keyFile: file.keyFile, expected: ExpectedJSON.load(file.path + ".expected.json"))
    let local = try KDBXFile.openBlocking(bytes: try #require(Corpus.file(file.path)), key: key).database
    let directory = NSTemporaryDirectory() + "kdbx-resave-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    for peer in Peer.allCases {
      let out = directory + "/\(peer).kdbx"
      if let why = Self.resave(peer, file, path: path, keyFile: keyFile, out: out) {
        print("note: \(file.path) / \(peer.rawValue) skipped: \(why)")
        continue
      }
      let remote: Database
      do {
        remote = try KDBXFile.openBlocking(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))), key: key)
          .database
      } catch {
        // pykeepass writes KDBX 3.1 re-saves with the old Meta/HeaderHash; KeePass 2 and keepassxc-cli refuse them too.
        print("note: \(file.path) / \(peer.rawValue) skipped: its re-save does not open: \(error)")
        continue
      }
      let result = DatabaseMerge.synchronize(local: local, remote: remote)
      if Self.changedByPeer[file.path] == peer {
        #expect(result.report.conflicts.map(\.kind) == [.sameModificationTime], "\(file.path) / \(peer.rawValue)")
        continue
      }
      #expect(result.report.isEmpty, "\(file.path) / \(peer.rawValue): \(result.report.changes.prefix(5))")
      #expect(Self.historyCount(result.database) == Self.historyCount(local), "\(file.path) / \(peer.rawValue)")
    }
  }
}
