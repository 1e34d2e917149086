extension Database {
  /// The PNG bytes of the custom icon `uuid` from ``Meta/customIcons``, or `nil` when there is none.
  public func customIconData(for uuid: KDBXUUID) -> [UInt8]? {
    meta.customIcons?.first { $0.uuid == uuid }?.data
  }

  /// The icon to draw for `entry`: its custom icon when the database has that icon's data, else its standard
  /// index (KeePass's default 0, key, when absent).
  public func icon(for entry: Entry) -> IconReference {
    icon(custom: entry.customIconUUID, standard: entry.iconID ?? Int64(StandardIcon.key.rawValue))
  }

  /// The icon to draw for `group`: its custom icon when the database has that icon's data, else its standard
  /// index (KeePass's default 48, folder, when absent).
  public func icon(for group: Group) -> IconReference {
    icon(custom: group.customIconUUID, standard: group.iconID ?? Int64(StandardIcon.folder.rawValue))
  }

  private func icon(custom: KDBXUUID?, standard: Int64) -> IconReference {
    if let custom, !custom.isZero, meta.customIcons?.contains(where: { $0.uuid == custom }) == true {
      return .custom(custom)
    }
    return .standard(Int(clamping: standard))
  }
}
