import KDBX
import KDBXBase

// The AutoFill candidates of a database: every URL the KeePass family stores for an entry, with references
// resolved, and the entries an AutoFill list must not offer left out.
//
// Where the peers keep URLs:
// - the `URL` field (KeePass), with `{REF:U@I:...}` field references resolved (KeePass `SprEngine`);
// - `KP2A_URL`, `KP2A_URL_1`, `KP2A_URL_2`, ... custom fields (KeePass2Android, KeePassDX, KeePassXC 2.6+ "additional
//   URLs", Strongbox);
// - the entry's custom data item `KeePassXC-Browser Settings`, a JSON object whose `Allow` list names hosts the user
//   allowed for the entry and whose `Deny` list names hosts never to fill (KeePassXC `BrowserEntryConfig`).

extension MatchCandidate where ID == KDBXUUID {
  /// The name of KeePassXC's browser-integration custom data item.
  public static var keePassXCBrowserSettingsKey: String { "KeePassXC-Browser Settings" }

  /// The candidate for `entry`: its `URL` field (references and placeholders resolved in `database`), its
  /// `KP2A_URL*` fields and the hosts its KeePassXC browser settings allow, and the hosts they deny.
  public init(entry: Entry, in database: Database) {
    let resolver = PlaceholderResolver(database: database)
    self.init(entry: entry, resolver: resolver)
  }

  init(entry: Entry, resolver: PlaceholderResolver) {
    func resolved(_ key: String, _ raw: String) -> String {
      raw.utf8.contains(0x7B) ? resolver.value(ofField: key, for: entry) : raw
    }
    var additional: [String] = []
    for field in entry.fields where Self.isAdditionalURLField(field.key) {
      let text = resolved(field.key, field.value.reveal())
      if !text.trimmingASCIIWhitespace().isEmpty { additional.append(text) }
    }
    var denied: [String] = []
    if let settings = entry.customData?.items.first(where: { $0.key == Self.keePassXCBrowserSettingsKey })?.value {
      additional += BrowserSettingsJSON.strings(in: settings, forKey: "Allow")
      denied = BrowserSettingsJSON.strings(in: settings, forKey: "Deny")
    }
    self.init(id: entry.uuid, url: resolved(Entry.urlField, entry.url), additionalURLs: additional)
    self.deniedHosts = denied
  }

  /// Whether `key` is `KP2A_URL` or `KP2A_URL_` followed by digits.
  static func isAdditionalURLField(_ key: String) -> Bool {
    guard key.hasPrefix("KP2A_URL") else { return false }
    let rest = key.dropFirst("KP2A_URL".count)
    if rest.isEmpty { return true }
    guard rest.hasPrefix("_"), rest.count > 1 else { return false }
    return rest.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }
}

extension Database {
  /// The AutoFill candidates: one per current entry, in tree order, except the entries in the recycle bin, the
  /// entries that have expired at `now`, and the entries of groups that turn searching off (KeePass leaves those
  /// out of searches and auto-type; the bin is one of them). Pass the result to ``CredentialMatcher/match(_:in:)``.
  public func matchCandidates(now: Timestamp) -> [MatchCandidate<KDBXUUID>] {
    let resolver = PlaceholderResolver(database: self)
    var out: [MatchCandidate<KDBXUUID>] = []
    for item in flatEntries where !item.isInRecycleBin && !item.entry.isExpired(at: now) {
      out.append(MatchCandidate(entry: item.entry, resolver: resolver))
    }
    return out
  }
}

/// Reads string arrays from KeePassXC's browser settings JSON (`{"Allow":["a.com"],"Deny":[],"Realm":""}`). A
/// small reader for this one shape: anything it does not understand gives an empty list.
enum BrowserSettingsJSON {
  static func strings(in json: String, forKey key: String) -> [String] {
    let bytes = Array(json.utf8)
    let needle = Array("\"\(key)\"".utf8)
    guard bytes.count >= needle.count, bytes.count <= 1 << 20 else { return [] }
    var start: Int? = nil
    for index in 0...(bytes.count - needle.count) where bytes[index..<(index + needle.count)].elementsEqual(needle) {
      start = index + needle.count
      break
    }
    guard var position = start else { return [] }
    func skipSpace() {
      while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
    }
    skipSpace()
    guard position < bytes.count, bytes[position] == 0x3A else { return [] }  // ':'
    position += 1
    skipSpace()
    guard position < bytes.count, bytes[position] == 0x5B else { return [] }  // '['
    position += 1
    var out: [String] = []
    while true {
      skipSpace()
      guard position < bytes.count else { return [] }
      if bytes[position] == 0x5D { return out }  // ']'
      if bytes[position] == 0x2C {  // ','
        position += 1
        continue
      }
      guard bytes[position] == 0x22 else { return [] }  // '"'
      position += 1
      var text: [UInt8] = []
      while position < bytes.count, bytes[position] != 0x22 {
        if bytes[position] == 0x5C, position + 1 < bytes.count {  // a backslash escape: keep the next byte
          position += 1
        }
        text.append(bytes[position])
        position += 1
      }
      guard position < bytes.count else { return [] }
      position += 1
      out.append(String(decoding: text, as: UTF8.self))
    }
  }
}
