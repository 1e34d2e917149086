extension MetaMerge {
  /// The two-way `Meta` merge, with the fields that carry a `*Changed` timestamp decided against `base` instead:
  /// a field changed on one side only takes that side's value, a field changed on both sides to different values
  /// is a conflict and keeps the local value.
  static func threeWay(base: Meta, local: Meta, remote: Meta, tombstones: [KDBXUUID: DeletedObject])
    -> (Meta, [MergeChange], [MergeConflict])
  {
    var (meta, changes) = twoWay(local: local, remote: remote, tombstones: tombstones)
    var conflicts: [MergeConflict] = []
    func decide<Value: Equatable>(_ name: String, _ value: (Meta) -> Value, _ copy: (inout Meta, Meta) -> Void) {
      changes.removeAll { $0.action == .metaField(name) }
      copy(&meta, local)
      let (b, l, r) = (value(base), value(local), value(remote))
      guard l != r else { return }
      if l == b {
        copy(&meta, remote)
        changes.append(MergeChange(object: .meta, uuid: nil, action: .metaField(name)))
      } else if r != b {
        conflicts.append(MergeConflict(object: .meta, uuid: nil, kind: .metaField(name)))
      }
    }
    decide("DatabaseName", { $0.databaseName }) {
      $0.databaseName = $1.databaseName
      $0.databaseNameChanged = $1.databaseNameChanged
    }
    decide("DatabaseDescription", { $0.databaseDescription }) {
      $0.databaseDescription = $1.databaseDescription
      $0.databaseDescriptionChanged = $1.databaseDescriptionChanged
    }
    decide("DefaultUserName", { $0.defaultUserName }) {
      $0.defaultUserName = $1.defaultUserName
      $0.defaultUserNameChanged = $1.defaultUserNameChanged
    }
    decide("RecycleBinUUID", { [$0.recycleBinUUID?.description ?? "", $0.recycleBinEnabled == true ? "1" : "0"] }) {
      $0.recycleBinUUID = $1.recycleBinUUID
      $0.recycleBinEnabled = $1.recycleBinEnabled
      $0.recycleBinChanged = $1.recycleBinChanged
    }
    decide("EntryTemplatesGroup", { $0.entryTemplatesGroup }) {
      $0.entryTemplatesGroup = $1.entryTemplatesGroup
      $0.entryTemplatesGroupChanged = $1.entryTemplatesGroupChanged
    }
    return (meta, changes, conflicts)
  }
}
