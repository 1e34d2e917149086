import KDBXBase

/// A case- and diacritic-insensitive substring search over entry fields (see `DiacriticFolding`).
///
/// Protected values are revealed for matching only when the field they are in is searched: the password only with
/// ``Fields/password`` (off by default), protected custom fields only with ``Fields/protectedCustomFields``. A
/// standard field that memory protection made protected (for example a protected title) is searched when its
/// own option is set.
///
/// ```swift
/// let search = EntrySearch(text: "bank", fields: [.title, .url, .tags])
/// let results = database.displayedEntries(search: search)
/// let isMatch = search.matches(entry)
/// ```
public struct EntrySearch: Sendable, Equatable {
  /// Which fields to search.
  ///
  /// ```swift
  /// var fields = EntrySearch.Fields.standard
  /// fields.insert(.customFields)  // the password stays out unless .password is added
  /// let results = database.displayedEntries(search: EntrySearch(text: "C-1042", fields: fields))
  /// ```
  public struct Fields: OptionSet, Sendable, Hashable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let title = Fields(rawValue: 1 << 0)
    public static let userName = Fields(rawValue: 1 << 1)
    public static let url = Fields(rawValue: 1 << 2)
    public static let tags = Fields(rawValue: 1 << 3)
    public static let notes = Fields(rawValue: 1 << 4)
    public static let password = Fields(rawValue: 1 << 5)
    /// Custom string fields that are not protected.
    public static let customFields = Fields(rawValue: 1 << 6)
    /// Custom string fields that are protected (revealed for matching).
    public static let protectedCustomFields = Fields(rawValue: 1 << 7)
    /// The entry UUID, as 32 hex digits or the hyphenated form.
    public static let uuid = Fields(rawValue: 1 << 8)

    /// Title, user name, URL, tags and notes: the default.
    public static let standard: Fields = [.title, .userName, .url, .tags, .notes]
  }

  /// The text to find. Empty text matches every entry.
  public var text: String
  /// The fields searched.
  public var fields: Fields
  /// Whether entries in the recycle bin are listed.
  public var includesRecycleBin: Bool

  public init(text: String = "", fields: Fields = .standard, includesRecycleBin: Bool = false) {
    self.text = text
    self.fields = fields
    self.includesRecycleBin = includesRecycleBin
  }

  /// ``text`` folded for comparison.
  package var foldedText: [Unicode.Scalar] { DiacriticFolding.fold(text) }

  /// Whether `entry` matches this search.
  public func matches(_ entry: Entry) -> Bool { matches(entry, foldedText: foldedText) }

  /// Whether `entry` matches, given ``foldedText`` computed once by the caller.
  package func matches(_ entry: Entry, foldedText needle: [Unicode.Scalar]) -> Bool {
    if needle.isEmpty { return true }
    func check(_ text: String?) -> Bool {
      guard let text, !text.isEmpty else { return false }
      return DiacriticFolding.matches(text, folded: needle)
    }
    let standard: [(String, Fields)] = [
      (Entry.titleField, .title), (Entry.userNameField, .userName), (Entry.urlField, .url),
      (Entry.notesField, .notes), (Entry.passwordField, .password),
    ]
    for (key, option) in standard where fields.contains(option) {
      if check(entry[field: key]?.reveal()) { return true }
    }
    if fields.contains(.tags), check(entry.tagsText) { return true }
    if fields.contains(.uuid) {
      let hex = Hex.encode(entry.uuid.bytes)
      if check(hex) || check(entry.uuid.description) { return true }
    }
    if !fields.isDisjoint(with: [.customFields, .protectedCustomFields]) {
      for field in entry.fields where !standard.contains(where: { $0.0 == field.key }) {
        let wanted = field.value.isProtected ? Fields.protectedCustomFields : Fields.customFields
        if fields.contains(wanted), check(field.value.reveal()) { return true }
      }
    }
    return false
  }
}
