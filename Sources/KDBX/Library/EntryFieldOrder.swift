// The order in which KeePass clients list an entry's string fields (KeePass's entry dialog, keepassxc-cli `show`).

extension Entry {
  /// The five standard field names (KeePass `PwDefs`), in the order clients show them.
  package static let standardFieldNames = [titleField, userNameField, passwordField, urlField, notesField]

  /// The entry's fields in display order: the five standard fields first, in ``standardFieldNames`` order (`nil`
  /// where the entry has no such field), then every other field in file order.
  ///
  /// One pass over ``fields``, so an entry with 100,000 custom fields is listed in linear time; looking each name
  /// up with ``subscript(field:)`` instead scans the fields once per name. When a standard name occurs more than
  /// once, the first occurrence is shown, as ``subscript(field:)`` reads it.
  package func displayedFields() -> [(name: String, value: FieldValue?)] {
    var standard: [FieldValue?] = [nil, nil, nil, nil, nil]
    var custom: [(name: String, value: FieldValue?)] = []
    for field in fields {
      if let slot = Self.standardFieldNames.firstIndex(of: field.key) {
        if standard[slot] == nil { standard[slot] = field.value }
      } else {
        custom.append((field.key, field.value))
      }
    }
    var result: [(name: String, value: FieldValue?)] = []
    result.reserveCapacity(Self.standardFieldNames.count + custom.count)
    for (slot, name) in Self.standardFieldNames.enumerated() { result.append((name, standard[slot])) }
    result.append(contentsOf: custom)
    return result
  }
}
