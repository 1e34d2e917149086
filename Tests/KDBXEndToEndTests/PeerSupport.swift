import Foundation
import KDBX
import KDBXCrypto
import KDBXXML
import VectorSupport

/// The other KeePass implementations the interop matrix runs: keepassxc-cli (XML export), pykeepass (one Python
/// process for many files) and KeePass 2's own KeePassLib (`../shared/peers/kp2dump.sh`, one mono process per
/// file). `.ci/install-peers.sh` installs them; a missing one is reported as skipped, never as passed.
enum Peer: String, CaseIterable, Sendable, CustomStringConvertible {
  case keepassxc = "keepassxc-cli"
  case pykeepass
  case keePass2 = "KeePass 2"

  var description: String { rawValue }

  static let keepassxcPath: String? = ["/usr/bin/keepassxc-cli", "/usr/local/bin/keepassxc-cli"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }

  /// `../shared/peers/kp2dump.sh` beside the clone or the worktree folder.
  static let kp2dumpPath: String? = {
    for candidate in [CLI.root.path + "/../shared/peers", CLI.root.path + "/../../shared/peers"]
    where FileManager.default.fileExists(atPath: candidate + "/kp2dump.sh") {
      return URL(fileURLWithPath: candidate + "/kp2dump.sh").standardizedFileURL.path
    }
    return nil
  }()

  /// Why the peer cannot run here, or `nil` when it can.
  var missing: String? {
    switch self {
    case .keepassxc:
      return Peer.keepassxcPath == nil ? "keepassxc-cli is not installed" : nil
    case .pykeepass:
      let result = try? PeerProcess.run("/usr/bin/env", ["python3", "-c", "import pykeepass"])
      return result?.status == 0 ? nil : "python3 with pykeepass is not installed"
    case .keePass2:
      guard Peer.kp2dumpPath != nil else { return "../shared/peers/kp2dump.sh is absent" }
      let needed = ["/usr/lib/keepass2/KeePass.exe", "/usr/bin/mono", "/usr/bin/mcs"]
      let absent = needed.filter { !FileManager.default.fileExists(atPath: $0) }
      return absent.isEmpty ? nil : "KeePass 2 is not installed (\(absent.joined(separator: ", ")) missing)"
    }
  }

  static let availability: [Peer: String] = {
    var missing: [Peer: String] = [:]
    for peer in Peer.allCases {
      if let reason = peer.missing {
        missing[peer] = reason
        print("note: SKIP: interop with \(peer) is skipped: \(reason) (.ci/install-peers.sh installs it)")
      }
    }
    return missing
  }()

  var isAvailable: Bool { Peer.availability[self] == nil }

  /// KeePass 2.47 has no Twofish.
  func reads(_ cipher: CipherAlgorithm) -> Bool { self != .keePass2 || cipher != .twofish }
}

/// Runs a process with UTF-8 locale settings (mono and Python print non-ASCII text in the locale's encoding).
enum PeerProcess {
  static let environment = ["LANG=C.UTF-8", "LC_ALL=C.UTF-8", "PYTHONIOENCODING=utf-8"]

  static func run(_ executable: String, _ arguments: [String], input: String? = nil) throws -> CLI.Result {
    if executable == "/usr/bin/env" {
      return try CLI.run(environment + arguments, input: input, binary: executable)
    }
    return try CLI.run(environment + [executable] + arguments, input: input, binary: "/usr/bin/env")
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs and requires exit status 0.
  @discardableResult
  static func check(_ executable: String, _ arguments: [String], input: String? = nil) throws -> String {
    let result = try run(executable, arguments, input: input)
    guard result.status == 0 else {
      throw Failure(
        description: "\((executable as NSString).lastPathComponent) \(arguments.prefix(2).joined(separator: " ")) "
          + "exited \(result.status): \(result.err.prefix(400))")
    }
    return result.out
  }
}

/// What a reader shows of one entry. `nil` properties are the ones a reader does not show (kp2dump prints fields
/// and counts only).
struct EntryView: Equatable, Sendable {
  var uuid: String
  var path: String?
  /// Every non-empty string field, standard and custom.
  var fields: [String: String]
  var tags: [String]?
  /// Attachment name -> SHA-256 of its content.
  var attachments: [String: String]?
  var attachmentCount: Int
  /// Each history item's fields, oldest first.
  var history: [[String: String]]?
  var historyCount: Int
  var times: [String: String]?
  var icon: Int?
}

/// What a reader shows of a database.
struct DatabaseView: Equatable, Sendable {
  var name: String
  /// Group paths below the root, sorted.
  var groups: [String]?
  var entries: [String: EntryView]

  /// The entry titled `title`.
  func entry(titled title: String) -> EntryView? { entries.values.first { $0.fields["Title"] == title } }
}

enum PeerViews {
  static func fields(_ entry: Entry) -> [String: String] {
    var fields: [String: String] = [:]
    for field in entry.fields where !field.value.reveal().isEmpty { fields[field.key] = field.value.reveal() }
    return fields
  }

  /// Year-1 times print as `1-01-01` from pykeepass (strftime on glibc); four digits everywhere here.
  static func paddedYear(_ time: String) -> String { ExportComparison.paddingYear(time) }

  /// Our model, as every reader should show it.
  static func view(of database: Database) -> DatabaseView {
    var entries: [String: EntryView] = [:]
    for item in database.flatEntries {
      let entry = item.entry
      let uuid = entry.uuid.description.replacingOccurrences(of: "-", with: "")
      var attachments: [String: String] = [:]
      for attachment in entry.attachments {
        attachments[attachment.name] = TestHex.string(SHA256.hash(database.contents(of: attachment) ?? []).bytes)
      }
      var times: [String: String] = [:]
      if let value = entry.times?.creationTime { times["created"] = ISO8601.format(value) }
      if let value = entry.times?.lastModificationTime { times["modified"] = ISO8601.format(value) }
      if let value = entry.times?.expiryTime { times["expiry"] = ISO8601.format(value) }
      times["expires"] = (entry.times?.expires ?? false) ? "true" : "false"
      let history = (entry.history ?? []).map(fields)
      entries[uuid] = EntryView(
        uuid: uuid, path: item.groupPath.joined(separator: "/"), fields: fields(entry),
        tags: entry.tags.sorted(), attachments: attachments, attachmentCount: entry.attachments.count,
        history: history, historyCount: history.count, times: times, icon: entry.iconID.map { Int($0) } ?? 0)
    }
    var groups: [String] = []
    func walk(_ group: Group, _ path: [String]) {
      for child in group.groups {
        let childPath = path + [child.name]
        groups.append(childPath.joined(separator: "/"))
        walk(child, childPath)
      }
    }
    if let root = database.root { walk(root, []) }
    return DatabaseView(name: database.meta.databaseName ?? "", groups: groups.sorted(), entries: entries)
  }

  /// keepassxc-cli's `export -f xml` (values in plain text), read with our XML reader into the model. For a
  /// KDBX 4 file the export has no `Meta/Binaries` (KDBX 4 keeps attachments in the inner header): its attachment
  /// references then point at empty placeholders, and `hasBinariesElement` is false.
  static func database(ofExportedXML xml: String) throws -> Database {
    let primitives = StandardPrimitives()
    var options = XMLReader.Options()
    options.limits.maximumDepth = 64
    let document = try XMLElement.parse(Array(xml.utf8), options: options)
    var stream = PlaintextInnerStream()
    var random = SystemRandomNumberGenerator()
    let hasPool = xml.contains("<Binaries>")
    let placeholders = hasPool ? [] : [InnerHeader.Binary](repeating: .init(isProtected: false, data: []), count: 256)
    return try DatabaseXMLReader.read(
      document: document, binaries: placeholders, stream: &stream, random: &random, gzip: primitives)
  }

  /// One database of the pykeepass batch script's output.
  static func view(ofPykeepass object: [String: Any]) -> DatabaseView {
    var entries: [String: EntryView] = [:]
    for item in object["entries"] as? [[String: Any]] ?? [] {
      let uuid = item["uuid"] as? String ?? "?"
      let history = (item["history"] as? [[String: String]]) ?? []
      let attachments = item["attachments"] as? [String: String] ?? [:]
      var times = item["times"] as? [String: String] ?? [:]
      for (key, value) in times where key != "expires" { times[key] = paddedYear(value) }
      entries[uuid] = EntryView(
        uuid: uuid, path: item["path"] as? String, fields: item["fields"] as? [String: String] ?? [:],
        tags: (item["tags"] as? [String])?.sorted(), attachments: attachments,
        attachmentCount: item["attachmentCount"] as? Int ?? attachments.count, history: history,
        historyCount: history.count, times: times, icon: item["icon"] as? Int)
    }
    return DatabaseView(
      name: object["name"] as? String ?? "", groups: (object["groups"] as? [String])?.sorted(), entries: entries)
  }

  /// kp2dump.sh's JSON: name, and per entry the standard fields, custom fields and the history and attachment
  /// counts.
  static func view(ofKeePass2 object: [String: Any]) -> DatabaseView {
    var entries: [String: EntryView] = [:]
    for item in object["entries"] as? [[String: Any]] ?? [] {
      let uuid = item["uuid"] as? String ?? "?"
      var fields = item["fields"] as? [String: String] ?? [:]
      let standard = [
        ("Title", "title"), ("UserName", "username"), ("Password", "password"), ("URL", "url"), ("Notes", "notes"),
      ]
      for (key, name) in standard { fields[key] = item[name] as? String ?? "" }
      fields = fields.filter { !$0.value.isEmpty }
      entries[uuid] = EntryView(
        uuid: uuid, fields: fields, attachmentCount: item["attachments"] as? Int ?? -1,
        historyCount: item["history"] as? Int ?? -1)
    }
    return DatabaseView(name: object["name"] as? String ?? "", groups: nil, entries: entries)
  }

  /// The differences between what `actual` shows and `expected`, on every property `actual` shows.
  static func differences(_ expected: DatabaseView, _ actual: DatabaseView, except skipped: Set<String> = [])
    -> [String]
  {
    var problems: [String] = []
    if expected.name != actual.name { problems.append("name: \(actual.name) != \(expected.name)") }
    if let groups = actual.groups, groups != expected.groups {
      problems.append("groups: \(groups) != \(expected.groups ?? [])")
    }
    if Set(expected.entries.keys) != Set(actual.entries.keys) {
      problems.append(
        "entries: \(actual.entries.values.map { $0.fields["Title"] ?? "" }.sorted()) != "
          + "\(expected.entries.values.map { $0.fields["Title"] ?? "" }.sorted())")
    }
    for (uuid, wanted) in expected.entries where !skipped.contains(uuid) {
      guard let got = actual.entries[uuid] else { continue }
      problems += entryDifferences(wanted, got)
    }
    return problems
  }

  static func entryDifferences(_ wanted: EntryView, _ got: EntryView) -> [String] {
    var problems: [String] = []
    let label = wanted.fields["Title"] ?? wanted.uuid
    func check<T: Equatable>(_ what: String, _ actual: T?, _ expected: T?) {
      guard let actual else { return }
      if actual != expected { problems.append("\(label).\(what): \(actual) != \(expected.map { "\($0)" } ?? "nil")") }
    }
    check("fields", got.fields, wanted.fields)
    check("path", got.path, wanted.path)
    check("tags", got.tags, wanted.tags)
    check("attachments", got.attachments, wanted.attachments)
    check("attachmentCount", got.attachmentCount, wanted.attachmentCount)
    check("history", got.history, wanted.history)
    check("historyCount", got.historyCount, wanted.historyCount)
    check("times", got.times, wanted.times)
    check("icon", got.icon, wanted.icon)
    return problems
  }
}

/// Reads files with each peer into ``DatabaseView``s.
enum PeerReaders {
  /// keepassxc-cli `export -f xml`; for a KDBX 4 file, whose export carries no attachment content, each
  /// attachment of each entry through `attachment-export`.
  static func keepassxc(_ path: String, password: String) throws -> DatabaseView {
    let cli = Peer.keepassxcPath ?? "keepassxc-cli"
    let xml = try PeerProcess.check(cli, ["export", "-q", "-f", "xml", path], input: password + "\n")
    let database = try PeerViews.database(ofExportedXML: xml)
    var view = PeerViews.view(of: database)
    guard !xml.contains("<Binaries>") else { return view }
    let exported = path + ".attachment"
    defer { try? FileManager.default.removeItem(atPath: exported) }
    for item in database.flatEntries where !item.entry.attachments.isEmpty {
      let uuid = item.entry.uuid.description.replacingOccurrences(of: "-", with: "")
      let entryPath = (item.groupPath + [item.entry[field: Entry.titleField]?.reveal() ?? ""]).joined(separator: "/")
      var attachments: [String: String] = [:]
      for attachment in item.entry.attachments {
        try? FileManager.default.removeItem(atPath: exported)
        try PeerProcess.check(
          cli, ["attachment-export", "-q", path, entryPath, attachment.name, exported], input: password + "\n")
        let data = try Data(contentsOf: URL(fileURLWithPath: exported))
        attachments[attachment.name] = TestHex.string(SHA256.hash(Array(data)).bytes)
      }
      view.entries[uuid]?.attachments = attachments
    }
    return view
  }

  /// The pykeepass batch: one Python process opens every file. A file pykeepass refuses gives its message.
  static let pykeepassScript = """
    import datetime, hashlib, json, sys
    from pykeepass import PyKeePass
    STANDARD = (('Title', 'title'), ('UserName', 'username'), ('Password', 'password'), ('URL', 'url'),
                ('Notes', 'notes'))
    def iso(t):
        if t is None: return None
        t = t.astimezone(datetime.timezone.utc)
        return '%04d-%02d-%02dT%02d:%02d:%02dZ' % (t.year, t.month, t.day, t.hour, t.minute, t.second)
    def fields(e):
        out = {key: getattr(e, name) for key, name in STANDARD}
        out.update(e.custom_properties)
        return {k: v for k, v in out.items() if v}
    def entry(e):
        times = {'created': iso(e.ctime), 'modified': iso(e.mtime), 'expiry': iso(e.expiry_time),
                 'expires': 'true' if e.expires else 'false'}
        return {'uuid': e.uuid.hex, 'path': '/'.join(e.group.path), 'fields': fields(e),
                'tags': e.tags or [], 'icon': int(e.icon) if e.icon is not None else None,
                'attachments': {a.filename: hashlib.sha256(a.data).hexdigest() for a in e.attachments},
                'attachmentCount': len(e.attachments),
                'history': [fields(h) for h in e.history],
                'times': {k: v for k, v in times.items() if v is not None}}
    results = []
    for job in json.load(sys.stdin):
        try:
            kp = PyKeePass(job['path'], password=job['password'])
            results.append({'ok': True, 'name': kp.database_name or '',
                            'groups': ['/'.join(g.path) for g in kp.groups if g.path],
                            'entries': [entry(e) for e in kp.entries]})
        except Exception as error:
            results.append({'ok': False, 'error': type(error).__name__ + ': ' + str(error)})
    json.dump(results, sys.stdout)
    """

  /// Opens each file with pykeepass; a refused file gives the error text.
  static func pykeepass(_ files: [(path: String, password: String)]) throws -> [Result<
    DatabaseView, PeerProcess.Failure
  >] {
    let jobs = files.map { ["path": $0.path, "password": $0.password] }
    let input = String(decoding: try JSONSerialization.data(withJSONObject: jobs), as: UTF8.self)
    let out = try PeerProcess.check("/usr/bin/env", ["python3", "-c", pykeepassScript], input: input)
    guard let results = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [[String: Any]],
      results.count == files.count
    else { throw PeerProcess.Failure(description: "pykeepass batch: unexpected output \(out.prefix(200))") }
    return results.map { result in
      if result["ok"] as? Bool == true { return .success(PeerViews.view(ofPykeepass: result)) }
      return .failure(PeerProcess.Failure(description: "pykeepass refused: \(result["error"] as? String ?? "?")"))
    }
  }

  /// KeePass 2 (KeePassLib) through kp2dump.sh.
  static func keePass2(_ path: String, password: String) throws -> DatabaseView {
    let out = try PeerProcess.check("/bin/bash", [Peer.kp2dumpPath ?? "kp2dump.sh", path, "--password", password])
    guard let object = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any] else {
      throw PeerProcess.Failure(description: "kp2dump: not JSON: \(out.prefix(200))")
    }
    return PeerViews.view(ofKeePass2: object)
  }

  /// One file with one peer.
  static func read(_ path: String, password: String, with peer: Peer) throws -> DatabaseView {
    switch peer {
    case .keepassxc: return try keepassxc(path, password: password)
    case .keePass2: return try keePass2(path, password: password)
    case .pykeepass: return try pykeepass([(path, password)])[0].get()
    }
  }
}
