import Foundation
import KDBX
import KDBXCrypto
import Synchronization
import Testing
import VectorSupport

/// One format x cipher x KDF combination that `kdbx` writes.
struct Combination: Sendable, CustomTestStringConvertible {
  var format: String
  var cipher: CipherAlgorithm
  var kdf: String

  var cipherName: String {
    switch cipher {
    case .aes256: return "aes256"
    case .chaCha20: return "chacha20"
    case .twofish: return "twofish"
    }
  }
  var name: String { "kdbx\(format.replacingOccurrences(of: ".", with: ""))-\(cipherName)-\(kdf)" }
  var testDescription: String { name }

  /// KDBX 3.1 with AES-KDF; 4.0 and 4.1 with AES-KDF, Argon2d and Argon2id; each with AES-256, ChaCha20 and
  /// Twofish: the 21 combinations `kdbx create` and `kdbx convert` write.
  static let all: [Combination] = {
    var all: [Combination] = []
    for format in ["3.1", "4.0", "4.1"] {
      for kdf in format == "3.1" ? ["aes-kdf"] : ["aes-kdf", "argon2d", "argon2id"] {
        for cipher in [CipherAlgorithm.aes256, .chaCha20, .twofish] {
          all.append(Combination(format: format, cipher: cipher, kdf: kdf))
        }
      }
    }
    return all
  }()

  /// `kdbx convert` options with tiny KDF costs, so that the matrix runs in CI in seconds.
  var convertOptions: [String] {
    ["--format", format, "--cipher", cipherName, "--kdf", kdf]
      + (kdf == "aes-kdf" ? ["--rounds", "1000"] : ["--memory", "1", "--iterations", "1", "--parallelism", "2"])
  }
}

/// The interop matrix (issue #18 item 4). Forward: a vault with a non-ASCII password containing `<&>`, history,
/// attachments and custom fields is written by `kdbx convert` in every combination and read by keepassxc-cli (XML
/// export), pykeepass and KeePass 2 (no Twofish there); every field each peer shows must match. Reverse: files
/// written by each peer are changed by `kdbx edit` and `kdbx attachment-import`, and every peer must still read
/// every entry unchanged except the edited one, which shows exactly the change. A missing peer is skipped with a
/// printed note (`.ci/install-peers.sh` installs them).
@Suite(
  "Peer matrix: keepassxc-cli, pykeepass and KeePass 2 read what we write; their files survive our edits",
  .serialized)
struct PeerMatrixTests {
  static let password = "Pässwörd <&> ключ 🔑"

  /// The vault every combination holds.
  static let source: Database = {
    var random = SystemRandomNumberGenerator()
    func at(_ seconds: Int64) -> FixedClock { FixedClock(Timestamp(unixSeconds: 1_700_000_000 + seconds)) }
    var database = Database.new(name: "Matrix Ω <&>", clock: at(0), random: &random)
    database.meta.databaseDescription = "every combination"
    var internet = Group.new(name: "Internet", clock: at(1), random: &random)
    var social = Group.new(name: "Social ✓", clock: at(2), random: &random)
    var finance = Group.new(name: "Finance & Co", clock: at(3), random: &random)

    var github = Entry.new(clock: at(10), random: &random)
    github[field: Entry.titleField] = .plain("GitHub <&>")
    github[field: Entry.userNameField] = .plain("alex <dev>")
    github[field: Entry.passwordField] = .protected(ProtectedValue("first <pässword>", using: &random))
    github[field: Entry.urlField] = .plain("https://github.com/login?a=1&b=2")
    let first = github
    github[field: Entry.passwordField] = .protected(ProtectedValue("second & pass", using: &random))
    github[field: "Recovery ✓"] = .plain("a & b < c")
    github.times?.lastModificationTime = at(20).now()
    let second = github
    github[field: Entry.passwordField] = .protected(ProtectedValue("p<&>ss ẞ 🔑", using: &random))
    github[field: Entry.notesField] = .plain("line 1\nline 2 <&> \"quoted\" 'single'")
    github[field: "PIN"] = .protected(ProtectedValue("1234", using: &random))
    github.tagsText = "work;ünï"
    github.times?.lastModificationTime = at(30).now()
    github.attachments = [
      database.makeAttachment(name: "codes.txt", data: Array("1111-2222\n3333-4444\n".utf8)),
      database.makeAttachment(name: "blob ✓.bin", data: [0, 1, 2, 0xFF, 0xFE, 0x3C, 0x26, 0x3E, 0]),
    ]
    github.history = [first, second]
    internet.entries = [github]

    var mastodon = Entry.new(clock: at(40), random: &random)
    mastodon[field: Entry.titleField] = .plain("Mastodon")
    mastodon[field: Entry.userNameField] = .plain("@alex@example.social")
    mastodon[field: Entry.passwordField] = .protected(ProtectedValue("toot", using: &random))
    mastodon.iconID = 19
    mastodon.times?.expires = true
    mastodon.times?.expiryTime = Timestamp(unixSeconds: 1_900_000_000)
    social.entries = [mastodon]
    internet.groups = [social]

    var bank = Entry.new(clock: at(50), random: &random)
    bank[field: Entry.titleField] = .plain("Bank ✓")
    bank[field: Entry.passwordField] = .protected(ProtectedValue("1 2 3 4", using: &random))
    bank[field: "IBAN"] = .plain("DE00 1234 5678")
    bank[field: "Security answer"] = .protected(ProtectedValue("</Value>", using: &random))
    finance.entries = [bank]

    var note = Entry.new(clock: at(60), random: &random)
    note[field: Entry.titleField] = .plain("Root note")
    note[field: Entry.notesField] = .plain("tabs\tand ]]> and &amp;")
    database.root?.entries = [note]
    database.root?.groups = [internet, finance]
    return database
  }()

  static let directory: String = {
    (try? TestScratch.directory("kdbx-peer-matrix")) ?? NSTemporaryDirectory()
  }()

  @discardableResult
  static func kdbx(_ arguments: [String], input: String? = password + "\n") throws -> String {
    let result = try CLI.run(arguments, input: input, binary: CorpusExport.binary)
    guard result.status == 0 else {
      throw PeerProcess.Failure(description: "kdbx \(arguments.prefix(2).joined(separator: " ")): \(result.err)")
    }
    return result.out
  }

  /// The file of every combination, written once by `kdbx convert` from a base vault the library saves.
  static let forward: Result<[String: String], PeerProcess.Failure> = {
    do {
      let base = directory + "/base.kdbx"
      let settings = SaveSettings(
        version: .v4_0, kdf: .aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 0, count: 32))))
      let bytes = try KDBXFile.saveBlocking(source, key: CompositeKey(password: password), settings: settings)
      try Data(bytes).write(to: URL(fileURLWithPath: base))
      var files: [String: String] = [:]
      for combination in Combination.all {
        let path = directory + "/\(combination.name).kdbx"
        try kdbx(["convert", base, path] + combination.convertOptions)
        files[combination.name] = path
      }
      return .success(files)
    } catch let failure as PeerProcess.Failure {
      return .failure(failure)
    } catch {
      return .failure(PeerProcess.Failure(description: "\(error)"))
    }
  }()

  static var expected: DatabaseView { PeerViews.view(of: source) }

  static let kdbxAvailable = EndToEnd.kdbxAvailable

  // MARK: forward: the files we write, read by each peer

  @Test(.enabled(if: kdbxAvailable && Peer.keepassxc.isAvailable))
  func keepassxcReadsEveryCombination() throws {
    let files = try Self.forward.get()
    for combination in Combination.all {
      let path = try #require(files[combination.name])
      do {
        let view = try PeerReaders.keepassxc(path, password: Self.password)
        let problems = PeerViews.differences(Self.expected, view)
        #expect(problems.isEmpty, "\(combination.name) in keepassxc-cli: \(problems.joined(separator: "; "))")
      } catch {
        Issue.record("\(combination.name): keepassxc-cli refused it: \(error)")
      }
    }
  }

  @Test(.enabled(if: kdbxAvailable && Peer.pykeepass.isAvailable))
  func pykeepassReadsEveryCombination() throws {
    let files = try Self.forward.get()
    let paths = try Combination.all.map { try #require(files[$0.name]) }
    let results = try PeerReaders.pykeepass(paths.map { ($0, Self.password) })
    for (combination, result) in zip(Combination.all, results) {
      switch result {
      case .success(let view):
        let problems = PeerViews.differences(Self.expected, view)
        #expect(problems.isEmpty, "\(combination.name) in pykeepass: \(problems.joined(separator: "; "))")
      case .failure(let failure):
        Issue.record("\(combination.name): \(failure)")
      }
    }
  }

  @Test(.enabled(if: kdbxAvailable && Peer.keePass2.isAvailable))
  func keePass2ReadsEveryCombinationWithoutTwofish() throws {
    let files = try Self.forward.get()
    let offered = Combination.all.filter { Peer.keePass2.reads($0.cipher) }
    print("note: KeePass 2.47 has no Twofish: \(Combination.all.count - offered.count) Twofish files not offered to it")
    #expect(offered.count == 14)
    for combination in offered {
      let path = try #require(files[combination.name])
      do {
        let view = try PeerReaders.keePass2(path, password: Self.password)
        let problems = PeerViews.differences(Self.expected, view)
        #expect(problems.isEmpty, "\(combination.name) in KeePass 2: \(problems.joined(separator: "; "))")
      } catch {
        Issue.record("\(combination.name): KeePass 2 refused it: \(error)")
      }
    }
  }

  /// The comparison can fail: a changed field, a lost attachment and a missing entry are each reported.
  @Test func comparisonReportsDifferences() throws {
    let expected = Self.expected
    var changed = expected
    let github = try #require(expected.entry(titled: "GitHub <&>"))
    var entry = github
    entry.fields["PIN"] = "4321"
    entry.attachments?["codes.txt"] = nil
    changed.entries[github.uuid] = entry
    let problems = PeerViews.differences(expected, changed)
    #expect(problems.contains { $0.contains("GitHub <&>.fields") })
    #expect(problems.contains { $0.contains("GitHub <&>.attachments") })
    changed.entries[github.uuid] = nil
    #expect(PeerViews.differences(expected, changed).contains { $0.hasPrefix("entries:") })
    #expect(PeerViews.differences(expected, expected).isEmpty)
    // kp2dump's view (fields and counts) against the full one.
    var counts = github
    counts.path = nil
    counts.tags = nil
    counts.attachments = nil
    counts.history = nil
    counts.times = nil
    counts.icon = nil
    #expect(PeerViews.entryDifferences(github, counts).isEmpty)
    counts.historyCount += 1
    #expect(!PeerViews.entryDifferences(github, counts).isEmpty)
  }

  // MARK: reverse: files the peers write, edited by us, read by each peer

  /// A file a peer wrote, and the entry `kdbx edit` and `kdbx attachment-import` change in its copy.
  enum Writer: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// `keepassxc-cli db-create` (KDBX 3.1, AES-KDF calibrated to its 100 ms minimum) and `add`.
    case keepassxcCreated = "keepassxc-cli db-create + add"
    /// keepassxc-cli `mkdir`, `add` and `attachment-import` into an empty KDBX 4.0 (ChaCha20, Argon2d) vault,
    /// which KeePassXC writes again entirely.
    case keepassxcKDBX4 = "keepassxc-cli add (KDBX 4.0)"
    case pykeepassKDBX4 = "pykeepass (KDBX 4.0)"
    case pykeepassKDBX31 = "pykeepass (KDBX 3.1)"
    /// `kp2dump.sh --resave` of the matrix's 4.0 ChaCha20 Argon2id file.
    case keePass2KDBX4 = "KeePass 2 --resave (KDBX 4.0)"
    /// `kp2dump.sh --resave` of the matrix's 3.1 AES-256 file.
    case keePass2KDBX31 = "KeePass 2 --resave (KDBX 3.1)"

    var testDescription: String { rawValue }

    var peer: Peer {
      switch self {
      case .keepassxcCreated, .keepassxcKDBX4: return .keepassxc
      case .pykeepassKDBX4, .pykeepassKDBX31: return .pykeepass
      case .keePass2KDBX4, .keePass2KDBX31: return .keePass2
      }
    }

    /// The entry path the edit changes.
    var editedEntry: String {
      switch self {
      case .keepassxcCreated, .keepassxcKDBX4: return "Web ✓/Site <&>"
      case .pykeepassKDBX4, .pykeepassKDBX31: return "Bank ✓/Account <&>"
      case .keePass2KDBX4, .keePass2KDBX31: return "Internet/GitHub <&>"
      }
    }

    var editedTitle: String { String(editedEntry.split(separator: "/").last ?? "") }

    static let available: [Writer] = {
      let available = allCases.filter { $0.peer.isAvailable }
      for writer in allCases where !available.contains(writer) {
        print("note: SKIP: reverse interop with files written by \(writer.rawValue): \(writer.peer) is missing")
      }
      return available
    }()
  }

  struct Prepared: Sendable {
    /// The peer's file as it wrote it.
    var original: String
    /// A copy after `kdbx edit --username` and `kdbx attachment-import` on ``Writer/editedEntry``.
    var edited: String
    var attachmentSHA256: String
  }

  static let newUserName = "changed <&> ü"
  static let newAttachmentName = "new ✓.bin"
  static let newAttachment: [UInt8] = Array("attached by kdbx \u{1F511}\n".utf8) + [0, 0xFF]

  static let prepared = Mutex<[Writer: Result<Prepared, PeerProcess.Failure>]>([:])

  /// The peer's file for `writer` and our edited copy, made once.
  static func prepare(_ writer: Writer) throws -> Prepared {
    if let known = prepared.withLock({ $0[writer] }) { return try known.get() }
    let result: Result<Prepared, PeerProcess.Failure>
    do {
      result = .success(try make(writer))
    } catch let failure as PeerProcess.Failure {
      result = .failure(failure)
    } catch {
      result = .failure(PeerProcess.Failure(description: "\(error)"))
    }
    prepared.withLock { $0[writer] = result }
    return try result.get()
  }

  static func make(_ writer: Writer) throws -> Prepared {
    let stem = directory + "/" + String(describing: writer)
    let original = stem + ".kdbx"
    try? FileManager.default.removeItem(atPath: original)
    let attachment = stem + ".attachment"
    try Data("attached by the peer\n".utf8).write(to: URL(fileURLWithPath: attachment))
    let line = password + "\n"
    switch writer {
    case .keepassxcCreated, .keepassxcKDBX4:
      let cli = Peer.keepassxcPath ?? "keepassxc-cli"
      if writer == .keepassxcCreated {
        try PeerProcess.check(cli, ["db-create", "-q", "-p", "-t", "100", original], input: line + line)
      } else {
        try kdbx(
          [
            "create", original, "--format", "4.0", "--cipher", "chacha20", "--kdf", "argon2d", "--memory", "1",
            "--iterations", "1", "--parallelism", "2", "--name", "KeePassXC 4 Ω",
          ])
      }
      try PeerProcess.check(cli, ["mkdir", "-q", original, "Web ✓"], input: line)
      try PeerProcess.check(
        cli,
        [
          "add", "-q", "-u", "üser <&>", "--url", "https://a.example/?x=1&y=2", "--notes", "line 1\nline 2", "-p",
          original, "Web ✓/Site <&>",
        ], input: line + "entry <pässword> &\n")
      try PeerProcess.check(cli, ["add", "-q", "-u", "mail", "-p", original, "Mail ✓"], input: line + "mail pw\n")
      try PeerProcess.check(cli, ["attachment-import", "-q", original, "Mail ✓", "notes.txt", attachment], input: line)
    case .pykeepassKDBX4, .pykeepassKDBX31:
      let seed = stem + "-seed.kdbx"
      try? FileManager.default.removeItem(atPath: seed)
      let options =
        writer == .pykeepassKDBX4
        ? ["--format", "4.0", "--kdf", "argon2id", "--memory", "1", "--iterations", "1", "--parallelism", "2"]
        : ["--format", "3.1", "--kdf", "aes-kdf", "--rounds", "1000"]
      try kdbx(["create", seed, "--name", "pykeepass Ω"] + options)
      let script = """
        import sys
        from pykeepass import PyKeePass
        seed, out, password, attachment = sys.argv[1:5]
        kp = PyKeePass(seed, password=password)
        bank = kp.add_group(kp.root_group, 'Bank ✓')
        e = kp.add_entry(bank, 'Account <&>', 'üser', 'pw <1> &', url='https://bank.example/?a=1&b=2',
                         notes='line 1\\nline 2', tags=['money', 'ünï'])
        e.set_custom_property('PIN', '0042', protect=True)
        e.set_custom_property('Plain ✓', 'a & b < c')
        e.add_attachment(kp.add_binary(open(attachment, 'rb').read()), 'statement.txt')
        e.save_history()
        e.password = 'pw <2> &'
        kp.add_entry(kp.root_group, 'Root entry', 'root', 'root pw')
        # pykeepass 4.2 saves a KDBX 3.1 file with new header seeds but the old Meta/HeaderHash, which KeePass 2,
        # KeePassXC and kdbx refuse ("the header is corrupted"); without the element there is nothing to check.
        for stale in kp.tree.xpath('/KeePassFile/Meta/HeaderHash'):
            stale.getparent().remove(stale)
        kp.save(out)
        """
      try PeerProcess.check("/usr/bin/env", ["python3", "-c", script, seed, original, password, attachment])
    case .keePass2KDBX4, .keePass2KDBX31:
      let name = writer == .keePass2KDBX4 ? "kdbx40-chacha20-argon2id" : "kdbx31-aes256-aes-kdf"
      guard let source = try forward.get()[name] else { throw PeerProcess.Failure(description: "no \(name)") }
      try PeerProcess.check(
        "/bin/bash", [Peer.kp2dumpPath ?? "kp2dump.sh", source, "--password", password, "--resave", original])
    }
    let edited = stem + "-edited.kdbx"
    try? FileManager.default.removeItem(atPath: edited)
    try FileManager.default.copyItem(atPath: original, toPath: edited)
    try kdbx(["edit", edited, writer.editedEntry, "--username", newUserName])
    let newFile = stem + ".new"
    try Data(newAttachment).write(to: URL(fileURLWithPath: newFile))
    try kdbx(["attachment-import", edited, writer.editedEntry, newAttachmentName, newFile])
    return Prepared(
      original: original, edited: edited, attachmentSHA256: TestHex.string(SHA256.hash(newAttachment).bytes))
  }

  /// Every entry `reader` shows is unchanged, except the edited one, which shows exactly our change.
  static func checkEdit(_ writer: Writer, readBy reader: Peer) throws {
    let files = try prepare(writer)
    let before: DatabaseView
    let after: DatabaseView
    if reader == .pykeepass {
      let results = try PeerReaders.pykeepass([(files.original, password), (files.edited, password)])
      before = try results[0].get()
      after = try results[1].get()
    } else {
      before = try PeerReaders.read(files.original, password: password, with: reader)
      after = try PeerReaders.read(files.edited, password: password, with: reader)
    }
    let label = "\(writer.rawValue) read by \(reader)"
    let old = try #require(before.entry(titled: writer.editedTitle), "\(label): no entry \(writer.editedTitle)")
    #expect(before.entries.count >= 2, "\(label): \(before.entries.count) entries")
    let others = PeerViews.differences(before, after, except: [old.uuid])
    #expect(others.isEmpty, "\(label): \(others.joined(separator: "; "))")
    let new = try #require(after.entries[old.uuid], "\(label): the edited entry is gone")
    var wanted = old
    wanted.fields[Entry.userNameField] = newUserName
    #expect(new.fields == wanted.fields, "\(label): \(new.fields) != \(wanted.fields)")
    // The edit and the import each keep the previous version in the history.
    #expect(new.historyCount == old.historyCount + 2, "\(label): history \(old.historyCount) -> \(new.historyCount)")
    #expect(new.attachmentCount == old.attachmentCount + 1, "\(label): attachments")
    if let history = new.history, let oldHistory = old.history, history.count == oldHistory.count + 2 {
      #expect(Array(history.prefix(oldHistory.count)) == oldHistory, "\(label): old history changed")
      #expect(history[oldHistory.count] == old.fields, "\(label): the first new history item is not the old entry")
    }
    if let attachments = new.attachments, let oldAttachments = old.attachments {
      var wantedAttachments = oldAttachments
      wantedAttachments[newAttachmentName] = files.attachmentSHA256
      #expect(attachments == wantedAttachments, "\(label): \(attachments) != \(wantedAttachments)")
    }
    #expect(new.path == old.path && new.tags == old.tags && new.icon == old.icon, "\(label): path, tags or icon")
  }

  @Test(.enabled(if: kdbxAvailable && Peer.keepassxc.isAvailable), arguments: Writer.available)
  func keepassxcReadsPeerFilesAfterOurEdit(_ writer: Writer) throws {
    try Self.checkEdit(writer, readBy: .keepassxc)
  }

  @Test(.enabled(if: kdbxAvailable && Peer.pykeepass.isAvailable), arguments: Writer.available)
  func pykeepassReadsPeerFilesAfterOurEdit(_ writer: Writer) throws {
    try Self.checkEdit(writer, readBy: .pykeepass)
  }

  @Test(.enabled(if: kdbxAvailable && Peer.keePass2.isAvailable), arguments: Writer.available)
  func keePass2ReadsPeerFilesAfterOurEdit(_ writer: Writer) throws {
    try Self.checkEdit(writer, readBy: .keePass2)
  }
}
