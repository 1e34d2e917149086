/// Whether two versions of an entry or a group mean the same, whatever their serialization (issue #26).
///
/// A merge decides "same or different" for every object present on both sides; comparing serialized forms made
/// every re-save by another app look like an edit. Two versions are the same here when they agree on:
/// - string fields as a set keyed by name, each with its value (compared as bytes) and protection flag; a
///   standard field (`Title`, `UserName`, `Password`, `URL`, `Notes`) with an empty value equals an absent one
///   (KeePassLib `PwCompareOptions.NullEmptyEquivStd`), and its protection flag is not compared, because it
///   follows `Meta/MemoryProtection` (KeePass 2 rewrites it from there at every save);
/// - attachments as a set keyed by name, by content;
/// - icon, custom icon, colours (case-insensitive), override URL, tags as a set (`;` or `,` separated), auto-type
///   (an absent default sequence equals an empty one, `<DefaultSequence/>`), the times that matter (creation, last
///   modification, and the expiry time when the object expires), and for groups the name, notes and the
///   auto-type and search settings (absent equals inherit);
/// - custom data by key and value, KDBX 4.1's `QualityCheck` and group tags, and unknown XML elements and
///   attributes: compared when both versions carry them; a version without any is one written by an app or format
///   that cannot carry them (KeePass 2.47 writes no KDBX 4.1 field, KDBX 3.1 has no custom data in entries, a
///   re-save by another app drops unknown elements), not an edit.
///
/// Not compared: history, last access time, usage count, location (`LocationChanged`, `PreviousParentGroup`),
/// and for groups the UI state (`IsExpanded`, `LastTopVisibleEntry`). Element order and default values written
/// out or left out never count. The merge keeps the version (and so the lossless layout) of the side that wins.
enum MergeEquivalence {
  /// The standard fields, whose empty value equals absence.
  static let standardFields: Set<String> = ["Title", "UserName", "Password", "URL", "Notes"]

  // MARK: entries

  /// Whether `a` and `b` are the same version of an entry. Attachments refer into `pool` (both sides).
  static func same(_ a: Entry, _ b: Entry, pool: BinaryPool) -> Bool {
    guard sameTimes(a.times, b.times) else { return false }
    guard (a.iconID ?? 0) == (b.iconID ?? 0), sameUUID(a.customIconUUID, b.customIconUUID) else { return false }
    guard sameColour(a.foregroundColor, b.foregroundColor), sameColour(a.backgroundColor, b.backgroundColor) else {
      return false
    }
    guard (a.overrideURL ?? "").utf8.elementsEqual((b.overrideURL ?? "").utf8) else { return false }
    if let x = a.qualityCheck, let y = b.qualityCheck, x != y { return false }
    guard sameTags(a.tagsText, b.tagsText), sameFields(a.fields, b.fields), sameAutoType(a.autoType, b.autoType) else {
      return false
    }
    guard sameAttachments(a.attachments, b.attachments, pool: pool) else { return false }
    guard sameCustomData(a.customData, b.customData), sameUnknown(a.layout, b.layout) else { return false }
    return true
  }

  /// A hash that equal entries (``same(_:_:pool:)``) share, to find candidates among many history items without
  /// comparing each pair. It covers the fields compared strictly (times, fields, attachment names and sizes).
  static func digest(_ entry: Entry, pool: BinaryPool) -> Int {
    var hasher = Hasher()
    hasher.combine(entry.times?.lastModificationTime)
    hasher.combine(entry.iconID ?? 0)
    // Order-independent: the sum of per-field hashes (Swift's `String` hash agrees with byte equality).
    var fieldHash = 0
    var attachmentHash = 0
    for field in entry.fields where !isEmptyStandard(field) {
      switch field.value {
      case .plain(let text): fieldHash &+= field.key.hashValue &+ 31 &* text.hashValue
      case .protected(let value): fieldHash &+= field.key.hashValue &+ 31 &* value.reveal().hashValue
      }
    }
    for attachment in entry.attachments {
      attachmentHash &+= attachment.name.hashValue &+ 31 &* (pool[attachment.binaryIndex]?.data.count ?? -1)
    }
    hasher.combine(fieldHash)
    hasher.combine(attachmentHash)
    return hasher.finalize()
  }

  static func isEmptyStandard(_ field: EntryField) -> Bool {
    guard standardFields.contains(field.key) else { return false }
    switch field.value {
    case .plain(let text): return text.isEmpty
    case .protected(let value): return value.isEmpty
    }
  }

  static func sameFields(_ a: [EntryField], _ b: [EntryField]) -> Bool {
    // Most pairs list the same fields in the same order: compare in place.
    if a.count == b.count {
      var index = 0
      while index < a.count, a[index].key == b[index].key, a[index].key.utf8.count == b[index].key.utf8.count {
        index += 1
      }
      if index == a.count {
        for position in 0..<a.count where !sameField(a[position], b[position]) { return false }
        return true
      }
    }
    // Another order, or empty standard fields written on one side only: match by name.
    var countA = 0
    var countB = 0
    for field in a where !isEmptyStandard(field) { countA += 1 }
    for field in b where !isEmptyStandard(field) { countB += 1 }
    guard countA == countB else { return false }
    if countA <= 32 {
      for field in a where !isEmptyStandard(field) {
        guard let other = b.first(where: { $0.key.utf8.elementsEqual(field.key.utf8) }), sameField(field, other)
        else { return false }
      }
      return true
    }
    let x = a.filter { !isEmptyStandard($0) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    let y = b.filter { !isEmptyStandard($0) }.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    for index in 0..<x.count {
      guard x[index].key.utf8.elementsEqual(y[index].key.utf8), sameField(x[index], y[index]) else { return false }
    }
    return true
  }

  /// Two fields of the same name: value, protection flag and unknown content; an empty standard field equals an
  /// empty one whatever its flag.
  static func sameField(_ f: EntryField, _ g: EntryField) -> Bool {
    if isEmptyStandard(f) && isEmptyStandard(g) { return true }
    let same = standardFields.contains(f.key) ? samePlaintext(f.value, g.value) : sameValue(f.value, g.value)
    return same && sameUnknown(f.layout, g.layout) && sameAttributes(f.extraValueAttributes, g.extraValueAttributes)
  }

  /// The plaintexts alone, for standard fields: their protection flag is the vault's `Meta/MemoryProtection`
  /// setting, which KeePass 2 writes over the flag read at every save (KeePassLib `KdbxFile.WriteObject`).
  static func samePlaintext(_ a: FieldValue, _ b: FieldValue) -> Bool {
    switch (a, b) {
    case (.plain(let x), .plain(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.protected(let x), .protected(let y)): return x == y
    case (.plain(let x), .protected(let y)), (.protected(let y), .plain(let x)):
      return y.revealBytes().elementsEqual(x.utf8)
    }
  }

  /// Values and protection flags; the bytes are compared, not Unicode-equivalent text.
  static func sameValue(_ a: FieldValue, _ b: FieldValue) -> Bool {
    switch (a, b) {
    case (.plain(let x), .plain(let y)): return x.utf8.elementsEqual(y.utf8)
    case (.protected(let x), .protected(let y)): return x == y
    default: return false
    }
  }

  static func sameAttachments(_ a: [Attachment], _ b: [Attachment], pool: BinaryPool) -> Bool {
    guard a.count == b.count else { return false }
    if a.isEmpty { return true }
    let inOrder = zip(a, b).allSatisfy { $0.name.utf8.elementsEqual($1.name.utf8) }
    let x = inOrder ? a : a.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    let y = inOrder ? b : b.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    for (f, g) in zip(x, y) {
      guard f.name.utf8.elementsEqual(g.name.utf8) else { return false }
      if f.binaryIndex != g.binaryIndex {
        guard let left = pool[f.binaryIndex]?.data, let right = pool[g.binaryIndex]?.data, left == right else {
          return false
        }
      }
      guard sameUnknown(f.layout, g.layout), sameAttributes(f.extraValueAttributes, g.extraValueAttributes) else {
        return false
      }
    }
    return true
  }

  static func sameAutoType(_ a: AutoType?, _ b: AutoType?) -> Bool {
    let x = a ?? AutoType()
    let y = b ?? AutoType()
    guard (x.enabled ?? true) == (y.enabled ?? true) else { return false }
    guard (x.dataTransferObfuscation ?? 0) == (y.dataTransferObfuscation ?? 0) else { return false }
    guard (x.defaultSequence ?? "").utf8.elementsEqual((y.defaultSequence ?? "").utf8) else { return false }
    guard x.associations.count == y.associations.count, sameUnknown(x.layout, y.layout) else { return false }
    for (f, g) in zip(x.associations, y.associations) {
      guard f.window.utf8.elementsEqual(g.window.utf8) else { return false }
      guard (f.keystrokeSequence ?? "").utf8.elementsEqual((g.keystrokeSequence ?? "").utf8) else { return false }
      guard sameUnknown(f.layout, g.layout) else { return false }
    }
    return true
  }

  // MARK: groups

  /// Whether `a` and `b` are the same version of a group (its own data; children are not compared).
  static func same(_ a: Group, _ b: Group) -> Bool {
    guard sameTimes(a.times, b.times) else { return false }
    guard a.name.utf8.elementsEqual(b.name.utf8) else { return false }
    guard a.notes.utf8.elementsEqual(b.notes.utf8) else { return false }
    guard (a.iconID ?? 48) == (b.iconID ?? 48), sameUUID(a.customIconUUID, b.customIconUUID) else { return false }
    guard (a.defaultAutoTypeSequence ?? "").utf8.elementsEqual((b.defaultAutoTypeSequence ?? "").utf8) else {
      return false
    }
    guard (a.enableAutoType ?? nil) == (b.enableAutoType ?? nil) else { return false }
    guard (a.enableSearching ?? nil) == (b.enableSearching ?? nil) else { return false }
    if a.tagsText != nil, b.tagsText != nil, !sameTags(a.tagsText, b.tagsText) { return false }
    return sameCustomData(a.customData, b.customData) && sameUnknown(a.layout, b.layout)
  }

  // MARK: shared parts

  /// Creation and last modification time, and the expiry time when the object expires. A creation time that
  /// one side lacks is not compared.
  static func sameTimes(_ a: Times?, _ b: Times?) -> Bool {
    guard a?.lastModificationTime == b?.lastModificationTime else { return false }
    if let x = a?.creationTime, let y = b?.creationTime, x != y { return false }
    let expires = a?.expires ?? false
    guard expires == (b?.expires ?? false) else { return false }
    if expires, a?.expiryTime != b?.expiryTime { return false }
    return sameUnknown(a?.layout ?? XMLLayout(), b?.layout ?? XMLLayout())
  }

  static func sameUUID(_ a: KDBXUUID?, _ b: KDBXUUID?) -> Bool { (a ?? .zero) == (b ?? .zero) }

  /// Colours as `#RRGGBB` text, ASCII case-insensitive (KeePass writes upper case, others lower case).
  static func sameColour(_ a: String?, _ b: String?) -> Bool {
    if a == b { return true }
    func fold(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }
    return (a ?? "").utf8.map(fold).elementsEqual((b ?? "").utf8.map(fold))
  }

  /// Tags as a set: order, separators (`;` or `,`) and duplicates do not count.
  static func sameTags(_ a: String?, _ b: String?) -> Bool {
    if (a ?? "").utf8.elementsEqual((b ?? "").utf8) { return true }
    return Set(splitTags(a)) == Set(splitTags(b))
  }

  /// KeePassXC's bookkeeping item, rewritten with the save time at every save (KeePassXC `CustomData::LastModified`;
  /// its own merge skips it too).
  static let keePassXCLastModifiedKey = "_LAST_MODIFIED"

  /// Custom data by key and value (item modification times are KDBX 4.1 bookkeeping, and KeePassXC's
  /// `_LAST_MODIFIED` item is left out); compared only when both sides carry some.
  static func sameCustomData(_ a: CustomData?, _ b: CustomData?) -> Bool {
    let x = (a?.items ?? []).filter { $0.key != keePassXCLastModifiedKey }
      .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    let y = (b?.items ?? []).filter { $0.key != keePassXCLastModifiedKey }
      .sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    guard let a, let b, !x.isEmpty, !y.isEmpty else { return true }
    guard x.count == y.count else { return false }
    for (f, g) in zip(x, y) {
      guard f.key.utf8.elementsEqual(g.key.utf8), f.value.utf8.elementsEqual(g.value.utf8) else { return false }
    }
    return sameUnknown(a.layout, b.layout)
  }

  /// Unknown elements and attributes (``XMLLayout``'s `==`), compared when both sides keep some.
  static func sameUnknown(_ a: XMLLayout, _ b: XMLLayout) -> Bool {
    keepsNothingUnknown(a) || keepsNothingUnknown(b) || a == b
  }

  static func keepsNothingUnknown(_ layout: XMLLayout) -> Bool {
    layout.attributes.isEmpty && layout.childAttributes.isEmpty && layout.unknownNodes.isEmpty
  }

  static func sameAttributes(_ a: [KDBXXMLAttribute], _ b: [KDBXXMLAttribute]) -> Bool {
    a.isEmpty || b.isEmpty || a == b
  }
}
