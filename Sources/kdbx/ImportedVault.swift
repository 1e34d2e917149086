import KDBX

/// Entries read from another manager's export (CSV, Bitwarden JSON), turned into a new database: groups by path,
/// standard fields, custom fields (protected when the source marks them hidden), tags, TOTP and times.
struct ImportedVault {
  struct Record {
    var groupPath: [String] = []
    var title = ""
    var username = ""
    var password = ""
    var url = ""
    var notes = ""
    var tags: [String] = []
    /// An `otpauth://` URI or a base32 secret.
    var otp = ""
    var fields: [(name: String, value: String, protected: Bool)] = []
    /// Earlier passwords with when they stopped being used, kept as the entry's history (oldest first).
    var passwordHistory: [(password: String, until: Timestamp?)] = []
    /// Files attached to the entry (1Password documents and file fields).
    var attachments: [(name: String, data: [UInt8])] = []
    var iconID: Int? = nil
    var created: Timestamp? = nil
    var modified: Timestamp? = nil
  }

  var rootName = "Passwords"
  var records: [Record] = []
  /// Extra groups to create even when empty (Bitwarden folders).
  var emptyGroups: [[String]] = []
  /// What the source had that was not imported, in words (one line each).
  var skipped: [String] = []

  /// The database, with a fresh root group named ``rootName``.
  func database() throws(CLIError) -> Database {
    var random = SystemRandomNumberGenerator()
    let clock = SystemClock()
    var database = Database.new(name: rootName, clock: clock, random: &random)
    guard var root = database.root else { throw .failure("cannot make a new database") }
    for path in emptyGroups { _ = ImportedVault.group(path, in: &root, clock: clock, random: &random) }
    for record in records {
      for name in record.groupPath { try StorableText.check(name, as: "the group name '\(name)'") }
      var entry = Entry.new(clock: clock, random: &random)
      func set(_ name: String, _ value: String, protected: Bool = false) throws(CLIError) {
        if value.isEmpty && !Entry.standardFieldNames.contains(name) { return }
        if protected {
          entry[field: name] = .protected(ProtectedValue(value, using: &random))
        } else {
          try StorableText.check(value, as: "the field '\(name)' of '\(record.title)'")
          entry[field: name] = .plain(value)
        }
      }
      try set(Entry.titleField, record.title)
      try set(Entry.userNameField, record.username)
      try set(Entry.passwordField, record.password, protected: true)
      try set(Entry.urlField, record.url)
      try set(Entry.notesField, record.notes)
      for field in record.fields {
        var name = field.name.isEmpty ? "Field" : field.name
        var suffix = 2
        while entry[field: name] != nil {
          name = (field.name.isEmpty ? "Field" : field.name) + " (\(suffix))"
          suffix += 1
        }
        try set(name, field.value, protected: field.protected)
      }
      if !record.otp.isEmpty { try set("otp", ImportedVault.otpauth(record.otp, title: record.title), protected: true) }
      if !record.tags.isEmpty { entry.tagsText = record.tags.joined(separator: ";") }
      if let icon = record.iconID, (0...68).contains(icon) { entry.iconID = Int64(icon) }
      if let created = record.created { entry.times?.creationTime = created }
      if let modified = record.modified { entry.times?.lastModificationTime = modified }
      for attachment in record.attachments {
        try StorableText.check(attachment.name, as: "the attachment name '\(attachment.name)'")
        var name = attachment.name
        var suffix = 2
        while entry.attachments.contains(where: { $0.name == name }) {
          name = "\(attachment.name) (\(suffix))"
          suffix += 1
        }
        entry.attachments.append(database.makeAttachment(name: name, data: attachment.data))
      }
      // Each earlier password becomes a history version of the entry, as KeePass keeps one per change.
      let current = entry
      for old in record.passwordHistory.sorted(by: {
        ($0.until?.secondsSince0001 ?? 0) < ($1.until?.secondsSince0001 ?? 0)
      }) {
        var version = current
        version.history = nil
        version[field: Entry.passwordField] = .protected(ProtectedValue(old.password, using: &random))
        if let until = old.until { version.times?.lastModificationTime = until }
        entry.history = (entry.history ?? []) + [version]
      }
      let indexPath = ImportedVault.group(record.groupPath, in: &root, clock: clock, random: &random)
      ImportedVault.append(entry, at: indexPath[...], in: &root)
    }
    database.root = root
    return database
  }

  /// The index path of the group at `path` below `root`, created when missing.
  static func group(
    _ path: [String], in root: inout Group, clock: SystemClock, random: inout SystemRandomNumberGenerator
  ) -> [Int] {
    guard let first = path.first else { return [] }
    var index = root.groups.firstIndex { $0.name == first }
    if index == nil {
      root.groups.append(Group.new(name: first, clock: clock, random: &random))
      index = root.groups.count - 1
    }
    let position = index ?? 0
    return [position] + group(Array(path.dropFirst()), in: &root.groups[position], clock: clock, random: &random)
  }

  static func append(_ entry: Entry, at indexPath: ArraySlice<Int>, in group: inout Group) {
    guard let first = indexPath.first else {
      group.entries.append(entry)
      return
    }
    append(entry, at: indexPath.dropFirst(), in: &group.groups[first])
  }

  /// An `otpauth://totp` URI for a bare base32 secret (as Bitwarden and CSV exports may hold); URIs are kept.
  static func otpauth(_ value: String, title: String) -> String {
    if value.lowercased().hasPrefix("otpauth://") || value.lowercased().hasPrefix("steam://") { return value }
    let secret = value.uppercased().filter { $0 != " " && $0 != "-" }
    let label = title.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    return
      "otpauth://totp/\(String(String.UnicodeScalarView(label)))?secret=\(secret)&period=30&digits=6&algorithm=SHA1"
  }

  /// "N entries in M groups" and what was skipped, for the import's last lines.
  func summary() -> String {
    var groups = Set<[String]>()
    for record in records {
      for depth in 0..<record.groupPath.count { groups.insert(Array(record.groupPath.prefix(depth + 1))) }
    }
    for path in emptyGroups { for depth in 0..<path.count { groups.insert(Array(path.prefix(depth + 1))) } }
    var text =
      "\(records.count) entr\(records.count == 1 ? "y" : "ies") in \(groups.count) group\(groups.count == 1 ? "" : "s")"
    // The first 50 reasons are listed; a hostile file cannot flood the terminal.
    var listed = skipped.prefix(50).joined(separator: "\n  ")
    if skipped.count > 50 { listed += "\n  ... and \(skipped.count - 50) more" }
    text += skipped.isEmpty ? "; nothing skipped" : "; skipped \(skipped.count):\n  " + listed
    return text
  }
}
