// Identity of model values for app code: `Identifiable` (SwiftUI lists, diffing) and `Hashable` (sets, dictionary
// keys, selection state).
//
// The hashes use the UUID (and for fields the name and the value's length) only: values that are equal always hash
// equally, hashing stays cheap for an entry with a long history, and no secret is fed to a hasher.

extension Entry: Identifiable, Hashable {
  /// The entry's UUID. KDBX requires it to be unique among current entries (a damaged file may break this).
  public var id: KDBXUUID { uuid }

  public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }
}

extension Group: Identifiable, Hashable {
  /// The group's UUID.
  public var id: KDBXUUID { uuid }

  public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }
}

extension FlatEntry: Identifiable, Hashable {
  /// The entry's UUID.
  public var id: KDBXUUID { entry.uuid }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(entry.uuid)
    hasher.combine(parentGroupUUID)
  }
}

extension CustomIcon: Identifiable, Hashable {
  /// The icon's UUID.
  public var id: KDBXUUID { uuid }

  public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }
}

extension DeletedObject: Identifiable, Hashable {
  /// The deleted object's UUID.
  public var id: KDBXUUID { uuid }

  public func hash(into hasher: inout Hasher) { hasher.combine(uuid) }
}

extension ProtectedValue: Hashable {
  /// Hashes the length only: equal plaintexts have equal lengths, and the plaintext never reaches the hasher.
  public func hash(into hasher: inout Hasher) { hasher.combine(byteCount) }
}

extension FieldValue: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .plain(let text):
      hasher.combine(0)
      hasher.combine(text.utf8.count)
    case .protected(let value):
      hasher.combine(1)
      hasher.combine(value)
    }
  }
}

extension EntryField: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(key)
    hasher.combine(value)
  }
}

extension Attachment: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(name)
    hasher.combine(binaryIndex)
  }
}
