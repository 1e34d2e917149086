import KDBX

/// CSV exports (RFC 4180: quoted fields, `""` for a quote, line breaks inside quotes) with a header row, as
/// KeePassXC and `kdbx export --format csv` write them; other managers' columns are mapped with `--columns`.
enum CSVImport {
  /// Our fields and the header names they are recognised by (case-insensitive).
  static let knownColumns: [(field: String, names: [String])] = [
    ("group", ["group", "folder", "path"]), ("title", ["title", "name", "account"]),
    ("username", ["username", "user name", "login", "login_username", "user", "email"]),
    ("password", ["password", "login_password", "pass"]), ("url", ["url", "website", "login_uri", "web site", "uri"]),
    ("notes", ["notes", "note", "comments", "extra"]), ("totp", ["totp", "otp", "login_totp", "one-time password"]),
    ("tags", ["tags"]), ("icon", ["icon"]), ("modified", ["last modified", "modified"]), ("created", ["created"]),
  ]

  /// The rows of `text`: fields unquoted. Throws on a quote left open or a stray quote.
  static func rows(_ text: String) throws(ImportError) -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field: [Unicode.Scalar] = []
    var quoted = false
    var wasQuoted = false
    var line = 1
    var startLine = 1
    var scalars = Array(text.unicodeScalars)
    if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
    var index = 0
    func endField() {
      var value = ""
      value.unicodeScalars.append(contentsOf: field)
      row.append(value)
      field.removeAll()
      wasQuoted = false
    }
    while index < scalars.count {
      let scalar = scalars[index]
      index += 1
      if quoted {
        if scalar == "\"" {
          if index < scalars.count && scalars[index] == "\"" {
            field.append("\"")
            index += 1
          } else {
            quoted = false
          }
        } else {
          if scalar == "\n" { line += 1 }
          field.append(scalar)
        }
        continue
      }
      switch scalar {
      case "\"":
        guard field.isEmpty && !wasQuoted else {
          throw .malformed("line \(line): a quote inside an unquoted field (quote the whole field)")
        }
        quoted = true
        wasQuoted = true
        startLine = line
      case ",":
        endField()
      case "\r" where index < scalars.count && scalars[index] == "\n":
        break
      case "\n", "\r":
        endField()
        if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
        row = []
        line += 1
      default:
        guard !wasQuoted else {
          throw .malformed("line \(line): text after a closing quote")
        }
        field.append(scalar)
      }
    }
    if quoted { throw .malformed("line \(startLine): a quoted field is not closed") }
    if !field.isEmpty || !row.isEmpty || wasQuoted {
      endField()
      rows.append(row)
    }
    return rows
  }

  /// The column of each field: the header names recognised, then `columns` over them.
  static func mapping(_ columns: [CSVField: CSVColumn], header: [String]) throws(ImportError) -> [String: Int] {
    var map: [String: Int] = [:]
    let lowered = header.map { $0.lowercased().trimmingSpaces() }
    for (field, names) in knownColumns {
      if let index = lowered.firstIndex(where: { names.contains($0) }) { map[field] = index }
    }
    for (field, column) in columns {
      switch column {
      case .number(let number):
        guard number >= 1, number <= header.count else {
          throw .invalidOptions("column \(number) does not exist (the header has \(header.count))")
        }
        map[field.rawValue] = number - 1
      case .named(let name):
        guard let index = lowered.firstIndex(of: name.lowercased().trimmingSpaces()) else {
          throw .invalidOptions("the header has no column '\(name)'")
        }
        map[field.rawValue] = index
      }
    }
    return map
  }

  static func read(_ text: String, columns: [CSVField: CSVColumn]) throws(ImportError) -> ImportedVault {
    let rows = try rows(text)
    guard let header = rows.first, header.count > 1 else {
      throw .unrecognised("not a CSV export with a header row")
    }
    let map = try mapping(columns, header: header)
    guard map["title"] != nil || map["password"] != nil || map["username"] != nil else {
      throw .invalidOptions(
        "no title, username or password column in the header; map the columns (for example title=Name, "
          + "password=Secret)")
    }
    let mapped = Set(map.values)
    var vault = ImportedVault()
    for (number, row) in rows.dropFirst().enumerated() {
      guard row.count == header.count else {
        throw .malformed("record \(number + 1) has \(row.count) fields; the header has \(header.count)")
      }
      func value(_ field: String) -> String { map[field].map { row[$0] } ?? "" }
      var record = ImportedVault.Record()
      record.groupPath = value("group").split(separator: "/").map(String.init)
      record.title = value("title")
      record.username = value("username")
      record.password = value("password")
      record.url = value("url")
      record.notes = value("notes")
      record.otp = value("totp")
      record.tags = value("tags").split(whereSeparator: { $0 == ";" || $0 == "," }).map {
        String($0).trimmingSpaces()
      }
      record.iconID = Int(value("icon"))
      record.modified = ISO8601.parse(value("modified"))
      record.created = ISO8601.parse(value("created"))
      for (index, name) in header.enumerated() where !mapped.contains(index) && !row[index].isEmpty {
        record.fields.append((name, row[index], false))
      }
      vault.records.append(record)
    }
    // KeePassXC writes the root group's name first in every path: it becomes the root.
    if let first = vault.records.first?.groupPath.first,
      vault.records.allSatisfy({ $0.groupPath.first == first })
    {
      vault.rootName = first
      for index in vault.records.indices { vault.records[index].groupPath.removeFirst() }
    }
    return vault
  }
}

extension String {
  /// Without leading and trailing spaces and tabs.
  package func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[start...end])
  }
}
