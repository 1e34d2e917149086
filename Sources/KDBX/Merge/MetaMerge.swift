/// Merges `Meta`: each field group follows its own `*Changed` timestamp (KeePass `PwDatabase.MergeIn`), the other
/// settings follow `SettingsChanged`, custom icons and custom data are united by UUID/key (newer
/// `LastModificationTime` wins, KDBX 4.1), and custom icons with a newer tombstone are removed.
enum MetaMerge {
  static func twoWay(local: Meta, remote: Meta, tombstones: [KDBXUUID: DeletedObject]) -> (Meta, [MergeChange]) {
    var meta = local
    var changes: [MergeChange] = []
    func newer(_ remoteTime: Timestamp?, _ localTime: Timestamp?) -> Bool {
      (remoteTime ?? .minimum) > (localTime ?? .minimum)
    }
    if newer(remote.databaseNameChanged, local.databaseNameChanged), remote.databaseName != local.databaseName {
      meta.databaseName = remote.databaseName
      meta.databaseNameChanged = remote.databaseNameChanged
      changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("DatabaseName")))
    }
    if newer(remote.databaseDescriptionChanged, local.databaseDescriptionChanged),
      remote.databaseDescription != local.databaseDescription
    {
      meta.databaseDescription = remote.databaseDescription
      meta.databaseDescriptionChanged = remote.databaseDescriptionChanged
      changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("DatabaseDescription")))
    }
    if newer(remote.defaultUserNameChanged, local.defaultUserNameChanged),
      remote.defaultUserName != local.defaultUserName
    {
      meta.defaultUserName = remote.defaultUserName
      meta.defaultUserNameChanged = remote.defaultUserNameChanged
      changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("DefaultUserName")))
    }
    if newer(remote.recycleBinChanged, local.recycleBinChanged),
      remote.recycleBinUUID != local.recycleBinUUID || remote.recycleBinEnabled != local.recycleBinEnabled
    {
      meta.recycleBinEnabled = remote.recycleBinEnabled
      meta.recycleBinUUID = remote.recycleBinUUID
      meta.recycleBinChanged = remote.recycleBinChanged
      changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("RecycleBinUUID")))
    }
    if newer(remote.entryTemplatesGroupChanged, local.entryTemplatesGroupChanged),
      remote.entryTemplatesGroup != local.entryTemplatesGroup
    {
      meta.entryTemplatesGroup = remote.entryTemplatesGroup
      meta.entryTemplatesGroupChanged = remote.entryTemplatesGroupChanged
      changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("EntryTemplatesGroup")))
    }
    if newer(remote.settingsChanged, local.settingsChanged) {
      var changed = false
      if remote.color != local.color { meta.color = remote.color; changed = true }
      if remote.maintenanceHistoryDays != local.maintenanceHistoryDays {
        meta.maintenanceHistoryDays = remote.maintenanceHistoryDays
        changed = true
      }
      if remote.historyMaxItems != local.historyMaxItems {
        meta.historyMaxItems = remote.historyMaxItems
        changed = true
      }
      if remote.historyMaxSize != local.historyMaxSize { meta.historyMaxSize = remote.historyMaxSize; changed = true }
      if remote.memoryProtection != local.memoryProtection {
        meta.memoryProtection = remote.memoryProtection
        changed = true
      }
      meta.settingsChanged = remote.settingsChanged
      if changed { changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("SettingsChanged"))) }
    }
    let (icons, iconChanges) = customIcons(local: local.customIcons, remote: remote.customIcons, tombstones: tombstones)
    if iconChanges.isEmpty == false || icons != local.customIcons { meta.customIcons = icons }
    changes += iconChanges
    let (data, dataChanged) = customData(local: local.customData, remote: remote.customData)
    if dataChanged {
      meta.customData = data
      changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField("CustomData")))
    }
    return (meta, changes)
  }

  static func customIcons(local: [CustomIcon]?, remote: [CustomIcon]?, tombstones: [KDBXUUID: DeletedObject])
    -> ([CustomIcon]?, [MergeChange])
  {
    guard local != nil || remote != nil else { return (nil, []) }
    var icons = local ?? []
    var changes: [MergeChange] = []
    for icon in remote ?? [] {
      if let index = icons.firstIndex(where: { $0.uuid == icon.uuid }) {
        if (icon.lastModificationTime ?? .minimum) > (icons[index].lastModificationTime ?? .minimum),
          icon != icons[index]
        {
          icons[index] = icon
          changes.append(MergeChange(object: .customIcon, uuid: icon.uuid, action: .updated))
        }
      } else if let tombstone = tombstones[icon.uuid],
        (icon.lastModificationTime ?? .minimum) <= (tombstone.deletionTime ?? .maximum)
      {
        continue
      } else {
        icons.append(icon)
        changes.append(MergeChange(object: .customIcon, uuid: icon.uuid, action: .added(parent: nil)))
      }
    }
    icons.removeAll { icon in
      guard let tombstone = tombstones[icon.uuid],
        (icon.lastModificationTime ?? .minimum) <= (tombstone.deletionTime ?? .maximum)
      else { return false }
      changes.append(MergeChange(object: .customIcon, uuid: icon.uuid, action: .deleted))
      return true
    }
    return (icons, changes)
  }

  static func customData(local: CustomData?, remote: CustomData?) -> (CustomData?, Bool) {
    guard let remote, !remote.items.isEmpty else { return (local, false) }
    var data = local ?? CustomData()
    var changed = false
    // KeePassXC rewrites `_LAST_MODIFIED` at every save; its own merge skips it (`Merger::mergeMetadata`).
    for item in remote.items where item.key != MergeEquivalence.keePassXCLastModifiedKey {
      if let index = data.items.firstIndex(where: { $0.key == item.key }) {
        if (item.lastModificationTime ?? .minimum) > (data.items[index].lastModificationTime ?? .minimum),
          item != data.items[index]
        {
          data.items[index] = item
          changed = true
        }
      } else {
        data.items.append(item)
        changed = true
      }
    }
    return (data, changed)
  }
}
