/// A string field's value: plain text, or a ``ProtectedValue`` for fields written with `Protected="True"`.
///
/// ```swift
/// for field in entry.customFields {
///   show(field.key, field.value.isProtected ? "••••••" : field.value.reveal())
/// }
/// ```
public enum FieldValue: Sendable, Equatable {
  case plain(String)
  case protected(ProtectedValue)

  /// Whether the value is written protected.
  public var isProtected: Bool {
    if case .protected = self { return true }
    return false
  }

  /// The plaintext (reveals a protected value; invalid UTF-8 in it reads as U+FFFD).
  public func reveal() -> String {
    switch self {
    case .plain(let text): return text
    case .protected(let value): return value.reveal()
    }
  }

  /// The plaintext, with each byte of a protected value that is not valid UTF-8 given to `escape` (plain values
  /// are always valid text: the XML reader refuses invalid UTF-8).
  package func reveal(escapingInvalidBytes escape: (UInt8) -> String) -> String {
    switch self {
    case .plain(let text): return text
    case .protected(let value): return value.reveal(escapingInvalidBytes: escape)
    }
  }

  /// Whether the value is valid UTF-8 text (a plain value always is).
  package var isValidUTF8: Bool {
    switch self {
    case .plain: return true
    case .protected(let value): return value.isValidUTF8
    }
  }
}

/// One `Entry/String`: a field name and its value. The standard fields are `Title`, `UserName`, `Password`, `URL`
/// and `Notes`; any other name is a custom field.
///
/// ```swift
/// database.editEntry(entry.uuid, clock: clock) { entry in
///   entry.customFields.append(EntryField(key: "Customer ID", value: .plain("C-1042")))
/// }
/// ```
public struct EntryField: Sendable, Equatable {
  public var key: String
  public var value: FieldValue
  /// Unknown attributes of the `Value` element (other than `Protected`).
  package var extraValueAttributes: [KDBXXMLAttribute]
  /// Unknown children and attributes of the `String` element, and the read order.
  package var layout: XMLLayout

  public init(key: String, value: FieldValue) {
    self.key = key
    self.value = value
    self.extraValueAttributes = []
    self.layout = XMLLayout()
  }
}

/// Auto-type settings of an entry (`Entry/AutoType`).
///
/// ```swift
/// var autoType = entry.autoType ?? AutoType(enabled: true)
/// autoType.defaultSequence = "{USERNAME}{TAB}{PASSWORD}{ENTER}"
/// database.editEntry(entry.uuid, clock: clock) { $0.autoType = autoType }
/// ```
public struct AutoType: Sendable, Equatable {
  /// One window association: a window title pattern and the keystroke sequence for it.
  ///
  /// ```swift
  /// var autoType = entry.autoType ?? AutoType(enabled: true)
  /// autoType.associations.append(AutoType.Association(window: "Online Banking - *", keystrokeSequence: nil))
  /// database.editEntry(entry.uuid, clock: clock) { $0.autoType = autoType }
  /// ```
  public struct Association: Sendable, Equatable {
    public var window: String
    public var keystrokeSequence: String?
    package var layout: XMLLayout

    public init(window: String, keystrokeSequence: String?) {
      self.window = window
      self.keystrokeSequence = keystrokeSequence
      self.layout = XMLLayout()
    }
  }

  public var enabled: Bool?
  /// KeePass's two-channel auto-type obfuscation level (0 = off).
  public var dataTransferObfuscation: Int64?
  public var defaultSequence: String?
  public var associations: [Association]
  package var layout: XMLLayout

  public init(enabled: Bool? = nil, dataTransferObfuscation: Int64? = nil, defaultSequence: String? = nil) {
    self.enabled = enabled
    self.dataTransferObfuscation = dataTransferObfuscation
    self.defaultSequence = defaultSequence
    self.associations = []
    self.layout = XMLLayout()
  }
}

/// An entry (`Group/Entry`), with its history. Optional properties are `nil` when the element was absent; an empty
/// string is kept distinct from a missing element.
///
/// ```swift
/// database.editEntry(entry.uuid, clock: clock) { entry in  // the old version goes to the history
///   entry.userName = "alice@example.com"
///   entry.tags.append("work")
/// }
/// copyToPasteboard(entry.password.reveal())  // revealed only when the user asks
/// ```
public struct Entry: Sendable, Equatable {
  public var uuid: KDBXUUID
  package var iconID: Int64?
  package var customIconUUID: KDBXUUID?
  public var foregroundColor: String?
  public var backgroundColor: String?
  public var overrideURL: String?
  /// KDBX 4.1: whether the password takes part in quality reports.
  public var qualityCheck: Bool?
  /// The raw `Tags` text (KeePass separates tags with `;` or `,`).
  package var tagsText: String?
  /// KDBX 4.1: the group the entry was in before it was moved (for example to the recycle bin).
  public var previousParentGroup: KDBXUUID?
  public var times: Times?
  package var customData: CustomData?
  /// The string fields, in file order.
  public var fields: [EntryField]
  public var attachments: [Attachment]
  public var autoType: AutoType?
  /// Earlier versions of this entry, oldest first. `nil` when the file had no `History` element.
  ///
  /// An app may nest versions in versions to any depth: the save and the merges move them up into this list
  /// (the format has one level), and dropping such a chain releases it without recursion.
  public var history: [Entry]? {
    get { historyStorage?.versions }
    set { storeHistory(newValue) }
    _modify {
      // Taken out of a box only this entry holds, so that the array is uniquely referenced and changes in place;
      // read from a shared box (the array then copies on its first change).
      var versions =
        isKnownUniquelyReferenced(&historyStorage) ? historyStorage?.versions.take() : historyStorage?.versions
      defer { storeHistory(versions) }
      yield &versions
    }
  }
  /// The storage of ``history`` (``EntryHistoryStorage``); `nil` when there is none.
  package var historyStorage: EntryHistoryStorage?

  /// Stores `versions` as ``history``: in the entry's own box when only it holds one, else in a new box.
  private mutating func storeHistory(_ versions: [Entry]?) {
    if versions == nil {
      historyStorage = nil
    } else if isKnownUniquelyReferenced(&historyStorage), let storage = historyStorage {
      storage.versions = versions
    } else {
      historyStorage = EntryHistoryStorage(versions)
    }
  }
  /// Unknown children of the `History` element.
  package var historyLayout: XMLLayout
  /// Unknown children and the read order.
  package var layout: XMLLayout

  package init(uuid: KDBXUUID) {
    self.uuid = uuid
    self.fields = []
    self.attachments = []
    self.historyLayout = XMLLayout()
    self.layout = XMLLayout()
  }

  /// The field named `key`.
  public subscript(field key: String) -> FieldValue? {
    get { fields.first { $0.key == key }?.value }
    set {
      if let index = fields.firstIndex(where: { $0.key == key }) {
        if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
      } else if let newValue {
        fields.append(EntryField(key: key, value: newValue))
      }
    }
  }

  /// KeePass's element order.
  static let canonicalOrder = [
    XMLNames.uuid, XMLNames.iconID, XMLNames.customIconUUID, XMLNames.foregroundColor, XMLNames.backgroundColor,
    XMLNames.overrideURL, XMLNames.qualityCheck, XMLNames.tags, XMLNames.previousParentGroup, XMLNames.times,
    XMLNames.customData, XMLNames.string, XMLNames.binary, XMLNames.autoType, XMLNames.history,
  ]
}
