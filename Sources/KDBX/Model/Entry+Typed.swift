// Typed access to an entry: the standard fields, custom fields, tags, icon and expiry as an app shows them, with
// KeePass's defaults for what a file leaves out (KeePass `PwEntry`, `PwDefs`; KDBX 4.1 specification, "XML").
//
// The stored model stays lossless underneath: a field, tag list or time the file did not have stays absent until a
// setter changes its value, and setting the value it already has changes nothing (so `editEntry` records no
// history for it). ``Entry/subscript(field:)`` stays for any field by name.

/// The icon an entry or group shows: one of KeePass's standard icons (by index) or a custom icon of
/// ``Meta/customIcons`` (by UUID, its PNG from ``Database/customIconData(for:)``).
///
/// ```swift
/// entry.icon = .standard(1)                     // KeePass's globe
/// let symbol = database.icon(for: entry).sfSymbolName  // "globe"
/// let choices = IconReference.standardIndices.map { IconReference.standard($0) }  // an icon picker
/// ```
public enum IconReference: Sendable, Hashable {
  /// A standard icon index, 0...68 in KeePass's palette (``standardIndices``); unknown indices are kept.
  case standard(Int)
  /// A custom icon (`CustomIconUUID`).
  case custom(KDBXUUID)

  /// The indices of KeePass's 69 standard icons.
  public static let standardIndices: ClosedRange<Int> = 0...68

  /// A suggested SF Symbol for Apple platforms: the standard icon's, or `key.fill` for custom icons and unknown
  /// indices.
  public var sfSymbolName: String { standardIcon?.sfSymbolName ?? StandardIcon.fallbackSFSymbolName }

  /// The standard icon, when this is a known standard index.
  package var standardIcon: StandardIcon? {
    guard case .standard(let index) = self else { return nil }
    return StandardIcon(rawValue: index)
  }
}

extension Entry {
  /// Whether `key` names one of the five standard fields (case-sensitive, as KeePass compares them).
  package static func isStandardField(_ key: String) -> Bool {
    key == titleField || key == userNameField || key == passwordField || key == urlField || key == notesField
  }

  /// The title (`Title`; empty when absent).
  public var title: String {
    get { self[field: Entry.titleField]?.reveal() ?? "" }
    set { setText(newValue, forField: Entry.titleField, protected: false) }
  }

  /// The user name (`UserName`; empty when absent).
  public var userName: String {
    get { self[field: Entry.userNameField]?.reveal() ?? "" }
    set { setText(newValue, forField: Entry.userNameField, protected: false) }
  }

  /// The password (`Password`; empty when absent), kept obfuscated until ``ProtectedValue/reveal()``. Setting it
  /// stores a protected value (written `Protected="True"`); a save writes the password protected in any case while
  /// `Meta/memoryProtection` protects it, which is KeePass's default.
  ///
  /// ```swift
  /// entry.password = "correct horse battery staple"  // a literal, or ProtectedValue(text) for a String
  /// copyToPasteboard(entry.password.reveal())        // revealed only here
  /// ```
  public var password: ProtectedValue {
    get {
      switch self[field: Entry.passwordField] {
      case nil: return ProtectedValue("")
      case .protected(let value)?: return value
      case .plain(let text)?: return ProtectedValue(text)
      }
    }
    set {
      let current = self[field: Entry.passwordField]
      switch current {
      case nil:
        if newValue.isEmpty { return }
      case .protected(let value)?:
        if value == newValue { return }
      case .plain?:
        break
      }
      self[field: Entry.passwordField] = .protected(newValue)
    }
  }

  /// The URL (`URL`; empty when absent).
  public var url: String {
    get { self[field: Entry.urlField]?.reveal() ?? "" }
    set { setText(newValue, forField: Entry.urlField, protected: false) }
  }

  /// The notes (`Notes`; empty when absent).
  public var notes: String {
    get { self[field: Entry.notesField]?.reveal() ?? "" }
    set { setText(newValue, forField: Entry.notesField, protected: false) }
  }

  /// The fields a user calls the entry's own, in file order, each with its protection flag
  /// (``FieldValue/isProtected``): every field but the five standard ones and the bookkeeping fields that have a
  /// typed API of their own (the one-time-password storage fields `otp`, `TOTP Seed`, `TOTP Settings`,
  /// `TimeOtp-*` and `HmacOtp-*`, read through ``oneTimePassword()``; the `KPEX_PASSKEY_*` fields of a passkey).
  /// ``subscript(field:)`` and ``fields`` still reach every field, and a save writes them all.
  ///
  /// Setting the list replaces these fields: the standard and bookkeeping fields keep their places, the new
  /// fields take the custom slots in order, and the rest are appended.
  ///
  /// ```swift
  /// for field in entry.customFields { show(field.key, field.value.isProtected ? "••••" : field.value.reveal()) }
  /// ```
  public var customFields: [EntryField] {
    get { fields.filter { Entry.isCustomField($0.key) } }
    set {
      guard newValue != customFields else { return }
      var replacements = newValue.filter { Entry.isCustomField($0.key) }[...]
      var result: [EntryField] = []
      result.reserveCapacity(fields.count + replacements.count)
      for field in fields {
        if !Entry.isCustomField(field.key) {
          result.append(field)
        } else if let next = replacements.popFirst() {
          result.append(next)
        }
      }
      result.append(contentsOf: replacements)
      fields = result
    }
  }

  /// Whether `key` names a field ``customFields`` lists: not a standard field, not a one-time-password storage
  /// field and not a passkey's `KPEX_PASSKEY_*` field.
  package static func isCustomField(_ key: String) -> Bool {
    !isStandardField(key) && !OTPFieldNames.all.contains(key) && !key.utf8.starts(with: "KPEX_PASSKEY".utf8)
  }

  /// Sets the custom field `name` to `text`, protected or not (a new field goes at the end; an existing one keeps
  /// its place). Setting a standard field's name sets that field.
  public mutating func setCustomField(_ name: String, to text: String, protected: Bool) {
    var random = SystemRandomNumberGenerator()
    let value: FieldValue = protected ? .protected(ProtectedValue(text, using: &random)) : .plain(text)
    if let current = self[field: name], current.isProtected == protected, current.reveal() == text { return }
    self[field: name] = value
  }

  /// Removes the field `name`; returns whether there was one.
  @discardableResult
  package mutating func removeField(_ name: String) -> Bool {
    guard self[field: name] != nil else { return false }
    self[field: name] = nil
    return true
  }

  /// The tags, split from the stored text at `;` and `,` (KeePass `StrUtil.StringToTags`), trimmed, without empty
  /// ones. Setting a different list stores the tags joined with `;`, as KeePass writes them.
  public var tags: [String] {
    get { splitTags(tagsText) }
    set {
      guard newValue != tags else { return }
      tagsText = newValue.joined(separator: ";")
    }
  }

  /// The icon: the custom icon when the entry names one (not all zero), else the standard index (KeePass's
  /// default 0, a key, when absent). Setting a standard icon clears the custom one.
  public var icon: IconReference {
    get { storedIcon(custom: customIconUUID, standard: iconID, default: .key) }
    set {
      guard newValue != icon else { return }
      storeIcon(newValue, custom: &customIconUUID, standard: &iconID)
    }
  }

  /// When the entry expires, or `nil` when it does not (`Times/Expires` false or absent). Setting a time turns
  /// expiry on; setting `nil` turns it off and keeps the stored time, as KeePass does.
  public var expiry: Timestamp? {
    get { times?.expires == true ? times?.expiryTime : nil }
    set { setExpiry(newValue, in: &times) }
  }

  /// Whether the entry has expired at `now` (KeePass: expiry on and the expiry time not after now).
  public func isExpired(at now: Timestamp) -> Bool {
    expiry.map { $0 <= now } ?? false
  }

  /// Stores `text` in the field `key` unless it already holds that text: protected when `protected` or when the
  /// field is protected already, and an absent field stays absent when `text` is empty.
  mutating func setText(_ text: String, forField key: String, protected: Bool) {
    let current = self[field: key]
    switch current {
    case nil:
      if text.isEmpty { return }
    case .some(let value):
      if value.reveal() == text && (value.isProtected || !protected) { return }
    }
    if protected || current?.isProtected == true {
      var random = SystemRandomNumberGenerator()
      self[field: key] = .protected(ProtectedValue(text, using: &random))
    } else {
      self[field: key] = .plain(text)
    }
  }
}

extension Group {
  /// The group's tags (KDBX 4.1), split as ``Entry/tags`` splits them. Setting a different list stores them
  /// joined with `;`.
  public var tags: [String] {
    get { splitTags(tagsText) }
    set {
      guard newValue != tags else { return }
      tagsText = newValue.joined(separator: ";")
    }
  }

  /// The group's name, empty when the file has none. Setting the name it already has changes nothing, so an
  /// absent `Name` stays absent (the stored element keeps absent and empty apart).
  public var name: String {
    get { nameText ?? "" }
    set {
      guard newValue != name else { return }
      nameText = newValue
    }
  }

  /// The group's notes, empty when the file has none; set as ``name`` is (an absent element stays absent).
  public var notes: String {
    get { notesText ?? "" }
    set {
      guard newValue != notes else { return }
      notesText = newValue
    }
  }

  /// The icon: the custom icon when the group names one, else the standard index (KeePass's default 48, a
  /// folder, when absent). Setting a standard icon clears the custom one.
  public var icon: IconReference {
    get { storedIcon(custom: customIconUUID, standard: iconID, default: .folder) }
    set {
      guard newValue != icon else { return }
      storeIcon(newValue, custom: &customIconUUID, standard: &iconID)
    }
  }

  /// Whether auto-type is on for the group's entries: `true` or `false`, or `nil` when the group inherits its
  /// parent's setting (KeePass's default). Setting `nil` on a group that stores a value writes `null` (inherit).
  public var isAutoTypeEnabled: Bool? {
    get { enableAutoType ?? nil }
    set {
      guard newValue != isAutoTypeEnabled else { return }
      enableAutoType = .some(newValue)
    }
  }

  /// Whether searches include the group's entries: `true` or `false`, or `nil` when the group inherits its
  /// parent's setting (KeePass's default); set as ``isAutoTypeEnabled`` is.
  public var isSearchingEnabled: Bool? {
    get { enableSearching ?? nil }
    set {
      guard newValue != isSearchingEnabled else { return }
      enableSearching = .some(newValue)
    }
  }

  /// When the group expires, or `nil` when it does not; see ``Entry/expiry``.
  public var expiry: Timestamp? {
    get { times?.expires == true ? times?.expiryTime : nil }
    set { setExpiry(newValue, in: &times) }
  }
}

/// Turns expiry on at `time`, or off for `nil` (keeping the stored time); no change when it already is so.
private func setExpiry(_ time: Timestamp?, in times: inout Times?) {
  var updated = times ?? Times()
  if let time {
    if updated.expires == true && updated.expiryTime == time { return }
    updated.expires = true
    updated.expiryTime = time
  } else {
    guard updated.expires == true else { return }
    updated.expires = false
  }
  times = updated
}

/// The icon `custom` and `standard` describe: the custom icon when it names one (not all zero), else the standard
/// index, `fallback` when absent.
private func storedIcon(custom: KDBXUUID?, standard: Int64?, default fallback: StandardIcon) -> IconReference {
  if let custom, !custom.isZero { return .custom(custom) }
  return .standard(standard.map { Int(clamping: $0) } ?? fallback.rawValue)
}

/// Stores `icon` in the two fields: a standard icon clears the custom one, a custom icon keeps the standard index.
private func storeIcon(_ icon: IconReference, custom: inout KDBXUUID?, standard: inout Int64?) {
  switch icon {
  case .standard(let index):
    standard = Int64(index)
    if custom != nil { custom = nil }
  case .custom(let uuid): custom = uuid
  }
}
