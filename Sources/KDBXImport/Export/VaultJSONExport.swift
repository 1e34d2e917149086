import KDBX
import KDBXBase
import KDBXCrypto

/// The whole database as one JSON document, the schema `kdbx export --format json` writes (README, "JSON export"):
/// `{"version", "meta", "groups", "entries", "deletedObjects"}`. The CLI and the WebAssembly module both write it
/// through this one function, so that a vault opened in a browser shows what the CLI exports.
package enum VaultJSONExport {
  /// The document for `opened`. With `revealingProtectedValues` (the CLI's export), protected values (passwords,
  /// and any field marked protected) are written in clear; without it they are written as `null`, so that a page
  /// can list a vault without holding its passwords as text until one is asked for.
  package static func document(_ opened: OpenedDatabase, revealingProtectedValues: Bool = true) -> JSONValue {
    let database = opened.database
    let meta = database.meta
    var groups: [JSONValue] = []
    if let root = database.root {
      var path: [String] = []
      var walk = GroupWalk(below: root)
      while let step = walk.next() {
        switch step {
        case .enter(let child, _):
          path.append(child.name)
          groups.append(
            .object([
              ("uuid", .string(child.uuid.description)), ("path", strings(path)),
              ("name", .string(child.name)), ("notes", .string(child.notes)),
              ("icon", .number(Int(clamping: child.iconID ?? 0))),
            ]))
        case .leave: path.removeLast()
        }
      }
    }
    let standard = Set(Entry.standardFieldNames)
    func value(_ field: FieldValue?) -> JSONValue {
      guard let field else { return .string("") }
      if field.isProtected && !revealingProtectedValues { return .null }
      return .string(field.reveal())
    }
    let entries = database.flatEntries.map { item -> JSONValue in
      let entry = item.entry
      func field(_ name: String) -> JSONValue { value(entry[field: name]) }
      let custom = entry.fields.filter { !standard.contains($0.key) }.map { ($0.key, value($0.value)) }
      let attachments = entry.attachments.map { attachment -> JSONValue in
        let data = database.contents(of: attachment) ?? []
        return .object([
          ("name", .string(attachment.name)), ("size", .number(data.count)),
          ("sha256", .string(Hex.encode(SHA256.hash(data).bytes))),
        ])
      }
      let times = entry.times
      return .object([
        ("uuid", .string(entry.uuid.description)), ("groupPath", strings(item.groupPath)),
        ("title", field("Title")), ("username", field("UserName")), ("password", field("Password")),
        ("url", field("URL")), ("notes", field("Notes")), ("tags", strings(entry.tags)),
        ("fields", .object(custom)), ("attachments", .array(attachments)),
        ("historyCount", .number(entry.history?.count ?? 0)),
        (
          "times",
          .object([
            ("created", time(times?.creationTime)), ("modified", time(times?.lastModificationTime)),
            ("accessed", time(times?.lastAccessTime)), ("expiry", time(times?.expiryTime)),
            ("locationChanged", time(times?.locationChanged)),
            ("usageCount", .number(Int(clamping: times?.usageCount ?? 0))),
          ])
        ),
        ("icon", .number(Int(clamping: entry.iconID ?? 0))), ("expires", .bool(times?.expires ?? false)),
      ])
    }
    let deleted = (database.deletedObjects ?? []).map { object -> JSONValue in
      .object([("uuid", .string(object.uuid.description)), ("deletionTime", time(object.deletionTime))])
    }
    return .object([
      ("version", .string(version(of: opened))),
      (
        "meta",
        .object([
          ("name", .string(meta.databaseName ?? "")), ("description", .string(meta.databaseDescription ?? "")),
          ("generator", .string(meta.generator ?? "")),
          ("recycleBin", database.recycleBinGroupUUID.map { .string($0.description) } ?? .null),
        ])
      ),
      ("groups", .array(groups)), ("entries", .array(entries)), ("deletedObjects", .array(deleted)),
    ])
  }

  /// The version as the file states it, `major.minor`, or `1.x` for a KeePass 1.x file.
  package static func version(of opened: OpenedDatabase) -> String {
    opened.isKeePass1 ? "1.x" : "\(opened.header.version.major).\(opened.header.minorVersion)"
  }

  static func time(_ timestamp: Timestamp?) -> JSONValue {
    timestamp.map { .string(ISO8601.format($0)) } ?? .null
  }

  static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
}
