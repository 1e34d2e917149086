import KDBX
import KDBXBase

/// `kdbx merge FILE OTHER... [--same-credentials] [--dry-run] [--keep-newer] [--json]`: merges other databases into
/// FILE and lists every change and conflict by path.
enum MergeCommand {
  static let command = Command(
    name: "merge", arguments: "FILE OTHER...",
    summary: "Merge other databases into FILE (--same-credentials, --dry-run, --keep-newer).",
    section: .whole,
    details: """
      Merges each OTHER database into FILE (KeePass/KeePassXC "Synchronize") and saves FILE. Entries and groups
      are matched by UUID and compared by content, so a copy re-saved by another app changes nothing. Of two
      different versions the newer wins and the older goes to the entry's history; with the same modification
      time it is a conflict: the local version stays and the other goes to the history (KeePass 2 would keep only
      the other). Deletions are applied unless the object changed later. Histories the merge changed are trimmed to
      the vault's HistoryMaxItems and HistoryMaxSize, oldest first, as KeePass 2 does. --keep-newer applies no
      deletions, as keepassxc-cli's default mode. Without --same-credentials the password of each OTHER is read
      next (the following stdin line when piped). Every change and conflict is listed by path (added, updated,
      kept, history, trimmed, moved, deleted); --dry-run only lists them; --json prints them as JSON.
      """,
    options: [
      OptionSpec(["-s", "--same-credentials"], "Open each OTHER with the credentials of FILE."),
      OptionSpec(["--key-file-from"], value: "PATH", path: true, "The key file of each OTHER."),
      OptionSpec(["--no-password-from"], "Each OTHER has no password."),
      OptionSpec(["-d", "--dry-run"], "Only list the changes; write nothing."),
      OptionSpec(["--keep-newer"], "Apply no deletions (keepassxc-cli's default mode)."),
      OptionSpec(["--json"], "Print the changes as JSON."),
    ] + CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let same = arguments.flag("-s", "--same-credentials")
    let otherKeyFile = arguments.value("--key-file-from")
    let otherNoPassword = arguments.flag("--no-password-from")
    let dryRun = arguments.flag("-d", "--dry-run")
    let json = arguments.flag("--json")
    let mode: DatabaseMerge.Mode = arguments.flag("--keep-newer") ? .keepNewer : .synchronize
    var vault = try VaultAccess.open(&arguments, forChange: !dryRun, maxPositionals: .max)
    let others = Array(arguments.positionals.dropFirst())
    guard !others.isEmpty else { throw .usage("missing OTHER database") }
    var total = 0
    var reports: [(String, MergeReport)] = []
    for other in others {
      let remote: Database
      if same {
        remote = try VaultAccess.openBytes(try VaultAccess.readFile(other), key: vault.key).database
      } else {
        remote = try VaultAccess.open(path: other, keyFilePath: otherKeyFile, noPassword: otherNoPassword).database
      }
      let result = DatabaseMerge.synchronize(local: vault.database, remote: remote, mode: mode)
      total += result.report.changes.count
      reports.append((other, result.report))
      if !json {
        let report = result.report
        Terminal.out(
          "\(printable(other)): \(report.changes.count) change(s), \(report.conflicts.count) conflict(s)\n")
        for line in lines(report, other: other, meta: result.database.meta) { Terminal.out("  " + line + "\n") }
      }
      vault.database = result.database
    }
    let saved = !dryRun && total > 0
    if saved { try vault.save() }
    if json {
      Terminal.out(document(reports, file: vault.path, dryRun: dryRun, saved: saved).rendered() + "\n")
    } else if dryRun {
      Terminal.out("Dry run: \(printable(vault.path)) not changed.\n")
    } else if saved {
      Terminal.out("Saved \(printable(vault.path)).\n")
    } else {
      Terminal.out("Nothing to merge.\n")
    }
  }

  // MARK: text

  /// One line per change and conflict, in words.
  static func lines(_ report: MergeReport, other: String, meta: Meta) -> [String] {
    let name = printable(other)
    var out: [String] = []
    for change in report.changes {
      let what = objectName(change.object)
      let path = display(change.path)
      switch change.action {
      case .added:
        out.append("added     \(what) \(path)")
      case .updated:
        out.append(
          "updated   \(what) \(path)\(renamed(change)): \(name)'s version is newer and wins"
            + (change.object == .entry ? "; the local one goes to the history" : ""))
      case .keptLocal:
        out.append("kept      \(what) \(path): the local version is newer and stays; \(name)'s goes to the history")
      case .historyMerged(let count):
        out.append("history   \(what) \(path): \(count) version(s) added to the history")
      case .historyTrimmed(let count):
        out.append(
          "trimmed   \(what) \(path): \(count) oldest history version(s) removed (HistoryMaxItems "
            + "\(limit(meta.effectiveHistoryMaxItems)), HistoryMaxSize \(limit(meta.effectiveHistoryMaxSize)) bytes)")
      case .moved:
        out.append("moved     \(what) \(display(change.oldPath ?? [])) -> \(path): \(name) moved it later")
      case .deleted:
        out.append("deleted   \(what) \(path): \(name) deleted it after its last change")
      case .deletionOverridden:
        out.append("kept      \(what) \(path): deleted in one copy, but changed after that (or still holds objects)")
      case .metaField(let field):
        out.append("meta      \(field): \(name)'s value is newer")
      case .recorded:
        out.append("tombstone \(change.uuid?.description ?? ""): deletion recorded")
      }
    }
    for conflict in report.conflicts {
      let what = objectName(conflict.object)
      let path = display(conflict.path)
      switch conflict.kind {
      case .sameModificationTime:
        out.append(
          "conflict  \(what) \(path): same modification time, different content; the local version stays"
            + (conflict.object == .entry ? ", \(name)'s goes to the history" : ", \(name)'s is not applied"))
      case .editedOnBothSides, .addedOnBothSides:
        out.append("conflict  \(what) \(path): changed on both sides; the local version stays")
      case .deletedLocallyEditedRemotely:
        out.append("conflict  \(what) \(path): deleted here, changed in \(name); kept")
      case .editedLocallyDeletedRemotely:
        out.append("conflict  \(what) \(path): changed here, deleted in \(name); kept")
      case .movedToDifferentGroups:
        out.append("conflict  \(what) \(path): moved to different groups; stays where it is here")
      case .metaField(let field):
        out.append("conflict  meta \(field): changed on both sides; the local value stays")
      }
    }
    return out
  }

  static func objectName(_ object: MergeChange.Object) -> String {
    switch object {
    case .entry: return "entry"
    case .group: return "group"
    case .meta: return "meta"
    case .customIcon: return "icon"
    case .deletedObject: return "tombstone"
    }
  }

  static func renamed(_ change: MergeChange) -> String {
    guard let old = change.oldPath, change.action == .updated else { return "" }
    return " (was \(display(old)))"
  }

  static func limit(_ value: Int64) -> String { value < 0 ? "unlimited" : String(value) }

  /// A path as `Group/Sub/Title` (the root group for an empty path), escaped for the terminal.
  static func display(_ path: [String]) -> String { path.isEmpty ? "/" : printable(path.joined(separator: "/")) }

  /// `text` as one line of terminal output (``TerminalText/line(_:)``): vault text cannot drive the terminal.
  static func printable(_ text: String) -> String { TerminalText.line(text) }

  // MARK: JSON

  static func document(_ reports: [(String, MergeReport)], file: String, dryRun: Bool, saved: Bool) -> JSONValue {
    .object([
      ("file", .string(file)),
      ("dryRun", .bool(dryRun)),
      ("saved", .bool(saved)),
      (
        "merges",
        .array(
          reports.map { other, report in
            .object([
              ("other", .string(other)),
              ("changeCount", .number(report.changes.count)),
              ("conflictCount", .number(report.conflicts.count)),
              ("changes", .array(report.changes.map(json))),
              ("conflicts", .array(report.conflicts.map(json))),
            ])
          })
      ),
    ])
  }

  static func json(_ change: MergeChange) -> JSONValue {
    var members: [(String, JSONValue)] = []
    func add(_ action: String) { members.append(("action", .string(action))) }
    switch change.action {
    case .added: add("added")
    case .updated:
      add("updated")
      members.append(("winner", .string("other")))
    case .keptLocal:
      add("keptLocal")
      members.append(("winner", .string("local")))
    case .historyMerged(let count):
      add("historyMerged")
      members.append(("count", .number(count)))
    case .historyTrimmed(let count):
      add("historyTrimmed")
      members.append(("count", .number(count)))
    case .moved: add("moved")
    case .deleted: add("deleted")
    case .deletionOverridden: add("deletionOverridden")
    case .metaField(let field):
      add("metaField")
      members.append(("field", .string(field)))
    case .recorded: add("recorded")
    }
    members.append(("object", .string(objectName(change.object))))
    members.append(("uuid", change.uuid.map { .string($0.description) } ?? .null))
    members.append(("path", .array(change.path.map { .string($0) })))
    if let old = change.oldPath { members.append(("oldPath", .array(old.map { .string($0) }))) }
    return .object(members)
  }

  static func json(_ conflict: MergeConflict) -> JSONValue {
    var members: [(String, JSONValue)] = []
    switch conflict.kind {
    case .sameModificationTime: members.append(("kind", .string("sameModificationTime")))
    case .editedOnBothSides: members.append(("kind", .string("editedOnBothSides")))
    case .addedOnBothSides: members.append(("kind", .string("addedOnBothSides")))
    case .deletedLocallyEditedRemotely: members.append(("kind", .string("deletedLocallyEditedRemotely")))
    case .editedLocallyDeletedRemotely: members.append(("kind", .string("editedLocallyDeletedRemotely")))
    case .movedToDifferentGroups: members.append(("kind", .string("movedToDifferentGroups")))
    case .metaField(let field):
      members.append(("kind", .string("metaField")))
      members.append(("field", .string(field)))
    }
    members.append(("winner", .string("local")))
    members.append(("object", .string(objectName(conflict.object))))
    members.append(("uuid", conflict.uuid.map { .string($0.description) } ?? .null))
    members.append(("path", .array(conflict.path.map { .string($0) })))
    return .object(members)
  }
}
