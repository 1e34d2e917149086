import Foundation
import KDBX
import VectorSupport

/// Compares a model with a corpus `*.expected.json` oracle (schema in ../shared/corpus/README.md) and returns a
/// list of human-readable mismatches (empty when everything matches). Reusable for the `.kdbx` corpus test once the
/// codec is wired.
enum ExpectedJSON {
  static func load(_ relativePath: String) -> [String: Any]? {
    guard let bytes = Corpus.file(relativePath) else { return nil }
    return parse(bytes)
  }

  static func parse(_ bytes: [UInt8]) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
  }

  static func isoTime(_ timestamp: Timestamp?) -> String? { timestamp.map { ISO8601.format($0) } }

  static func compare(_ database: Database, with expected: [String: Any]) -> [String] {
    var problems: [String] = []
    func check(_ what: String, _ actual: Any?, _ wanted: Any?) {
      let a = actual.map { "\($0)" } ?? "nil"
      let w = wanted.map { "\($0)" } ?? "nil"
      if a != w { problems.append("\(what): got \(a), expected \(w)") }
    }
    if let meta = expected["meta"] as? [String: Any] {
      check("meta.generator", database.meta.generator ?? "", meta["generator"] as? String ?? "")
      check("meta.database_name", database.meta.databaseName ?? "", meta["database_name"] as? String ?? "")
      check("meta.default_username", database.meta.defaultUserName ?? "", meta["default_username"] as? String ?? "")
      check("meta.custom_icon_count", database.meta.customIcons?.count ?? 0, meta["custom_icon_count"] as? Int ?? 0)
      if let uuid = meta["recycle_bin_uuid"] as? String {
        check("meta.recycle_bin_uuid", database.meta.recycleBinUUID?.description, uuid)
      }
    }
    guard let root = database.root else { return problems + ["no root group"] }
    var groups: [(path: [String], group: Group)] = []
    var entries: [(path: [String], entry: Entry)] = []
    func walk(_ group: Group, _ path: [String]) {
      let here = path + [group.name]
      groups.append((here, group))
      for entry in group.entries { entries.append((here, entry)) }
      for child in group.groups { walk(child, here) }
    }
    walk(root, [])
    if let counts = expected["counts"] as? [String: Any] {
      check("counts.groups", groups.count, counts["groups"] as? Int)
      check("counts.entries", entries.count, counts["entries"] as? Int)
      check(
        "counts.history_entries", entries.reduce(0) { $0 + ($1.entry.history?.count ?? 0) },
        counts["history_entries"] as? Int)
    }
    for case let wanted as [String: Any] in expected["groups"] as? [Any] ?? [] {
      guard let uuid = wanted["uuid"] as? String, let found = groups.first(where: { $0.group.uuid.description == uuid })
      else {
        problems.append("group \(wanted["uuid"] ?? "?") missing")
        continue
      }
      check("group \(uuid).path", found.path, wanted["path"] as? [String])
      check("group \(uuid).notes", found.group.notes, wanted["notes"] as? String ?? "")
      check("group \(uuid).icon", found.group.iconID ?? 0, (wanted["icon"] as? Int).map(Int64.init) ?? 0)
      check("group \(uuid).entries", found.group.entries.count, wanted["entries"] as? Int)
      check("group \(uuid).subgroups", found.group.groups.count, wanted["subgroups"] as? Int)
    }
    for case let wanted as [String: Any] in expected["entries"] as? [Any] ?? [] {
      guard let uuid = wanted["uuid"] as? String,
        let found = entries.first(where: { $0.entry.uuid.description == uuid })
      else {
        problems.append("entry \(wanted["uuid"] ?? "?") missing")
        continue
      }
      let entry = found.entry
      let label = "entry \(uuid)"
      check("\(label).group_path", found.path, wanted["group_path"] as? [String])
      for (key, field) in [
        ("title", "Title"), ("username", "UserName"), ("password", "Password"), ("url", "URL"), ("notes", "Notes"),
      ] {
        check("\(label).\(key)", entry[field: field]?.reveal() ?? "", wanted[key] as? String ?? "")
      }
      check("\(label).tags", entry.tags.sorted(), (wanted["tags"] as? [String])?.sorted())
      // The oracle lists the five standard fields even when the XML omits them (readers add them as empty).
      let standard = ["Title", "UserName", "Password", "URL", "Notes"]
      check(
        "\(label).string_fields", Set(entry.fields.map(\.key)).union(standard).sorted(),
        Set(wanted["string_fields"] as? [String] ?? []).union(standard).sorted())
      if let custom = wanted["custom_fields"] as? [String: String] {
        for (key, value) in custom { check("\(label).custom \(key)", entry[field: key]?.reveal(), value) }
      }
      let attachments = entry.attachments.map { attachment -> String in
        let data = database.contents(of: attachment) ?? []
        return "\(attachment.name):\(data.count)"
      }.sorted()
      let wantedAttachments = (wanted["attachments"] as? [[String: Any]] ?? []).map {
        "\($0["name"] as? String ?? ""):\($0["size"] as? Int ?? -1)"
      }.sorted()
      check("\(label).attachments", attachments, wantedAttachments)
      check("\(label).icon", entry.iconID ?? 0, (wanted["icon"] as? Int).map(Int64.init) ?? 0)
      if let times = wanted["times"] as? [String: Any] {
        check("\(label).created", isoTime(entry.times?.creationTime), times["created"] as? String)
        check("\(label).modified", isoTime(entry.times?.lastModificationTime), times["modified"] as? String)
        check("\(label).expires", entry.times?.expires ?? false, times["expires"] as? Bool ?? false)
      }
      check("\(label).history_count", entry.history?.count ?? 0, wanted["history_count"] as? Int)
      for (index, old) in (wanted["history"] as? [[String: Any]] ?? []).enumerated() {
        guard let history = entry.history, index < history.count else { break }
        check(
          "\(label).history[\(index)].password", history[index][field: "Password"]?.reveal() ?? "",
          old["password"] as? String ?? "")
        check(
          "\(label).history[\(index)].modified", isoTime(history[index].times?.lastModificationTime),
          old["modified"] as? String)
      }
    }
    return problems
  }
}
