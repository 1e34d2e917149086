// SAFETY: `versions` is written only through `Entry.history`'s accessors, which first make the box unique to
// the entry that writes (`isKnownUniquelyReferenced`, else a copy), and by `deinit`, which runs when nothing else
// holds the box; a box shared between entries (and so between threads) is only ever read.
/// Where an entry keeps its ``Entry/history``: a box whose release never recurses.
///
/// A file's history versions hold no history of their own, but an app can nest ``Entry/history`` to any depth,
/// and the runtime frees a value type's stored array by freeing its elements, each of which frees its own array:
/// a chain of about 50,000 nested versions runs out of an 8 MiB stack when it is dropped. The box's `deinit`
/// takes the nested versions it alone holds out of their boxes first and releases them one at a time, so that
/// every release below it finds an empty box. The entry keeps value semantics: it writes through the box only
/// when it holds the only reference to it (copy on write).
package final class EntryHistoryStorage: @unchecked Sendable {
  var versions: [Entry]?

  init(_ versions: [Entry]?) { self.versions = versions }

  deinit {
    guard var pending = versions else { return }
    versions = nil
    while var version = pending.popLast() {
      // A box that only this version holds: its versions move to `pending`, so that releasing the version below
      // frees an empty box. A shared box stays as it is: dropping this reference frees nothing.
      if isKnownUniquelyReferenced(&version.historyStorage), let nested = version.historyStorage?.versions {
        version.historyStorage?.versions = nil
        pending.append(contentsOf: nested)
      }
    }
  }
}
