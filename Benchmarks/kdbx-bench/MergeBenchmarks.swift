// Merge benchmarks (issue #19 item 9, issue #26): `DatabaseMerge.synchronize` on a vault whose one entry has N
// history items, merged with itself (`kdbx merge f f`) and with a copy another app re-saved (fields in another
// order, `<DefaultSequence/>` left out) that carries one newer edit, so that the histories are united version by
// version. Registered in main.swift through `mergeBenchmarks()`. History limits are off (-1), so that the figures
// are the merge's own.
import KDBX

/// A vault with one entry of six fields and `count` history items, one second apart.
func historyVault(_ count: Int) -> Database {
  func version(_ step: Int) -> Entry {
    var entry = Entry(uuid: KDBXUUID(bytes: [UInt8](repeating: 0x42, count: 16)) ?? .zero)
    entry.times = Times.created(at: Timestamp(unixSeconds: 1_700_000_000 + Int64(step)))
    entry[field: "Title"] = .plain("account")
    entry[field: "UserName"] = .plain("user@example.com")
    entry[field: "Password"] = .plain("password \(step)")
    entry[field: "URL"] = .plain("https://example.com/login")
    entry[field: "Notes"] = .plain("")
    entry[field: "custom"] = .plain("value \(step % 7)")
    entry.autoType = AutoType(enabled: true, dataTransferObfuscation: 0, defaultSequence: "")
    return entry
  }
  var current = version(count)
  current.history = (0..<count).map(version)
  var root = Group(uuid: KDBXUUID(bytes: [UInt8](repeating: 0x01, count: 16)) ?? .zero, name: "Root")
  root.entries = [current]
  root.childOrder = [true]
  var meta = Meta()
  meta.historyMaxItems = -1
  meta.historyMaxSize = -1
  return Database(meta: meta, root: root)
}

/// `database` as another app writes it (fields reversed, empty default sequence left out), with one newer edit.
func resavedWithEdit(_ database: Database) -> Database {
  func rewrite(_ entry: Entry) -> Entry {
    var copy = entry
    copy.fields.reverse()
    copy.autoType?.defaultSequence = nil
    copy.history = entry.history?.map(rewrite)
    return copy
  }
  var copy = database
  guard var root = copy.root, var entry = root.entries.first else { return copy }
  entry = rewrite(entry)
  var old = entry
  old.history = nil
  entry.history = (entry.history ?? []) + [old]
  entry[field: "Password"] = .plain("newest")
  entry.times?.lastModificationTime = Timestamp(unixSeconds: 1_800_000_000)
  root.entries = [entry]
  copy.root = root
  return copy
}

func mergeBenchmarks() -> [Benchmark] {
  var benchmarks: [Benchmark] = []
  for count in [8_000, 12_000, 20_000] {
    let label = "\(count / 1_000)k"
    benchmarks.append(
      Benchmark(name: "merge-history-\(label)-same", unit: .millisecondsPerIteration, runs: 3) {
        let vault = historyVault(count)
        return { iterations in
          for _ in 0..<iterations { blackHole(DatabaseMerge.synchronize(local: vault, remote: vault)) }
        }
      })
    benchmarks.append(
      Benchmark(name: "merge-history-\(label)-resaved", unit: .millisecondsPerIteration, runs: 3) {
        let vault = historyVault(count)
        let other = resavedWithEdit(vault)
        return { iterations in
          for _ in 0..<iterations { blackHole(DatabaseMerge.synchronize(local: vault, remote: other)) }
        }
      })
  }
  return benchmarks
}
