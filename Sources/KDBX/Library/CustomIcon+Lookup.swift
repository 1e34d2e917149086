/// The icon to show for an entry or a group: a custom PNG icon (`Meta/CustomIcons`) or a KeePass standard icon.
public enum DisplayIcon: Sendable, Equatable {
  /// A custom icon and its PNG bytes (KDBX 4.1 specification, "XML": `Meta/CustomIcons/Icon/Data`).
  case custom(uuid: KDBXUUID, png: [UInt8])
  /// A standard icon index, 0...68 in KeePass's palette (kept raw, so unknown indices survive).
  case standard(index: Int64)

  /// The standard icon, when this is a known standard index.
  public var standardIcon: StandardIcon? {
    guard case .standard(let index) = self, let small = Int(exactly: index) else { return nil }
    return StandardIcon(rawValue: small)
  }

  /// A suggested SF Symbol: the standard icon's, or `key.fill` for custom icons and unknown indices.
  public var sfSymbolName: String { standardIcon?.sfSymbolName ?? StandardIcon.fallbackSFSymbolName }
}

extension Database {
  /// The PNG bytes of the custom icon `uuid` from ``Meta/customIcons``, or `nil` when there is none.
  public func customIconData(for uuid: KDBXUUID) -> [UInt8]? {
    meta.customIcons?.first { $0.uuid == uuid }?.data
  }

  /// The icon of `entry`: its custom icon when the database has it, else its `IconID` (KeePass's default 0, key,
  /// when absent).
  public func icon(for entry: Entry) -> DisplayIcon {
    icon(custom: entry.customIconUUID, standard: entry.iconID ?? Int64(StandardIcon.key.rawValue))
  }

  /// The icon of `group`: its custom icon when the database has it, else its `IconID` (KeePass's default 48,
  /// folder, when absent).
  public func icon(for group: Group) -> DisplayIcon {
    icon(custom: group.customIconUUID, standard: group.iconID ?? Int64(StandardIcon.folder.rawValue))
  }

  private func icon(custom: KDBXUUID?, standard: Int64) -> DisplayIcon {
    if let custom, !custom.isZero, let png = customIconData(for: custom) { return .custom(uuid: custom, png: png) }
    return .standard(index: standard)
  }
}
