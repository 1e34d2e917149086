import KDBX
import VectorSupport

/// The two-sided scenarios of the KeePass 2 oracle suite (``MergeKeePassOracleTests``), built on ``MergeFixture``:
/// root with groups A (entries one, two) and B (entry three); times in seconds after a fixed origin.
enum MergeScenarios {
  typealias F = MergeFixture
  static let recycleLocal = F.uuid(60)
  static let recycleRemote = F.uuid(61)

  /// Ours keeps the local version and puts the remote one in the history; KeePass 2 takes the remote version
  /// (`AssignProperties` with "only if newer" copies on equal times) and drops the local one.
  static let tieReason =
    "at the same modification time we keep both versions (local current, remote in the history); KeePass 2 takes the remote one and loses the local one"

  /// A vault with what apps write differently: an empty Notes, an empty default sequence, tags, colours, custom
  /// data, an attachment, a custom protected field, an expiry, and history.
  static func rich() -> Database {
    var database = base()
    var entry = F.entry(F.uuid(30), title: "rich", at: 10)
    entry[field: "UserName"] = .plain("user")
    entry[field: "URL"] = .plain("https://example.com")
    entry[field: "Notes"] = .plain("")
    var random = SplitMix64(seed: 9)
    entry[field: "PIN"] = .protected(ProtectedValue("1234", using: &random))
    entry[field: "plain custom"] = .plain("visible")
    entry.autoType = AutoType(enabled: true, dataTransferObfuscation: 0, defaultSequence: "")
    entry.tagsText = "work,mail"
    entry.foregroundColor = "#ff0000"
    entry.iconID = 12
    var data = CustomData()
    data.items = [CustomData.Item(key: "plugin", value: "value")]
    entry.customData = data
    entry.times?.expires = true
    entry.times?.expiryTime = F.time(1_000_000)
    entry.attachments = [database.makeAttachment(name: "doc.txt", data: Array("attachment v1\n".utf8))]
    F.addEntry(&database, entry, to: F.groupB)
    F.edit(&database, F.uuid(30), at: 20) { $0[field: "Password"] = .plain("second") }
    F.edit(&database, F.uuid(30), at: 30) { $0[field: "UserName"] = .plain("user2") }
    return database
  }

  static func withBin(_ database: inout Database, bin: KDBXUUID, name: String, at seconds: Int64) {
    var group = F.group(bin, name: name)
    group.iconID = 43
    group.times = Times.created(at: F.time(seconds))
    F.mutate(&database) { root in
      if root.uuid == F.root {
        root.groups.append(group)
        root.childOrder.append(false)
      }
    }
    database.meta.recycleBinEnabled = true
    database.meta.recycleBinUUID = bin
    database.meta.recycleBinChanged = F.time(seconds)
  }

  static func group(_ database: inout Database, _ id: KDBXUUID, at seconds: Int64, _ change: (inout Group) -> Void) {
    F.mutate(&database) { group in
      if group.uuid == id {
        change(&group)
        group.times?.lastModificationTime = F.time(seconds)
      }
    }
  }

  static func moveGroup(_ database: inout Database, _ id: KDBXUUID, to target: KDBXUUID, at seconds: Int64) {
    guard var moving = F.group(id, in: database) else { return }
    moving.times?.locationChanged = F.time(seconds)
    F.mutate(&database) { group in
      group.groups.removeAll { $0.uuid == id }
      group.childOrder = group.entries.map { _ in true } + group.groups.map { _ in false }
    }
    F.mutate(&database) { group in
      if group.uuid == target {
        group.groups.append(moving)
        group.childOrder.append(false)
      }
    }
  }

  /// ``MergeFixture/base()`` with every `Meta` change time set, as KeePass and KeePassXC write them (KeePass 2
  /// reads an absent one as the time of reading, which makes that side's value the newer).
  static func base() -> Database {
    var database = F.base()
    database.meta.databaseDescriptionChanged = F.time(0)
    database.meta.defaultUserNameChanged = F.time(0)
    database.meta.recycleBinChanged = F.time(0)
    database.meta.entryTemplatesGroupChanged = F.time(0)
    database.meta.settingsChanged = F.time(0)
    return database
  }

  static func scenario(
    _ name: String, remoteFile: MergeScenario.RemoteFile = .written(.v4_0), remotePassword: String? = nil,
    deliberate: [String] = [], why: String = "", base: Database = base(),
    _ build: (inout Database, inout Database) -> Void
  ) -> MergeScenario {
    var local = base
    var remote = base
    build(&local, &remote)
    return MergeScenario(
      name: name, local: local, remote: remote, remoteFile: remoteFile, remotePassword: remotePassword,
      deliberate: deliberate, why: why)
  }

  static let all: [MergeScenario] = [
    scenario("identical vaults") { _, _ in },
    scenario("same entry edited on both sides, the remote edit newer") { local, remote in
      F.setPassword(&local, F.entry1, "local edit", at: 100)
      F.setPassword(&remote, F.entry1, "remote edit", at: 200)
    },
    scenario("same entry edited on both sides, the local edit newer") { local, remote in
      F.setPassword(&local, F.entry1, "local edit", at: 200)
      F.setPassword(&remote, F.entry1, "remote edit", at: 100)
    },
    scenario(
      "same entry edited on both sides at the same second",
      deliberate: [
        "entry one: fields: ours Password=local edit,Title=one theirs Password=remote edit,Title=one",
        "entry one: history: ours [0 Password=secret,Title=one ] [100 Password=remote edit,Title=one ] theirs [0 Password=secret,Title=one ]",
      ], why: tieReason
    ) { local, remote in
      F.setPassword(&local, F.entry1, "local edit", at: 100)
      F.setPassword(&remote, F.entry1, "remote edit", at: 100)
    },
    scenario("deleted locally, edited remotely after the deletion") { local, remote in
      F.delete(&local, F.entry1, at: 100)
      F.setPassword(&remote, F.entry1, "edited later", at: 200)
    },
    scenario("edited locally, deleted remotely after the edit") { local, remote in
      F.setPassword(&local, F.entry1, "edited earlier", at: 100)
      F.delete(&remote, F.entry1, at: 200)
    },
    scenario("deleted remotely at the second of the local edit") { local, remote in
      F.setPassword(&local, F.entry1, "edited", at: 100)
      F.delete(&remote, F.entry1, at: 100)
    },
    scenario("moved locally, edited remotely") { local, remote in
      F.move(&local, F.entry1, to: F.groupB, at: 150)
      F.setPassword(&remote, F.entry1, "edited remotely", at: 200)
    },
    scenario("moved on both sides, the remote move newer") { local, remote in
      F.move(&local, F.entry3, to: F.groupA, at: 100)
      F.move(&remote, F.entry3, to: F.root, at: 200)
    },
    scenario("group renamed remotely") { _, remote in
      group(&remote, F.groupB, at: 100) { $0.name = "B renamed" }
    },
    scenario(
      "group renamed on both sides at the same second",
      deliberate: ["group B local: name: ours B local theirs B remote"],
      why:
        "a group has no history: at the same modification time the local name stays and the merge reports a conflict; KeePass 2 takes the remote name"
    ) { local, remote in
      group(&local, F.groupB, at: 100) { $0.name = "B local" }
      group(&remote, F.groupB, at: 100) { $0.name = "B remote" }
    },
    scenario("group moved remotely, renamed locally") { local, remote in
      moveGroup(&remote, F.groupB, to: F.groupA, at: 100)
      group(&local, F.groupB, at: 50) { $0.notes = "local notes" }
    },
    scenario("group deleted remotely, an entry in it edited locally after") { local, remote in
      F.delete(&remote, F.groupB, at: 100)
      F.setPassword(&local, F.entry3, "edited after the group deletion", at: 200)
    },
    scenario("attachments with the same name and different content") { local, remote in
      let mine = local.makeAttachment(name: "doc.txt", data: [1, 2, 3])
      F.edit(&local, F.entry1, at: 100) { $0.attachments = [mine] }
      let theirs = remote.makeAttachment(name: "doc.txt", data: [4, 5])
      F.edit(&remote, F.entry1, at: 200) { $0.attachments = [theirs] }
    },
    scenario("history on both sides, six interleaved edits each, trimmed to HistoryMaxItems 10") { local, remote in
      for step in 0..<6 {
        F.setPassword(&local, F.entry1, "local \(step)", at: Int64(100 + 20 * step))
        F.setPassword(&remote, F.entry1, "remote \(step)", at: Int64(110 + 20 * step))
      }
    },
    scenario("history on both sides with HistoryMaxItems -1 (unlimited)") { local, remote in
      local.meta.historyMaxItems = -1
      remote.meta.historyMaxItems = -1
      for step in 0..<7 {
        F.setPassword(&local, F.entry1, "local \(step)", at: Int64(100 + 20 * step))
        F.setPassword(&remote, F.entry1, "remote \(step)", at: Int64(110 + 20 * step))
      }
    },
    scenario(
      "history trimmed to HistoryMaxSize",
      deliberate: [
        "entry one: history: ours [0 Password=secret,Title=one ] [100 Password=\(String(repeating: "l", count: 300)),Title=one ] theirs "
      ],
      why:
        "not intended: EntryHistory's approximateSize follows KeePass 2.3x's PwEntry.GetSize (128 bytes + 1 per character), KeePass 2.47 counts 248 bytes + 40 per field + 2 per character (+65 per attachment, 8 per history item and tag, 24 per auto-type association, 16 per custom data item), so it trims more; the size formula belongs to EntryHistory"
    ) { local, remote in
      local.meta.historyMaxSize = 700
      remote.meta.historyMaxSize = 700
      F.setPassword(&local, F.entry1, String(repeating: "l", count: 300), at: 100)
      F.setPassword(&remote, F.entry1, String(repeating: "r", count: 300), at: 200)
    },
    scenario("custom fields added on both sides") { local, remote in
      F.edit(&local, F.entry2, at: 100) { $0[field: "local field"] = .plain("L") }
      F.edit(&remote, F.entry2, at: 200) { $0[field: "remote field"] = .plain("R") }
    },
    scenario("recycle bins on both sides") { local, remote in
      withBin(&local, bin: recycleLocal, name: "Recycle Bin", at: 50)
      F.move(&local, F.entry1, to: recycleLocal, at: 60)
      withBin(&remote, bin: recycleRemote, name: "Recycle Bin", at: 70)
      F.move(&remote, F.entry3, to: recycleRemote, at: 80)
    },
    scenario("new entries with colliding titles on both sides") { local, remote in
      F.addEntry(&local, F.entry(F.uuid(41), title: "same title", password: "local", at: 100), to: F.groupA)
      F.addEntry(&remote, F.entry(F.uuid(42), title: "same title", password: "remote", at: 100), to: F.groupA)
      F.addEntry(&remote, F.group(F.uuid(43), name: "new remote group"), to: F.root)
    },
    scenario("clock skew: the remote device an hour ahead") { local, remote in
      // Edited later in real time on the local device, but the remote clock stamps its older edit later.
      F.setPassword(&remote, F.entry2, "older edit, clock ahead", at: 3_700)
      F.setPassword(&local, F.entry2, "newer edit, clock right", at: 200)
    },
    scenario("the other side in KDBX 3.1", remoteFile: .written(.v3_1)) { local, remote in
      F.setPassword(&remote, F.entry1, "from a 3.1 file", at: 200)
      F.delete(&remote, F.entry2, at: 300)
      F.addEntry(&local, F.entry(F.uuid(44), title: "local new", at: 100), to: F.groupB)
    },
    scenario("different master passwords", remotePassword: MergeKeePassOracleTests.otherPassword) { local, remote in
      F.setPassword(&remote, F.entry3, "remote edit", at: 200)
      F.setPassword(&local, F.entry1, "local edit", at: 100)
    },
    scenario("database name changed remotely, description locally") { local, remote in
      remote.meta.databaseName = "renamed"
      remote.meta.databaseNameChanged = F.time(100)
      local.meta.databaseDescription = "local description"
      local.meta.databaseDescriptionChanged = F.time(100)
    },
    scenario("tags, icon and colours edited remotely") { _, remote in
      F.edit(&remote, F.entry1, at: 100) { entry in
        entry.tagsText = "a;b"
        entry.iconID = 5
        entry.foregroundColor = "#00FF00"
      }
    },
    scenario("the same edit on both sides") { local, remote in
      F.setPassword(&local, F.entry1, "same", at: 100)
      F.setPassword(&remote, F.entry1, "same", at: 100)
    },
    scenario("re-saved by KeePass 2", remoteFile: .resavedByKeePass2, base: rich()) { _, _ in },
    scenario("re-saved by keepassxc-cli", remoteFile: .resavedByKeePassXC, base: rich()) { _, _ in },
    scenario("re-saved by pykeepass", remoteFile: .resavedByPykeepass, base: rich()) { _, _ in },
  ]
}

extension MergeFixture {
  /// Adds a group (`addEntry`'s counterpart).
  static func addEntry(_ database: inout Database, _ group: Group, to target: KDBXUUID) {
    mutate(&database) { parent in
      if parent.uuid == target {
        parent.groups.append(group)
        parent.childOrder.append(false)
      }
    }
  }
}
