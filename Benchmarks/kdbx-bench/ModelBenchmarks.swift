// Model operations that were quadratic in the size of one entry (issue #19 item 9): editing an entry with a long
// history (the history is trimmed to Meta's limits) and listing an entry with many custom fields (what `kdbx show`
// prints). Registered in main.swift through `modelBenchmarks()`.
import KDBX

/// An entry with `historyCount` history items (one minute apart, so trimming has an order to follow) and
/// `fieldCount` custom fields, alone in a database whose Meta keeps KeePass's default of 10 history items.
func benchmarkDatabase(historyCount: Int, fieldCount: Int) -> (Database, KDBXUUID) {
  var random = SystemRandomNumberGenerator()
  let clock = FixedClock(Timestamp(unixSeconds: 1_700_000_000))
  var database = Database.new(name: "bench", clock: clock, random: &random)
  var entry = Entry.new(clock: clock, random: &random)
  entry[field: Entry.titleField] = .plain("Entry")
  for index in 0..<fieldCount {
    entry.fields.append(EntryField(key: "Field \(index)", value: .plain("value \(index)")))
  }
  var history: [Entry] = []
  history.reserveCapacity(historyCount)
  for index in 0..<historyCount {
    var old = entry
    old[field: Entry.userNameField] = .plain("user \(index)")
    old.times?.lastModificationTime = Timestamp(unixSeconds: 1_600_000_000 + Int64(index) * 60)
    history.append(old)
  }
  entry.history = history
  database.meta.historyMaxItems = 10
  let root = database.root?.uuid ?? entry.uuid
  _ = database.addEntry(entry, to: root)
  return (database, entry.uuid)
}

func modelBenchmarks() -> [Benchmark] {
  [
    // `kdbx edit` on an entry with 20,000 history items: snapshot, touch, trim to 10 (one copy of the database each).
    Benchmark(name: "entry-edit-history20000", unit: .millisecondsPerIteration, runs: 5) {
      let (database, uuid) = benchmarkDatabase(historyCount: 20_000, fieldCount: 0)
      let clock = FixedClock(Timestamp(unixSeconds: 1_800_000_000))
      return { iterations in
        for _ in 0..<iterations {
          var copy = database
          blackHole(copy.editEntry(uuid, clock: clock) { $0[field: Entry.userNameField] = .plain("edited") })
        }
      }
    },
    // The fields `kdbx show` lists for an entry with 100,000 custom fields, in display order.
    Benchmark(name: "entry-show-fields100000", unit: .millisecondsPerIteration, runs: 5) {
      let (database, uuid) = benchmarkDatabase(historyCount: 0, fieldCount: 100_000)
      let entry = database.entry(withUUID: uuid) ?? Entry(uuid: uuid)
      return { iterations in
        for _ in 0..<iterations { blackHole(entry.displayedFields()) }
      }
    },
  ]
}
