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
  static func rows(_ text: String, source: String) throws(CLIError) -> [[String]] {
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
          throw .failure("\(source) line \(line): a quote inside an unquoted field (quote the whole field)")
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
          throw .failure("\(source) line \(line): text after a closing quote")
        }
        field.append(scalar)
      }
    }
    if quoted { throw .failure("\(source) line \(startLine): a quoted field is not closed") }
    if !field.isEmpty || !row.isEmpty || wasQuoted {
      endField()
      rows.append(row)
    }
    return rows
  }

  /// `--columns FIELD=COLUMN,...`: COLUMN is a header name or a 1-based number.
  static func mapping(_ option: String?, header: [String]) throws(CLIError) -> [String: Int] {
    var map: [String: Int] = [:]
    let lowered = header.map { $0.lowercased().trimmingSpaces() }
    for (field, names) in knownColumns {
      if let index = lowered.firstIndex(where: { names.contains($0) }) { map[field] = index }
    }
    guard let option else { return map }
    let fields = Set(knownColumns.map(\.field))
    for pair in option.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).trimmingSpaces() }
      guard parts.count == 2, fields.contains(parts[0].lowercased()) else {
        throw .usage(
          "--columns takes FIELD=COLUMN pairs, FIELD one of \(knownColumns.map(\.field).joined(separator: ", ")); "
            + "not '\(pair)'")
      }
      if let number = Int(parts[1]) {
        guard number >= 1, number <= header.count else {
          throw .usage("--columns: column \(number) does not exist (the header has \(header.count))")
        }
        map[parts[0].lowercased()] = number - 1
      } else if let index = lowered.firstIndex(of: parts[1].lowercased()) {
        map[parts[0].lowercased()] = index
      } else {
        throw .usage("--columns: the header has no column '\(parts[1])'")
      }
    }
    return map
  }

  static func read(_ text: String, source: String, columns: String?) throws(CLIError) -> ImportedVault {
    let rows = try rows(text, source: source)
    guard let header = rows.first, header.count > 1 else {
      throw .failure("\(source) is not a CSV export with a header row")
    }
    let map = try mapping(columns, header: header)
    guard map["title"] != nil || map["password"] != nil || map["username"] != nil else {
      throw .failure(
        "\(source): no title, username or password column in the header; name them with --columns "
          + "(for example --columns title=Name,password=Secret)")
    }
    let mapped = Set(map.values)
    var vault = ImportedVault()
    for (number, row) in rows.dropFirst().enumerated() {
      guard row.count == header.count else {
        throw .failure("\(source) record \(number + 1) has \(row.count) fields; the header has \(header.count)")
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
  func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    guard let start = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let end = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[start...end])
  }
}
