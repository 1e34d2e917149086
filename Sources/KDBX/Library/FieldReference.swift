import KDBXBase

/// A KeePass field reference, `{REF:<wanted>@<search in>:<text>}` (KeePass help "Field References"; KeePassLib
/// `SprEngine.FillRefPlaceholders`).
///
/// The wanted field and the search field are one letter each: `T` title, `U` user name, `P` password, `A` URL,
/// `N` notes, `I` UUID (32 hex digits); the search field may also be `O`, any other (custom) field. The target is
/// the first entry, in KeePass's pre-order over the whole tree, whose search field contains the text (ignoring
/// case), or whose UUID equals it for `I`.
package struct FieldReference: Sendable, Equatable {
  /// A field code of a reference.
  package enum Field: Sendable, Equatable {
    case title, userName, password, url, notes, uuid
    /// Any custom field (search only, code `O`).
    case other

    /// The field for a code letter (either case).
    package init?(code: UInt8) {
      switch code | 0x20 {
      case 0x74: self = .title
      case 0x75: self = .userName
      case 0x70: self = .password
      case 0x61: self = .url
      case 0x6E: self = .notes
      case 0x69: self = .uuid
      case 0x6F: self = .other
      default: return nil
      }
    }

    /// The KeePass string field name, for the five standard fields.
    package var fieldName: String? {
      switch self {
      case .title: return Entry.titleField
      case .userName: return Entry.userNameField
      case .password: return Entry.passwordField
      case .url: return Entry.urlField
      case .notes: return Entry.notesField
      case .uuid, .other: return nil
      }
    }
  }

  /// The field whose value replaces the reference (never ``Field/other``).
  package var wanted: Field
  /// The field searched for ``text``.
  package var searchIn: Field
  /// The text searched for.
  package var text: String

  package init(wanted: Field, searchIn: Field, text: String) {
    self.wanted = wanted
    self.searchIn = searchIn
    self.text = text
  }

  /// Parses the inside of a placeholder, `REF:W@S:text` (the `REF:` prefix in any case), or returns `nil`.
  package init?(placeholder body: String) {
    let bytes = Array(body.utf8)
    guard bytes.count >= 8, bytes[0] | 0x20 == 0x72, bytes[1] | 0x20 == 0x65, bytes[2] | 0x20 == 0x66,
      bytes[3] == 0x3A, bytes[5] == 0x40, bytes[7] == 0x3A,
      let wanted = Field(code: bytes[4]), wanted != .other, let searchIn = Field(code: bytes[6])
    else { return nil }
    self.init(wanted: wanted, searchIn: searchIn, text: String(decoding: bytes[8...], as: UTF8.self))
  }

  /// The placeholder text, `{REF:W@S:text}`.
  package var placeholder: String {
    func code(_ field: Field) -> String {
      switch field {
      case .title: return "T"
      case .userName: return "U"
      case .password: return "P"
      case .url: return "A"
      case .notes: return "N"
      case .uuid: return "I"
      case .other: return "O"
      }
    }
    return "{REF:" + code(wanted) + "@" + code(searchIn) + ":" + text + "}"
  }

  /// The references in `text`, in order.
  package static func references(in text: String) -> [FieldReference] {
    var out: [FieldReference] = []
    PlaceholderScanner.forEachToken(in: Array(text.utf8)) { body, _ in
      if let reference = FieldReference(placeholder: body) { out.append(reference) }
    }
    return out
  }

  /// Whether `entry` is a target of this reference (its search field holds the text).
  package func isMatched(by entry: Entry) -> Bool {
    switch searchIn {
    case .uuid:
      guard let uuid = KDBXUUID(string: text) else { return false }
      return entry.uuid == uuid
    case .other:
      let needle = Array(text.lowercased().utf8)
      let standard = [
        Entry.titleField, Entry.userNameField, Entry.passwordField, Entry.urlField, Entry.notesField,
      ]
      return entry.fields.contains { field in
        !standard.contains(field.key) && Self.contains(field.value.reveal(), needle)
      }
    default:
      guard let name = searchIn.fieldName else { return false }
      return Self.contains(entry[field: name]?.reveal() ?? "", Array(text.lowercased().utf8))
    }
  }

  private static func contains(_ haystack: String, _ needle: [UInt8]) -> Bool {
    needle.isEmpty || ASCII.contains(Array(haystack.lowercased().utf8), needle)
  }
}

extension Database {
  /// The entry a reference points to: the first current entry in pre-order that ``FieldReference/isMatched(by:)``.
  package func target(of reference: FieldReference) -> Entry? {
    guard let root else { return nil }
    var found: Entry? = nil
    root.forEachEntry { entry, _ in
      if found == nil && reference.isMatched(by: entry) { found = entry }
    }
    return found
  }

  /// The reverse reference index: for each entry that some other entry's fields reference (directly, with
  /// `{REF:...}`), the UUIDs of the referencing entries, each once, in tree order.
  package func fieldReferenceIndex() -> [KDBXUUID: [KDBXUUID]] {
    var index: [KDBXUUID: [KDBXUUID]] = [:]
    root?.forEachEntry { entry, _ in
      for field in entry.fields {
        let text = field.value.reveal()
        guard text.utf8.count >= 10 else { continue }
        for reference in FieldReference.references(in: text) {
          guard let target = target(of: reference) else { continue }
          var list = index[target.uuid] ?? []
          if !list.contains(entry.uuid) { list.append(entry.uuid) }
          index[target.uuid] = list
        }
      }
    }
    return index
  }

  /// The entries whose fields reference entry `uuid` with `{REF:...}`.
  public func entriesReferencing(_ uuid: KDBXUUID) -> [KDBXUUID] { fieldReferenceIndex()[uuid] ?? [] }
}

/// Finds `{...}` placeholders in UTF-8 text.
enum PlaceholderScanner {
  /// Calls `body` with the text between each `{` and the next `}`, and the byte range of the whole token.
  static func forEachToken(in bytes: [UInt8], _ body: (String, Range<Int>) -> Void) {
    var index = 0
    while index < bytes.count {
      guard bytes[index] == 0x7B else {
        index += 1
        continue
      }
      var end = index + 1
      while end < bytes.count && bytes[end] != 0x7D && bytes[end] != 0x7B { end += 1 }
      if end < bytes.count && bytes[end] == 0x7D {
        body(String(decoding: bytes[(index + 1)..<end], as: UTF8.self), index..<(end + 1))
        index = end + 1
      } else {
        index = end
      }
    }
  }
}
