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

  /// Reads the rows of a CSV file one at a time from its UTF-8 bytes, fields unquoted, without holding the rows
  /// or a decoded copy of the text: the structural characters (quote, comma, CR, LF) are ASCII, which never occurs
  /// inside a multi-byte UTF-8 sequence, so a field of valid UTF-8 input is valid UTF-8 and becomes a `String`
  /// directly from its bytes. Blank lines are skipped. Throws on a quote left open or a stray quote.
  struct Rows {
    let bytes: [UInt8]
    var index: Int
    /// The line of the next byte (1-based; a line break inside a quoted field counts).
    var line = 1

    init(_ bytes: [UInt8]) {
      self.bytes = bytes
      index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    }

    static let quote: UInt8 = 0x22
    static let comma: UInt8 = 0x2C
    static let carriageReturn: UInt8 = 0x0D
    static let lineFeed: UInt8 = 0x0A

    /// The next row that is not blank, or `nil` at the end of the input.
    mutating func next() throws(ImportError) -> [String]? {
      while index < bytes.count {
        if let row = try row() { return row }
      }
      return nil
    }

    /// The row starting at `index`, up to and including its line break (CR LF, LF or CR); `nil` for a blank line
    /// (one empty field, quoted or not; at the end of the input only an unquoted one).
    private mutating func row() throws(ImportError) -> [String]? {
      var row: [String] = []
      while true {
        var wasQuoted = false
        if index < bytes.count && bytes[index] == Rows.quote {
          row.append(try quotedField())
          wasQuoted = true
        } else {
          let start = index
          while index < bytes.count {
            let byte = bytes[index]
            if byte == Rows.comma || byte == Rows.lineFeed || byte == Rows.carriageReturn { break }
            guard byte != Rows.quote else {
              throw .malformed("line \(line): a quote inside an unquoted field (quote the whole field)")
            }
            index += 1
          }
          row.append(String(decoding: bytes[start..<index], as: UTF8.self))
        }
        guard index < bytes.count else {
          return row.count == 1 && row[0].isEmpty && !wasQuoted ? nil : row
        }
        let delimiter = bytes[index]
        index += 1
        if delimiter == Rows.comma { continue }
        if delimiter == Rows.carriageReturn && index < bytes.count && bytes[index] == Rows.lineFeed { index += 1 }
        line += 1
        return row.count == 1 && row[0].isEmpty ? nil : row
      }
    }

    /// The quoted field at `index` (which holds its opening quote), with `""` read as one quote; `index` ends past
    /// the closing quote, which must end the field.
    private mutating func quotedField() throws(ImportError) -> String {
      let startLine = line
      index += 1
      var segmentStart = index
      // Bytes up to the last doubled quote, when there is one (appended to in place: a field of many doubled
      // quotes stays linear); otherwise the field is one range of the input.
      var unescaped: [UInt8] = []
      var hasEscapes = false
      while true {
        guard index < bytes.count else { throw .malformed("line \(startLine): a quoted field is not closed") }
        let byte = bytes[index]
        if byte == Rows.quote {
          if index + 1 < bytes.count && bytes[index + 1] == Rows.quote {
            unescaped.append(contentsOf: bytes[segmentStart...index])
            hasEscapes = true
            index += 2
            segmentStart = index
            continue
          }
          break
        }
        if byte == Rows.lineFeed { line += 1 }
        index += 1
      }
      let value: String
      if hasEscapes {
        unescaped.append(contentsOf: bytes[segmentStart..<index])
        value = String(decoding: unescaped, as: UTF8.self)
      } else {
        value = String(decoding: bytes[segmentStart..<index], as: UTF8.self)
      }
      index += 1
      if index < bytes.count {
        let next = bytes[index]
        guard next == Rows.comma || next == Rows.lineFeed || next == Rows.carriageReturn else {
          throw .malformed("line \(line): text after a closing quote")
        }
      }
      return value
    }
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

  static func read(
    _ bytes: [UInt8], columns: [CSVField: CSVColumn], maxNodeCount: Int = LoadOptions.default.maxXMLNodeCount
  ) throws(ImportError) -> ImportedVault {
    // The rows are read one at a time and each becomes a record at once: the file is never held as rows of
    // strings beside the records (which took about 16 bytes per input byte).
    var rows = Rows(bytes)
    guard let header = try rows.next(), header.count > 1 else {
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
    vault.maxNodeCount = maxNodeCount
    var number = 0
    while let row = try rows.next() {
      number += 1
      guard row.count == header.count else {
        throw .malformed("record \(number) has \(row.count) fields; the header has \(header.count)")
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
      if record.iconID == nil && !value("icon").isEmpty {
        vault.skip("icons that are not a number (the standard icon is used)", item: "record \(number)")
      }
      if record.modified == nil && !value("modified").isEmpty || record.created == nil && !value("created").isEmpty {
        vault.skip("times that are not ISO 8601 (the import's time is used)", item: "record \(number)")
      }
      for (index, name) in header.enumerated() where !mapped.contains(index) && !row[index].isEmpty {
        record.fields.append((name, row[index], false))
      }
      try vault.append(record)
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
