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
    /// Files attached to the entry (1Password documents and file fields), each with the name of its source (the
    /// archive member): attachments of one source share one binary, found by that name rather than by comparing
    /// contents.
    var attachments: [(name: String, data: [UInt8], source: String)] = []
    var iconID: Int? = nil
    var created: Timestamp? = nil
    var modified: Timestamp? = nil
  }

  var rootName = "Passwords"
  var records: [Record] = []
  /// Extra groups to create even when empty (Bitwarden folders).
  var emptyGroups: [[String]] = []
  /// What the source had that was not imported, in words (one line each): counts over the whole source.
  var skipped: [String] = []
  /// What was not imported item by item, one kind at a time in the order first met: how many, and the first few
  /// items (``skip(_:item:)``), so that the report names every kind however many items have it.
  private var skippedKinds: [(kind: String, count: Int, items: [String])] = []
  private var skippedKindIndex: [String: Int] = [:]
  /// How many items a line of ``report`` names before it says "...".
  static let skippedExamples = 3

  /// Notes that `item` (a title or position as the source names it) had something of `kind` (a plural phrase,
  /// such as "items in the trash") that was not imported.
  mutating func skip(_ kind: String, item: String) {
    guard let index = skippedKindIndex[kind] else {
      skippedKindIndex[kind] = skippedKinds.count
      skippedKinds.append((kind, 1, [item]))
      return
    }
    skippedKinds[index].count += 1
    if skippedKinds[index].items.count < Self.skippedExamples { skippedKinds[index].items.append(item) }
  }

  /// Every line of what was not imported: each kind noted item by item (``skip(_:item:)``) as "KIND: COUNT
  /// (ITEM, ITEM, ITEM, ...)", then the counts over the whole source (``skipped``).
  var report: [String] {
    skippedKinds.map { kind in
      let more = kind.count > kind.items.count ? ", ..." : ""
      return "\(kind.kind): \(kind.count) (\(kind.items.joined(separator: ", "))\(more))"
    } + skipped
  }

  /// The most XML nodes the saved document may hold: the open's limit (`LoadOptions.maxXMLNodeCount`), which
  /// `KDBXFile.checkSavable` applies to the finished database. The importers apply it as they read, record by
  /// record (``append(_:)``), so that an export of more entries, history versions or fields than any vault can
  /// hold is refused before its database (several KiB an entry with the save's check) is built.
  var maxNodeCount = LoadOptions.default.maxXMLNodeCount
  /// The fewest XML nodes an imported entry takes in the saved document (an `Entry.new` with the five standard
  /// fields: `Entry`, `UUID` and `IconID` with their text, 4 empty elements, `Times` 15, the `String`s 20,
  /// `AutoType` 5, `History`: 50), counted as 48; a history version takes as many less its `History` (49).
  static let entryNodeCost = 48
  /// The fewest XML nodes an imported group takes (a `Group.new`: 31), counted as 28.
  static let groupNodeCost = 28
  /// The fewest XML nodes a custom field takes: `String`, `Key` with its text, and `Value`.
  static let fieldNodeCost = 4
  /// The history versions and custom fields of ``records``, counted by ``append(_:)``.
  private(set) var historyCount = 0
  private(set) var fieldCount = 0

  /// Appends `record`, and refuses it when the records so far would take more nodes than ``maxNodeCount``
  /// (``checkNodeBudget(groups:)``): constant work per record.
  mutating func append(_ record: Record) throws(ImportError) {
    records.append(record)
    historyCount += record.passwordHistory.count
    fieldCount += record.fields.count
    try checkNodeBudget()
  }

  /// Refuses the import when ``records`` (with their history versions and custom fields as counted by
  /// ``append(_:)``, or counted here when `recount`) and `groups` (or ``emptyGroups`` when not given) would take
  /// more nodes than ``maxNodeCount``, at the costs above (lower bounds: only what no save could write is refused).
  func checkNodeBudget(groups: Int? = nil, recount: Bool = false) throws(ImportError) {
    let groups = groups ?? emptyGroups.count
    var history = historyCount
    var fields = fieldCount
    if recount {
      history = 0
      fields = 0
      for record in records {
        history += record.passwordHistory.count
        fields += record.fields.count
      }
    }
    var nodes = 0
    var overflow = false
    func add(_ count: Int, _ cost: Int) {
      let (product, productOverflow) = count.multipliedReportingOverflow(by: cost)
      let (sum, sumOverflow) = nodes.addingReportingOverflow(product)
      overflow = overflow || productOverflow || sumOverflow
      nodes = sum
    }
    add(records.count, Self.entryNodeCost)
    add(history, Self.entryNodeCost)
    add(fields, Self.fieldNodeCost)
    add(groups, Self.groupNodeCost)
    guard overflow || nodes > maxNodeCount else { return }
    throw .tooLarge(
      "\(records.count) entries, \(history) history versions, \(fields) custom fields and \(groups) groups or more: "
        + KDBXError.limitExceeded(
          what: "XML node count (at least)", value: UInt64(clamping: nodes), limit: UInt64(clamping: maxNodeCount)
        ).description)
  }

  /// The number of distinct groups below the root, counted once by ``database(clock:random:)`` (the records'
  /// paths are gone afterwards).
  private(set) var groupCount = 0

  /// The database, with a fresh root group named ``rootName``. The records are emptied as their entries are made
  /// (``records`` keeps its count, each record is left empty), so that the text of the export is not held twice,
  /// in the records and in the database, at the peak.
  mutating func database(clock: some WallClock, random: inout some RandomNumberGenerator) throws(ImportError)
    -> Database
  {
    try StorableText.check(rootName, as: "the root group name '\(rootName)'")
    var database = Database.new(name: rootName, clock: clock, random: &random)
    guard let root = database.root else { throw .malformed("cannot make a new database") }
    // Every path's depth first, and the number of entries and groups: a file that makes too deep or too large a
    // tree is refused before anything is built.
    groupCount = ImportedGroupTree.count(emptyGroups + records.map { $0.groupPath })
    try checkNodeBudget(groups: groupCount, recount: true)
    for path in emptyGroups { try ImportedGroupTree.check(path) }
    for record in records { try ImportedGroupTree.check(record.groupPath) }
    var tree = ImportedGroupTree(root: root)
    // The binaries, one per source, found in a hash table: `Database.makeAttachment` compares the new data with
    // every binary so far, quadratic in the number of attachments.
    var pool: [BinaryPool.Binary] = []
    var poolIndex: [String: Int] = [:]
    for path in emptyGroups { _ = try tree.group(at: path, clock: clock, random: &random) }
    for index in records.indices {
      let record = records[index]
      records[index] = Record()
      var entry = Entry.new(clock: clock, random: &random)
      /// Sets the field `name`; with `isNew` (a name the entry does not have yet) it is appended without a
      /// search through the fields. Empty values are stored too.
      func set(_ name: String, _ value: String, protected: Bool = false, isNew: Bool = false) throws(ImportError) {
        try StorableText.check(name, as: "the field name '\(name)' of '\(record.title)'")
        let stored: FieldValue
        if protected {
          stored = .protected(ProtectedValue(value, using: &random))
        } else {
          try StorableText.check(value, as: "the field '\(name)' of '\(record.title)'")
          stored = .plain(value)
        }
        if isNew { entry.fields.append(EntryField(key: name, value: stored)) } else { entry[field: name] = stored }
      }
      try set(Entry.titleField, record.title)
      try set(Entry.userNameField, record.username)
      try set(Entry.passwordField, record.password, protected: true)
      try set(Entry.urlField, record.url)
      try set(Entry.notesField, record.notes)
      // Room for exactly the fields still to come: appended to the five standard fields one by one, a sixth would
      // double the array to ten 56-byte slots, a sixth of the memory of a small imported entry.
      let fieldsToCome = (record.otp.isEmpty ? 0 : 1) + record.fields.count
      if fieldsToCome > 0 { entry.fields.reserveCapacity(entry.fields.count + fieldsToCome) }
      // The one-time password first, so that a custom field of the same name is kept beside it as "otp (2)".
      if !record.otp.isEmpty {
        try set("otp", ImportedVault.otpauth(record.otp, title: record.title), protected: true, isNew: true)
      }
      // Repeated names get " (2)", " (3)"...: found with a set and the next suffix per name, not by scanning the
      // entry's fields for each candidate (4,000 fields of one name took over 30 s).
      var fieldNames = Set(entry.fields.map { $0.key })
      var nextSuffix: [String: Int] = [:]
      for field in record.fields {
        let base = field.name.isEmpty ? "Field" : field.name
        var name = base
        if fieldNames.contains(name) {
          var suffix = nextSuffix[base] ?? 2
          while fieldNames.contains(base + " (\(suffix))") { suffix += 1 }
          name = base + " (\(suffix))"
          nextSuffix[base] = suffix + 1
        }
        // Empty values are kept too: the field's name is information the user entered.
        try set(name, field.value, protected: field.protected, isNew: true)
        fieldNames.insert(name)
      }
      let tags = record.tags.filter { !$0.isEmpty }
      for tag in tags { try StorableText.check(tag, as: "the tag '\(tag)' of '\(record.title)'") }
      if !tags.isEmpty { entry.tagsText = tags.joined(separator: ";") }
      if let icon = record.iconID, (0...68).contains(icon) { entry.iconID = Int64(icon) }
      if let created = record.created { entry.times?.creationTime = created }
      if let modified = record.modified { entry.times?.lastModificationTime = modified }
      var attachmentNames = Set<String>()
      var nextAttachmentSuffix: [String: Int] = [:]
      for attachment in record.attachments {
        try StorableText.check(attachment.name, as: "the attachment name '\(attachment.name)'")
        var name = attachment.name
        if attachmentNames.contains(name) {
          var suffix = nextAttachmentSuffix[attachment.name] ?? 2
          while attachmentNames.contains("\(attachment.name) (\(suffix))") { suffix += 1 }
          name = "\(attachment.name) (\(suffix))"
          nextAttachmentSuffix[attachment.name] = suffix + 1
        }
        attachmentNames.insert(name)
        let binaryIndex: Int
        if let found = poolIndex[attachment.source] {
          binaryIndex = found
        } else {
          binaryIndex = pool.count
          pool.append(BinaryPool.Binary(data: attachment.data))
          poolIndex[attachment.source] = binaryIndex
        }
        entry.attachments.append(Attachment(name: name, binaryIndex: binaryIndex))
      }
      // Each earlier password becomes a history version of the entry, as KeePass keeps one per change. The
      // export records only the password of each change, so a version holds the standard fields with that
      // password, not copies of every custom field and attachment (which would grow as fields x versions).
      var current = entry
      current.fields = entry.fields.filter { Entry.standardFieldNames.contains($0.key) }
      current.attachments = []
      current.history = nil
      var history: [Entry] = []
      history.reserveCapacity(record.passwordHistory.count)
      for old in record.passwordHistory.sorted(by: {
        ($0.until?.secondsSince0001 ?? 0) < ($1.until?.secondsSince0001 ?? 0)
      }) {
        var version = current
        version[field: Entry.passwordField] = .protected(ProtectedValue(old.password, using: &random))
        if let until = old.until { version.times?.lastModificationTime = until }
        history.append(version)
      }
      if !history.isEmpty { entry.history = history }
      tree.append(entry, to: try tree.group(at: record.groupPath, clock: clock, random: &random))
    }
    database.root = tree.root()
    database.binaries = BinaryPool(binaries: pool)
    return database
  }

  /// An `otpauth://totp` URI for a bare base32 secret (as Bitwarden and CSV exports may hold); URIs are kept.
  static func otpauth(_ value: String, title: String) -> String {
    if value.lowercased().hasPrefix("otpauth://") || value.lowercased().hasPrefix("steam://") { return value }
    let secret = value.uppercased().filter { $0 != " " && $0 != "-" }
    let label = title.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    return
      "otpauth://totp/\(String(String.UnicodeScalarView(label)))?secret=\(secret)&period=30&digits=6&algorithm=SHA1"
  }
}
