import Foundation
import KDBX
import KDBXBase
import KDBXCrypto
import KDBXImport
import Testing
import VectorSupport

/// KeePass 1.x (`.kdb`) files through the `kdbx` binary: read-only commands open them, commands that change a vault
/// refuse them, `import` converts them to KDBX files that keepassxc-cli and pykeepass read with the same content.
/// Uses the corpus (`../shared/corpus`).
@Suite(.enabled(if: CorpusExport.isAvailable, "needs ../shared/corpus and a built kdbx"))
struct CLIKeePass1Tests {
  static var root: String { CorpusExport.root ?? "" }
  static var basic: String { root + "/keepassxc/basic.kdb" }

  static func run(_ arguments: [String], input: String? = nil) throws -> CLI.Result {
    try CLI.run(arguments, input: input, binary: CorpusExport.binary)
  }

  static func scratch() throws -> URL {
    URL(fileURLWithPath: try TestScratch.directory("kdbx-kdb1"), isDirectory: true)
  }

  @Test func readOnlyCommandsOpenKeePass1Files() throws {
    let list = try Self.run(["ls", Self.basic, "-R"], input: "masterpw\n")
    #expect(list.status == 0, "\(list.err)")
    #expect(list.out.contains("Internet/\n  Test entry\n"))
    #expect(list.out.contains("    Unexpanded/\n      abc/\n"))
    #expect(!list.out.contains("Meta-Info"))
    let show = try Self.run(["show", Self.basic, "Internet/Test entry", "-s"], input: "masterpw\n")
    #expect(show.status == 0, "\(show.err)")
    #expect(show.out.contains("Password: secretpassword\n"))
    #expect(show.out.contains("URL: http://example.com/\n"))
    let search = try Self.run(["search", Self.basic, "Auto-Type"], input: "masterpw\n")
    #expect(search.status == 0 && search.out.contains("Auto-Type Test 2"), "\(search.err)")
    let info = try Self.run(["info", Self.basic], input: "masterpw\n")
    #expect(info.status == 0, "\(info.err)")
    for line in [
      "Format:          KeePass 1.x (import only)\n", "Cipher:          AES-256\n",
      "KDF:             AES-KDF (rounds 713)\n", "Groups:          6\n", "Entries:         5\n",
      "Attachments:     1\n",
    ] {
      #expect(info.out.contains(line), "missing \(line) in \(info.out)")
    }
    let twofish = try Self.run(["info", Self.root + "/keepassxc/Twofish.kdb", "--json"], input: "masterpw\n")
    #expect(twofish.status == 0, "\(twofish.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(twofish.out.utf8)) as? [String: Any])
    #expect(json["version"] as? String == "1.x")
    #expect(json["cipher"] as? String == "Twofish")
    #expect((json["kdf"] as? [String: Any])?["rounds"] as? Int == 10_000)
    let verify = try Self.run(["verify", Self.basic], input: "masterpw\n")
    #expect(verify.status == 0 && verify.out.contains("KeePass 1.x: integrity OK"), "\(verify.out)\(verify.err)")
    let directory = try Self.scratch()
    let saved = directory.appendingPathComponent("attachment.txt").path
    let export = try Self.run(
      ["attachment-export", Self.basic, "Internet/Test entry", "attachment.txt", saved], input: "masterpw\n")
    #expect(export.status == 0, "\(export.err)")
    #expect(FileManager.default.contents(atPath: saved) == Data("hello world\n".utf8))
    let keyFileOnly = try Self.run([
      "ls", Self.root + "/keepassxc/FileKeyHex.kdb", "--no-password", "--key-file",
      Self.root + "/keepassxc/FileKeyHex.key",
    ])
    #expect(keyFileOnly.status == 0 && keyFileOnly.out == "FileKeyHex/\n", "\(keyFileOnly.err)")
  }

  @Test func wrongPasswordExitsWithTwo() throws {
    let result = try Self.run(["ls", Self.basic], input: "not masterpw\n")
    #expect(result.status == 2)
    #expect(result.err.contains("wrong password or key file"))
    #expect(result.out.isEmpty)
    let keyFile = try Self.run([
      "ls", Self.root + "/keepassxc/FileKeyHex.kdb", "--no-password", "--key-file",
      Self.root + "/keepassxc/FileKeyBinary.key",
    ])
    #expect(keyFile.status == 2, "\(keyFile.err)")
  }

  /// A damaged file is reported as damage (exit status 1), not as a wrong password.
  @Test func damagedFileIsNotAWrongPassword() throws {
    var bytes = try #require(FileManager.default.contents(atPath: Self.basic))
    bytes[bytes.count / 2] ^= 0x01
    let path = try Self.scratch().appendingPathComponent("damaged.kdb").path
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = try Self.run(["ls", path], input: "masterpw\n")
    #expect(result.status == 1)
    #expect(
      result.err.contains("KeePass 1.x content damaged: the SHA-256 content hash does not match"), "\(result.err)")
  }

  /// Every command that saves refuses a KeePass 1.x file and leaves it as it was: before the password prompt when
  /// the file comes first, and at the save otherwise.
  @Test func changingCommandsRefuseKeePass1Files() throws {
    let directory = try Self.scratch()
    let path = directory.appendingPathComponent("old.kdb").path
    try FileManager.default.copyItem(atPath: Self.basic, toPath: path)
    let original = try #require(FileManager.default.contents(atPath: path))
    let file = directory.appendingPathComponent("file.txt").path
    try Data("x".utf8).write(to: URL(fileURLWithPath: file))
    let other = directory.appendingPathComponent("other.kdbx").path
    let commands: [[String]] = [
      ["add", path, "Internet/New"], ["edit", path, "Internet/Test entry", "--username", "x"],
      ["rm", path, "Internet/Test entry"], ["mv", path, "Internet/Test entry", "eMail"], ["mkdir", path, "New"],
      ["rmdir", path, "eMail"], ["attachment-import", path, "Internet/Test entry", "f.txt", file],
      ["attachment-rm", path, "Internet/Test entry", "attachment.txt"], ["convert", path, other],
      ["merge", path, CLI.fixture, "--same-credentials"],
      // Options first: the vault is found after the password, and refused when it would be saved.
      ["add", "--username", "x", path, "Internet/New"], ["edit", "--title", "T", path, "Internet/Test entry"],
    ]
    for arguments in commands {
      let result = try Self.run(arguments, input: "masterpw\nmasterpw\n")
      #expect(result.status == 1, "\(arguments): \(result.status) \(result.err)")
      #expect(
        result.err.contains("KeePass 1.x files are read-only here; convert with kdbx import \(path) NEW.kdbx"),
        "\(arguments): \(result.err)")
      #expect(FileManager.default.contents(atPath: path) == original)
    }
    #expect(!FileManager.default.fileExists(atPath: other))
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(names == ["file.txt", "old.kdb"])
  }

  /// `kdbx import` detects the format from the content, whatever the file is called.
  @Test func importDetectsTheFormat() throws {
    let directory = try Self.scratch()
    let disguised = directory.appendingPathComponent("export.xml").path
    try FileManager.default.copyItem(atPath: Self.basic, toPath: disguised)
    let out = directory.appendingPathComponent("new.kdbx").path
    let result = try Self.run(
      ["import", disguised, out, "--kdf", "aes-kdf", "--rounds", "1000"], input: "masterpw\n")
    #expect(result.status == 0, "\(result.err)")
    #expect(result.out.contains("KeePass 1.x, AES-256, 713 rounds: 6 groups, 5 entries"), "\(result.out)")
    let list = try Self.run(["ls", out, "-R"], input: "masterpw\n")
    #expect(list.status == 0 && list.out.hasPrefix("Internet/\n  Test entry\n"), "\(list.err)")
    // The same file imported again merges into the first import without a change (same UUIDs).
    let merge = try Self.run(["merge", out, Self.basic, "--dry-run"], input: "masterpw\nmasterpw\n")
    #expect(
      merge.status == 0 && merge.out.contains("basic.kdb: 0 change(s), 0 conflict(s)"), "\(merge.out)\(merge.err)")
    let kdbx = try Self.run(["import", out, directory.appendingPathComponent("again.kdbx").path], input: "masterpw\n")
    #expect(kdbx.status == 1 && kdbx.err.contains("is a KDBX database already"), "\(kdbx.err)")
    let wrong = try Self.run(["import", Self.basic, directory.appendingPathComponent("w.kdbx").path], input: "x\n")
    #expect(wrong.status == 2, "\(wrong.err)")
  }

  static let pykeepassAndKeePassXC: Bool = {
    guard EndToEnd.isEnabled else { return false }
    let python = (try? CLI.run(["python3", "-c", "import pykeepass"], binary: "/usr/bin/env"))?.status == 0
    let keepassxc = (try? CLI.run(["keepassxc-cli", "--version"], binary: "/usr/bin/env"))?.status == 0
    if !python { print("note: CLIKeePass1Tests.importedFilesReadInPeers SKIPPED for pykeepass: not installed") }
    if !keepassxc { print("note: CLIKeePass1Tests.importedFilesReadInPeers SKIPPED for keepassxc-cli: not installed") }
    return python && keepassxc
  }()

  /// Reads a KDBX file with keepassxc-cli (XML export) and pykeepass and prints, per reader, the entries and group
  /// paths (below the root) as JSON.
  static let peerScript = #"""
    import hashlib, json, subprocess, sys, xml.etree.ElementTree as ET
    from pykeepass import PyKeePass
    path, password, keyfile = sys.argv[1], sys.argv[2], sys.argv[3]
    password = None if password == "-" else password
    keyfile = None if keyfile == "-" else keyfile
    args = ["keepassxc-cli", "export", "-q", "-f", "xml", path]
    if keyfile: args += ["-k", keyfile]
    if password is None: args.append("--no-password")
    run = subprocess.run(args, input=(password or "") + "\n", capture_output=True, text=True)
    if run.returncode != 0: sys.exit("keepassxc-cli: " + run.stderr)
    tree = ET.fromstring(run.stdout)
    import base64
    def xentries(group, path):
        for child in group:
            if child.tag == "Entry":
                fields = {s.findtext("Key"): s.findtext("Value") or "" for s in child.findall("String")}
                at = child.find("AutoType")
                assoc = [(a.findtext("Window") or "") + "=" + (a.findtext("KeystrokeSequence") or "")
                         for a in at.findall("Association")] if at is not None else []
                yield {"uuid": base64.b64decode(child.findtext("UUID")).hex(), "path": path,
                       "title": fields.get("Title", ""), "username": fields.get("UserName", ""),
                       "password": fields.get("Password", ""), "url": fields.get("URL", ""),
                       "notes": fields.get("Notes", ""), "icon": int(child.findtext("IconID") or 0),
                       "expires": child.findtext("Times/Expires") == "True",
                       "attachments": sorted(b.findtext("Key") for b in child.findall("Binary")),
                       "autotype": ((at.findtext("DefaultSequence") or "") if at is not None else "", assoc)}
            elif child.tag == "Group":
                yield from xentries(child, path + [child.findtext("Name") or ""])
    def xgroups(group, path):
        for child in group.findall("Group"):
            here = path + [child.findtext("Name") or ""]
            yield here
            yield from xgroups(child, here)
    top = tree.find("Root/Group")
    keepassxc = {"entries": list(xentries(top, [])), "groups": list(xgroups(top, []))}
    kp = PyKeePass(path, password=password, keyfile=keyfile)
    rootpath = kp.root_group.path
    def rel(p): return list(p)[len(rootpath):]
    py = {"entries": [{"uuid": e.uuid.hex, "path": rel(e.group.path), "title": e.title or "",
                       "username": e.username or "", "password": e.password or "", "url": e.url or "",
                       "notes": e.notes or "", "icon": int(e.icon or 0), "expires": bool(e.expires),
                       "expiry": e.expiry_time.strftime("%Y-%m-%dT%H:%M:%SZ"),
                       "attachments": sorted([a.filename, hashlib.sha256(a.data).hexdigest()] for a in e.attachments)}
                      for e in kp.entries],
          "groups": [rel(g.path) for g in kp.groups if g != kp.root_group]}
    print(json.dumps({"keepassxc": keepassxc, "pykeepass": py}))
    """#

  /// Every corpus `.kdb` converted by `kdbx import` reads in keepassxc-cli and pykeepass with the content this
  /// library reads from the `.kdb` itself: groups, every entry field, icons, expiry, attachments, auto-type.
  @Test(.enabled(if: pykeepassAndKeePassXC), arguments: CorpusExport.selected.filter(CorpusExport.isKeePass1))
  func importedFilesReadInPeers(_ file: CorpusExport.File) throws {
    let directory = try Self.scratch()
    let out = directory.appendingPathComponent("imported.kdbx").path
    // Argon2id: pykeepass refuses KDBX 4 AES-KDF files as we write them today (the AES-KDF UUID, issue #18 item 1).
    var arguments = [
      "import", Self.root + "/" + file.path, out, "--kdf", "argon2id", "--memory", "1", "--iterations", "2",
      "--parallelism", "1",
    ]
    if file.password == nil { arguments.append("--no-password") }
    if let keyFile = file.keyFile { arguments += ["--key-file", Self.root + "/" + keyFile] }
    let imported = try Self.run(arguments, input: file.password.map { $0 + "\n" })
    #expect(imported.status == 0, "\(file.path): \(imported.err)")

    // The reference: the .kdb read by the library.
    let bytes = try #require(FileManager.default.contents(atPath: Self.root + "/" + file.path))
    let keyFile = try file.keyFile.map { path in
      try KeyFile(contents: Array(try #require(FileManager.default.contents(atPath: Self.root + "/" + path))))
    }
    let reference = try KDB1File.open(
      bytes: Array(bytes), key: CompositeKey(password: file.password, keyFile: keyFile),
      clock: FixedClock(Timestamp(unixSeconds: 0))
    ).database

    let script = directory.appendingPathComponent("peers.py").path
    try Data(Self.peerScript.utf8).write(to: URL(fileURLWithPath: script))
    let peers = try CLI.run(
      ["python3", script, out, file.password ?? "-", file.keyFile.map { Self.root + "/" + $0 } ?? "-"],
      binary: "/usr/bin/env")
    #expect(peers.status == 0, "\(file.path): \(peers.err)")
    let json = try #require(try JSONSerialization.jsonObject(with: Data(peers.out.utf8)) as? [String: Any])

    var referenceGroups: [[String]] = []
    func walk(_ group: Group, _ path: [String]) {
      for child in group.groups {
        referenceGroups.append(path + [child.name])
        walk(child, path + [child.name])
      }
    }
    if let root = reference.root { walk(root, []) }
    for reader in ["keepassxc", "pykeepass"] {
      let read = try #require(json[reader] as? [String: Any])
      let groups = (read["groups"] as? [[String]] ?? [])
      #expect(
        groups.sorted { $0.joined(separator: "/") < $1.joined(separator: "/") }
          == referenceGroups.sorted { $0.joined(separator: "/") < $1.joined(separator: "/") }, "\(file.path) \(reader)")
      let entries = read["entries"] as? [[String: Any]] ?? []
      #expect(entries.count == reference.flatEntries.count, "\(file.path) \(reader)")
      for item in reference.flatEntries {
        let entry = item.entry
        let uuid = Hex.encode(entry.uuid.bytes)
        guard let theirs = entries.first(where: { $0["uuid"] as? String == uuid }) else {
          Issue.record("\(file.path) \(reader): entry \(uuid) missing")
          continue
        }
        func field(_ name: String) -> String { entry[field: name]?.reveal() ?? "" }
        #expect(theirs["path"] as? [String] == item.groupPath, "\(reader) \(uuid)")
        #expect(theirs["title"] as? String == field(Entry.titleField), "\(reader) \(uuid)")
        #expect(theirs["username"] as? String == field(Entry.userNameField), "\(reader) \(uuid)")
        #expect(theirs["password"] as? String == field(Entry.passwordField), "\(reader) \(uuid)")
        #expect(theirs["url"] as? String == field(Entry.urlField), "\(reader) \(uuid)")
        #expect(theirs["notes"] as? String == field(Entry.notesField), "\(reader) \(uuid)")
        #expect(theirs["icon"] as? Int == Int(entry.iconID ?? 0), "\(reader) \(uuid)")
        #expect(theirs["expires"] as? Bool == entry.times?.expires, "\(reader) \(uuid)")
        let attachments = entry.attachments.map { attachment -> [String] in
          [attachment.name, Hex.encode(SHA256.hash(reference.contents(of: attachment) ?? []).bytes)]
        }.sorted { $0[0] < $1[0] }
        if reader == "pykeepass" {
          #expect(theirs["attachments"] as? [[String]] == attachments, "\(reader) \(uuid)")
          let expiry = entry.times?.expiryTime.map(ISO8601.format)
          #expect(theirs["expiry"] as? String == expiry, "\(reader) \(uuid)")
        } else {
          #expect(theirs["attachments"] as? [String] == attachments.map { $0[0] }, "\(reader) \(uuid)")
          let autoType = theirs["autotype"] as? [Any]
          #expect(autoType?.first as? String == entry.autoType?.defaultSequence ?? "", "\(reader) \(uuid)")
          let associations = (entry.autoType?.associations ?? []).map { "\($0.window)=\($0.keystrokeSequence ?? "")" }
          #expect(autoType?.last as? [String] == associations, "\(reader) \(uuid)")
        }
      }
    }
  }
}

/// Compares `kdbx export --format json` of a KeePass 1.x file with its corpus oracle (File::KeePass or kdb1.py;
/// schema in ../shared/corpus/README.md): KDB1 oracles have no root group and no group UUIDs (groups are compared
/// in order by path), times are `YYYY-MM-DD HH:MM:SS`, and the version is "1.x". Expected differences, as in the
/// library's `KDB1Oracle`: notes of entries with auto-type are compared without empty lines (KeePassXC and this
/// reader drop an empty line after auto-type lines, File::KeePass keeps it); an entry icon beyond the 69 standard
/// ones is exported as 0 (it becomes a custom icon); "never" (2999-12-28 23:59:59) is kept as the expiry time with
/// `expires` false.
enum KDB1ExportComparison {
  static func compare(_ ours: [String: Any], with expected: [String: Any]) -> [String] {
    var problems: [String] = []
    func check(_ what: String, _ actual: Any?, _ wanted: Any?) {
      let a = ExportComparison.text(actual)
      let w = ExportComparison.text(wanted)
      if a != w { problems.append("\(what): got \(a), expected \(w)") }
    }
    check("version", ours["version"], "1.x")
    let groups = ours["groups"] as? [[String: Any]] ?? []
    let wantedGroups = expected["groups"] as? [[String: Any]] ?? []
    check("groups.count", groups.count, wantedGroups.count)
    for (index, (group, wanted)) in zip(groups, wantedGroups).enumerated() {
      check("group \(index).path", group["path"], wanted["path"])
      check("group \(index).name", group["name"], wanted["name"])
      check("group \(index).icon", group["icon"], wanted["icon"])
    }
    let entries = ours["entries"] as? [[String: Any]] ?? []
    let wantedEntries = expected["entries"] as? [[String: Any]] ?? []
    check("entries.count", entries.count, wantedEntries.count)
    for wanted in wantedEntries {
      let uuid = wanted["uuid"] as? String ?? "?"
      guard
        let entry = entries.first(where: { ($0["uuid"] as? String)?.replacingOccurrences(of: "-", with: "") == uuid })
      else {
        problems.append("entry \(uuid) missing")
        continue
      }
      let label = "entry \(uuid)"
      check("\(label).groupPath", entry["groupPath"], wanted["group_path"])
      for key in ["title", "username", "password", "url"] { check("\(label).\(key)", entry[key], wanted[key]) }
      if (wanted["auto_type"] as? [Any])?.isEmpty == false {
        func dropEmptyLines(_ value: Any?) -> String {
          (value as? String ?? "").split(separator: "\n", omittingEmptySubsequences: true).joined(separator: "\n")
        }
        check("\(label).notes", dropEmptyLines(entry["notes"]), dropEmptyLines(wanted["notes"]))
      } else {
        check("\(label).notes", entry["notes"], wanted["notes"])
      }
      let icon = wanted["icon"] as? Int ?? 0
      check("\(label).icon", entry["icon"] as? Int, icon >= 69 ? 0 : icon)
      check("\(label).fields", entry["fields"] as? [String: String], [String: String]())
      check("\(label).historyCount", entry["historyCount"] as? Int, 0)
      check(
        "\(label).attachments", ExportComparison.attachments(entry["attachments"]),
        ExportComparison.attachments(wanted["attachments"]))
      if let times = wanted["times"] as? [String: Any] {
        let ourTimes = entry["times"] as? [String: Any] ?? [:]
        for key in ["created", "modified", "accessed", "expiry"] {
          check(
            "\(label).times.\(key)", ourTimes[key],
            (times[key] as? String).map { $0.replacingOccurrences(of: " ", with: "T") + "Z" })
        }
        check("\(label).expires", entry["expires"], (times["expiry"] as? String) != "2999-12-28 23:59:59")
      }
    }
    return problems
  }
}
