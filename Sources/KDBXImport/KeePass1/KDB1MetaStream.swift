import KDBX

/// Meta-stream entries: KeePass 1.x and KeePassX store settings and UI state as hidden entries titled `Meta-Info`,
/// user name `SYSTEM`, URL `$`, icon 0, the stream's name in the notes and its data in an attachment named
/// `bin-stream` (KeePass 1.x `CPwManager::_IsMetaStream`; KeePassXC `KeePass1Reader::isMetaStream`). They are
/// consumed, never shown as entries. Read here, as KeePassXC reads them:
///
/// - `KPX_CUSTOM_ICONS_4` (KeePassX): custom icons and which entries and groups use them;
/// - `KPX_GROUP_TREE_STATE` (KeePassX): which groups are expanded;
/// - `Default User Name` (KeePass 1.x): the database's default user name (UTF-8, NUL-ended).
///
/// Others (`Simple UI State`, `Search History Items`, ...) are window state of the old application and are dropped,
/// as KeePassXC drops them.
enum KDB1MetaStream {
  static let customIcons = "KPX_CUSTOM_ICONS_4"
  static let groupTreeState = "KPX_GROUP_TREE_STATE"
  static let defaultUserName = "Default User Name"

  /// Whether `entry` is a meta-stream (which needs attachment data, as KeePass 1.x's check of `pBinaryData` does).
  static func isMetaStream(_ entry: KDB1Records.EntryRecord) -> Bool {
    guard let data = entry.binaryData, !data.isEmpty, !entry.notes.isEmpty else { return false }
    return entry.binaryDescription.elementsEqual("bin-stream".utf8) && entry.title.elementsEqual("Meta-Info".utf8)
      && entry.userName.elementsEqual("SYSTEM".utf8) && entry.url.elementsEqual("$".utf8) && (entry.image ?? 0) == 0
  }

  /// `KPX_CUSTOM_ICONS_4`: `UInt32` icon, entry and group counts; each icon as a `UInt32` size and its PNG data;
  /// each entry as its 16-byte UUID and a `UInt32` icon index; each group as its `UInt32` ID and an icon index.
  struct CustomIcons {
    var icons: [[UInt8]] = []
    var entries: [(uuid: [UInt8], icon: UInt32)] = []
    var groups: [(groupID: UInt32, icon: UInt32)] = []
  }

  /// Reads `KPX_CUSTOM_ICONS_4`. Like KeePassXC, a stream that ends early keeps what was read before the end.
  static func readCustomIcons(_ data: [UInt8]) -> CustomIcons {
    var result = CustomIcons()
    var reader = ByteReader(data)
    guard let iconCount = try? reader.readUInt32(), let entryCount = try? reader.readUInt32(),
      let groupCount = try? reader.readUInt32()
    else { return result }
    for _ in 0..<UInt64(iconCount) {
      // Each icon needs at least its 4-byte size: a count beyond that is damage, and stops the loop early.
      guard let size = try? reader.readUInt32(), let length = Int(exactly: size),
        let icon = try? reader.readBytes(length)
      else { return result }
      result.icons.append(icon)
    }
    guard UInt64(entryCount) * 20 <= UInt64(reader.remainingCount) else { return result }
    for _ in 0..<Int(entryCount) {
      guard let uuid = try? reader.readBytes(16), let icon = try? reader.readUInt32() else { return result }
      result.entries.append((uuid, icon))
    }
    guard UInt64(groupCount) * 8 <= UInt64(reader.remainingCount) else { return result }
    for _ in 0..<Int(groupCount) {
      guard let groupID = try? reader.readUInt32(), let icon = try? reader.readUInt32() else { return result }
      result.groups.append((groupID, icon))
    }
    return result
  }

  /// Reads `KPX_GROUP_TREE_STATE`: a `UInt32` count, then per group its `UInt32` ID and one byte, non-zero when the
  /// group is expanded. `nil` when the size does not match the count (KeePassXC ignores such a stream).
  static func readGroupTreeState(_ data: [UInt8]) -> [(groupID: UInt32, expanded: Bool)]? {
    var reader = ByteReader(data)
    guard let count = try? reader.readUInt32(), UInt64(count) * 5 == UInt64(reader.remainingCount) else { return nil }
    var result: [(groupID: UInt32, expanded: Bool)] = []
    for _ in 0..<Int(count) {
      guard let groupID = try? reader.readUInt32(), let flag = try? reader.readUInt8() else { return nil }
      result.append((groupID, flag != 0))
    }
    return result
  }
}
