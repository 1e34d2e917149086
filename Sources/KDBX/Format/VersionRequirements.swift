/// A feature of the content or settings that needs a KDBX version newer than some target (KeePass
/// `KdbxFile.GetMinKdbxVersion` rules).
package enum VersionFeature: Sendable, Hashable {
  /// KDBX 4.1: tags on groups.
  case groupTags
  /// KDBX 4.1: a custom icon name or modification time.
  case customIconMetadata
  /// KDBX 4.1: an entry or group remembering its previous parent group.
  case previousParentGroup
  /// KDBX 4.1: an entry excluded from password quality checks (`QualityCheck` = False).
  case qualityCheckDisabled
  /// KDBX 4.1: a custom data item's modification time.
  case customDataItemModificationTime
  /// KDBX 4.0: custom data on a group or entry.
  case groupOrEntryCustomData
  /// KDBX 4.0: a KDF other than AES-KDF (Argon2). AES-KDF is written under the KeePass 2 UUID in every version, so
  /// a file read with KeePassXC's KDBX 4 alias UUID converts to 3.1 without loss.
  case kdf
  /// KDBX 4.0: public custom data in the outer header.
  case publicCustomData

  /// The oldest version that can store the feature.
  package var minimumVersion: KDBXVersion {
    switch self {
    case .groupTags, .customIconMetadata, .previousParentGroup, .qualityCheckDisabled, .customDataItemModificationTime:
      return .v4_1
    case .groupOrEntryCustomData, .kdf, .publicCustomData:
      return .v4_0
    }
  }
}

/// The features a save would lose by writing an older version than the content needs. An empty report means no
/// loss. Pass an accepted report in `SaveSettings.acceptedDowngrade` to write the older version anyway.
package struct DowngradeReport: Sendable, Equatable {
  /// The version that would be written.
  package var target: KDBXVersion
  /// Each feature that `target` cannot carry, once, in a stable order.
  package var lostFeatures: [VersionFeature]

  /// Compares `database` and `settings` with `target`.
  package init(database: Database, settings: SaveSettings, target: KDBXVersion) {
    self.target = target
    lostFeatures = VersionRequirements.features(of: database, settings: settings).filter {
      $0.minimumVersion > target
    }
  }

  package var isEmpty: Bool { lostFeatures.isEmpty }
}

/// Finds the minimum KDBX version that stores a database without loss.
package enum VersionRequirements {
  /// The features of `database` and `settings` that need more than KDBX 3.1, each once.
  package static func features(of database: Database, settings: SaveSettings) -> [VersionFeature] {
    var found: [VersionFeature] = []
    func note(_ feature: VersionFeature) { if !found.contains(feature) { found.append(feature) } }
    if case .argon2 = settings.kdf { note(.kdf) }
    if let custom = settings.publicCustomData, !custom.items.isEmpty { note(.publicCustomData) }
    for icon in database.meta.customIcons ?? [] where icon.name != nil || icon.lastModificationTime != nil {
      note(.customIconMetadata)
    }
    if database.meta.customData?.items.contains(where: { $0.lastModificationTime != nil }) == true {
      note(.customDataItemModificationTime)
    }
    func visit(customData: CustomData?) {
      guard let customData, !customData.isEmpty else { return }
      note(.groupOrEntryCustomData)
      if customData.items.contains(where: { $0.lastModificationTime != nil }) { note(.customDataItemModificationTime) }
    }
    // By index, reading only the fields needed: a loop over the entries would copy each whole entry.
    func visit(entries: [Entry]) {
      for index in entries.indices {
        entries[index].forEveryVersion { version in
          visit(customData: version.customData)
          if let parent = version.previousParentGroup, !parent.isZero { note(.previousParentGroup) }
          if version.qualityCheck == false { note(.qualityCheckDisabled) }
        }
      }
    }
    func visit(group: Group) {
      visit(customData: group.customData)
      if let tags = group.tagsText, !tags.isEmpty { note(.groupTags) }
      if let parent = group.previousParentGroup, !parent.isZero { note(.previousParentGroup) }
      visit(entries: group.entries)
    }
    if let root = database.root {
      visit(group: root)
      var walk = GroupWalk(below: root)
      while let step = walk.next() {
        if case .enter(let group, _) = step { visit(group: group) }
      }
    }
    return found
  }

  /// The oldest version that stores `database` with `settings` without loss (at least KDBX 3.1).
  package static func minimumVersion(for database: Database, settings: SaveSettings) -> KDBXVersion {
    features(of: database, settings: settings).map { $0.minimumVersion }.max() ?? .v3_1
  }

  /// The version a save writes: the requested version, raised to the minimum the content needs unless the caller
  /// accepted exactly the losses of writing the requested version.
  package static func effectiveVersion(for database: Database, settings: SaveSettings) -> KDBXVersion {
    let requested = settings.version < .v3_1 ? KDBXVersion.v3_1 : settings.version
    let minimum = minimumVersion(for: database, settings: settings)
    guard requested < minimum else { return requested }
    if let accepted = settings.acceptedDowngrade,
      accepted == DowngradeReport(database: database, settings: settings, target: requested)
    {
      return requested
    }
    return minimum
  }
}
