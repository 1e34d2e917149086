import Foundation
import KDBX
import Testing
import VectorSupport

/// KeePass 2 (KeePassLib 2.47 under mono) as the merge oracle (issue #26): each two-sided scenario is written as two
/// KDBX files, merged by KeePass 2's own synchronize (`PwDatabase.MergeIn`, `PwMergeMethod.Synchronize`, through
/// `../shared/peers/kp2merge.sh`) and by `DatabaseMerge.synchronize` on the same files, and the two results are
/// compared field by field: every entry's presence, group, fields, attachments (by content), tags, icon, times and
/// history, every group's name and parent, the tombstones and the Meta values a merge decides. Where we differ on
/// purpose, the scenario lists the difference and says why. Skipped, with a note, when mono, KeePass 2 or the
/// peers folder is missing (`.ci/install-peers.sh` installs keepass2 and mono-mcs).
enum KeePass2 {
  static let peers: String? = {
    for candidate in ["/../shared/peers", "/../../shared/peers"] {
      let path = Vectors.repositoryRoot + candidate
      if FileManager.default.fileExists(atPath: path + "/kp2merge.sh") { return path }
    }
    return nil
  }()

  static let missing: String? = {
    let mono = ["/usr/bin/mono", "/usr/local/bin/mono"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    let mcs = ["/usr/bin/mcs", "/usr/local/bin/mcs"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    if peers == nil { return "../shared/peers (kp2merge.sh) is absent" }
    if !mono || !mcs { return "mono or mono-mcs is not installed" }
    if !FileManager.default.fileExists(atPath: "/usr/lib/keepass2/KeePass.exe") { return "keepass2 is not installed" }
    return nil
  }()

  static var isAvailable: Bool {
    guard EndToEnd.isEnabled else { return false }
    if let missing { print("note: \(missing); the KeePass 2 merge oracle tests are skipped") }
    return missing == nil
  }

  /// Runs `program` with `arguments`, feeding `input`; throws with its error output on a non-zero exit.
  @discardableResult
  static func run(_ program: String, _ arguments: [String], input: String = "") throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw KeePassXCCLI.InteropFailure(
        message: "\((arguments.first ?? program)): \(String(decoding: errors + output, as: UTF8.self))")
    }
    return String(decoding: output, as: UTF8.self)
  }

  static func merge(target: String, source: String, out: String, password: String, sourcePassword: String?) throws {
    try run(
      "/bin/bash",
      [(peers ?? "") + "/kp2merge.sh", target, source, out, password] + (sourcePassword.map { [$0] } ?? []))
  }

  static func resave(_ file: String, password: String, out: String) throws {
    try run("/bin/bash", [(peers ?? "") + "/kp2dump.sh", file, "--password", password, "--resave", out])
  }
}

/// A merged database reduced to what a merge decides, for comparing two implementations' results.
struct MergeOutcome {
  var entries: [KDBXUUID: [String: String]] = [:]
  var groups: [KDBXUUID: [String: String]] = [:]
  var tombstones: Set<KDBXUUID> = []
  var meta: [String: String] = [:]

  init(_ database: Database) {
    func fields(_ entry: Entry) -> String {
      entry.fields.filter { !($0.value.reveal().isEmpty && MergeOutcome.standard.contains($0.key)) }
        .map {
          "\($0.key)=\($0.value.reveal())"
            + (MergeOutcome.standard.contains($0.key) || !$0.value.isProtected ? "" : "*")
        }
        .sorted().joined(separator: ",")
    }
    func attachments(_ entry: Entry) -> String {
      entry.attachments.map { attachment in
        let data = database.contents(of: attachment) ?? []
        return attachment.name + ":" + SHA256Helper.hash(data).prefix(4).map { String($0, radix: 16) }.joined()
      }.sorted().joined(separator: ",")
    }
    func time(_ timestamp: Timestamp?) -> String {
      timestamp.map { String($0.unixSeconds - 1_700_000_000) } ?? "-"
    }
    func visit(_ group: Group, parent: KDBXUUID?) {
      groups[group.uuid] = [
        "name": group.name, "parent": parent?.description ?? "-", "icon": String(group.iconID ?? 48),
        "notes": group.notes, "modified": time(group.times?.lastModificationTime),
      ]
      for entry in group.entries {
        let customData = (entry.customData?.items ?? []).filter { $0.key != "_LAST_MODIFIED" }
        entries[entry.uuid] = [
          "group": group.uuid.description,
          "fields": fields(entry),
          "attachments": attachments(entry),
          "tags": Set(entry.tags).sorted().joined(separator: ";"),
          "icon": String(entry.iconID ?? 0),
          "colours": (entry.foregroundColor ?? "").uppercased() + "/" + (entry.backgroundColor ?? "").uppercased(),
          "times": "created \(time(entry.times?.creationTime)) modified \(time(entry.times?.lastModificationTime))"
            + " expires \(entry.times?.expires == true ? time(entry.times?.expiryTime) : "never")",
          "customData": customData.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: ","),
          "history": (entry.history ?? []).map {
            "[\(time($0.times?.lastModificationTime)) \(fields($0)) \(attachments($0))]"
          }
          .joined(separator: " "),
        ]
      }
      for child in group.groups { visit(child, parent: group.uuid) }
    }
    if let root = database.root { visit(root, parent: nil) }
    tombstones = Set((database.deletedObjects ?? []).map(\.uuid))
    let meta = database.meta
    self.meta = [
      "name": meta.databaseName ?? "", "description": meta.databaseDescription ?? "",
      "defaultUserName": meta.defaultUserName ?? "",
      "recycleBin": (meta.recycleBinEnabled ?? true ? "on " : "off ") + (meta.recycleBinUUID ?? .zero).description,
    ]
  }

  static let standard: Set<String> = ["Title", "UserName", "Password", "URL", "Notes"]

  /// One line per difference, named by the object's title or name: "entry one: fields: ours … theirs …".
  func differences(from theirs: MergeOutcome) -> [String] {
    var lines: [String] = []
    func title(_ uuid: KDBXUUID) -> String {
      let fields = entries[uuid]?["fields"] ?? theirs.entries[uuid]?["fields"] ?? ""
      return fields.split(separator: ",").first { $0.hasPrefix("Title=") }.map { String($0.dropFirst(6)) } ?? "\(uuid)"
    }
    for uuid in Set(entries.keys).union(theirs.entries.keys).sorted(by: { title($0) < title($1) }) {
      guard let mine = entries[uuid], let other = theirs.entries[uuid] else {
        lines.append("entry \(title(uuid)): only in \(entries[uuid] == nil ? "theirs" : "ours")")
        continue
      }
      for key in mine.keys.sorted() where mine[key] != other[key] {
        lines.append("entry \(title(uuid)): \(key): ours \(mine[key] ?? "") theirs \(other[key] ?? "")")
      }
    }
    for uuid in Set(groups.keys).union(theirs.groups.keys).sorted(by: { $0.description < $1.description }) {
      let name = groups[uuid]?["name"] ?? theirs.groups[uuid]?["name"] ?? ""
      guard let mine = groups[uuid], let other = theirs.groups[uuid] else {
        lines.append("group \(name): only in \(groups[uuid] == nil ? "theirs" : "ours")")
        continue
      }
      for key in mine.keys.sorted() where mine[key] != other[key] {
        lines.append("group \(name): \(key): ours \(mine[key] ?? "") theirs \(other[key] ?? "")")
      }
    }
    for uuid in tombstones.symmetricDifference(theirs.tombstones).sorted(by: { $0.description < $1.description }) {
      lines.append("tombstone \(uuid): only in \(tombstones.contains(uuid) ? "ours" : "theirs")")
    }
    for key in meta.keys.sorted() where meta[key] != theirs.meta[key] {
      lines.append("meta \(key): ours \(meta[key] ?? "") theirs \(theirs.meta[key] ?? "")")
    }
    return lines
  }
}

/// One two-sided scenario: the target (local) and source (remote) databases, how the remote file is written, and
/// the differences from KeePass 2 that are deliberate.
struct MergeScenario: CustomTestStringConvertible, Sendable {
  enum RemoteFile: Sendable {
    case written(KDBXVersion)
    /// The local file re-saved by a peer (the `remote` database is then not used).
    case resavedByKeePass2
    case resavedByKeePassXC
    case resavedByPykeepass
  }

  var name: String
  var local: Database
  var remote: Database
  var remoteFile: RemoteFile = .written(.v4_0)
  var remotePassword: String? = nil
  /// Differences from KeePass 2's result that are intended, each with the reason in `why`.
  var deliberate: [String] = []
  var why: String = ""

  var testDescription: String { name }
}

@Suite("Merge: KeePass 2 as the oracle")
struct MergeKeePassOracleTests {
  typealias F = MergeFixture
  static let password = "oracle"
  static let otherPassword = "other password"

  static func settings(_ version: KDBXVersion) -> SaveSettings {
    SaveSettings(
      version: version, cipher: .aes256,
      kdf: .aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 7, count: 32), uuidVariant: .aesKDBX3)))
  }

  static func write(_ database: Database, version: KDBXVersion, password: String, to path: String) throws {
    var random = SplitMix64(seed: 26)
    let bytes = try KDBXFile.save(
      database, key: CompositeKey(password: password), settings: settings(version), primitives: StandardPrimitives(),
      random: &random)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
  }

  static func read(_ path: String, password: String) throws -> Database {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    return try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: password)).database
  }

  /// Both merges of `scenario`: (ours, KeePass 2's).
  static func run(_ scenario: MergeScenario) throws -> (ours: Database, theirs: Database) {
    let directory = NSTemporaryDirectory() + "kdbx-oracle-\(getpid())-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let local = directory + "/local.kdbx"
    let remote = directory + "/remote.kdbx"
    let out = directory + "/keepass2.kdbx"
    let remotePassword = scenario.remotePassword ?? password
    try write(scenario.local, version: .v4_0, password: password, to: local)
    switch scenario.remoteFile {
    case .written(let version):
      try write(scenario.remote, version: version, password: remotePassword, to: remote)
    case .resavedByKeePass2:
      try KeePass2.resave(local, password: password, out: remote)
    case .resavedByKeePassXC:
      // Setting the same password again makes keepassxc-cli rewrite the file and change no entry.
      try FileManager.default.copyItem(atPath: local, toPath: remote)
      try KeePass2.run(
        KeePassXCCLI.path ?? "/usr/bin/keepassxc-cli", ["db-edit", "-q", "-p", remote],
        input: "\(password)\n\(password)\n\(password)\n")
    case .resavedByPykeepass:
      try KeePass2.run(
        "/usr/bin/env",
        [
          "python3", "-c",
          "import sys; from pykeepass import PyKeePass; PyKeePass(sys.argv[1], password=sys.argv[2]).save(sys.argv[3])",
          local, password, remote,
        ])
    }
    try KeePass2.merge(
      target: local, source: remote, out: out, password: password,
      sourcePassword: scenario.remotePassword)
    let ours = DatabaseMerge.synchronize(
      local: try read(local, password: password), remote: try read(remote, password: remotePassword)
    ).database
    return (ours, try read(out, password: password))
  }

  @Test(.enabled(if: KeePass2.isAvailable), arguments: MergeScenarios.all)
  func synchronizeAgreesWithKeePass2(_ scenario: MergeScenario) throws {
    if case .resavedByKeePassXC = scenario.remoteFile, KeePassXCCLI.path == nil {
      print("note: keepassxc-cli is absent; scenario '\(scenario.name)' is skipped")
      return
    }
    if case .resavedByPykeepass = scenario.remoteFile, !WriteInteropTests.pykeepassAvailable { return }
    let (ours, theirs) = try Self.run(scenario)
    let differences = MergeOutcome(ours).differences(from: MergeOutcome(theirs))
    #expect(differences == scenario.deliberate, "\(scenario.name): \(scenario.why)")
  }
}
