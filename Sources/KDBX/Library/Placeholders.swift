import KDBXBase

/// Resolves KeePass placeholders and field references in entry text (KeePass help "Placeholders" and "Field
/// References"; KeePassLib `SprEngine`).
///
/// Supported placeholders (names in any case): `{TITLE}`, `{USERNAME}`, `{URL}`, `{PASSWORD}`, `{NOTES}`,
/// `{UUID}` (32 uppercase hex digits, as KeePass), `{GROUP}` (the parent group's name), `{S:Name}` (any string
/// field; exact name first, then ignoring case), `{URL:RMVSCM}`, `{URL:SCM}` / `{URL:SCHEME}`, `{URL:HOST}`,
/// `{URL:PORT}`, `{URL:PATH}`, `{URL:QUERY}`, `{URL:FRAGMENT}`, `{URL:USERINFO}`, `{URL:USERNAME}`,
/// `{URL:PASSWORD}` (see `URLParts`), `{TOTP}` (through the ``oneTimePassword`` provider) and
/// `{REF:W@S:text}` (a field reference).
///
/// Field values are resolved recursively, so a password `{REF:P@I:...}` gives the referenced password. A
/// placeholder whose value would need itself (a cycle), or that lies deeper than ``maximumDepth``, is left as
/// written; unknown placeholders are left as written too. Resolving reveals protected values.
///
/// ```swift
/// let resolver = PlaceholderResolver(database: database)
/// let userName = resolver.value(ofField: "UserName", for: entry)  // a {REF:U@I:...} gives the other entry's
/// let loginURL = resolver.resolve("https://{URL:HOST}/login?user={USERNAME}", for: entry)
/// ```
public struct PlaceholderResolver: Sendable {
  /// The database references are looked up in.
  public var database: Database
  /// The nesting limit of field resolution (KeePass uses 12).
  public var maximumDepth: Int
  /// The current one-time password of an entry for `{TOTP}`, or `nil` when it has none (then `{TOTP}` stays).
  public var oneTimePassword: (@Sendable (Entry) -> String?)?

  public init(database: Database, maximumDepth: Int = 10, oneTimePassword: (@Sendable (Entry) -> String?)? = nil) {
    self.database = database
    self.maximumDepth = maximumDepth
    self.oneTimePassword = oneTimePassword
  }

  /// `text` with every placeholder resolved in the context of `entry`.
  public func resolve(_ text: String, for entry: Entry) -> String {
    resolve(text, entry: entry, depth: 0, visiting: [])
  }

  /// The value of field `name` of `entry` with its placeholders resolved (a field that refers to itself is
  /// left unresolved where it does).
  public func value(ofField name: String, for entry: Entry) -> String {
    let raw = entry[field: name]?.reveal() ?? ""
    return resolve(raw, entry: entry, depth: 1, visiting: [Visit(entry: entry.uuid, field: name)])
  }

  /// One field being resolved, for cycle detection.
  struct Visit: Equatable {
    var entry: KDBXUUID
    var field: String
  }

  private func resolve(_ text: String, entry: Entry, depth: Int, visiting: [Visit]) -> String {
    let bytes = Array(text.utf8)
    guard bytes.contains(0x7B) else { return text }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var copied = 0
    PlaceholderScanner.forEachToken(in: bytes) { body, range in
      guard let value = replacement(for: body, entry: entry, depth: depth, visiting: visiting) else { return }
      out += bytes[copied..<range.lowerBound]
      out += value.utf8
      copied = range.upperBound
    }
    out += bytes[copied...]
    return String(decoding: out, as: UTF8.self)
  }

  /// A field of `entry`, resolved one level deeper; `nil` on a cycle or past the depth limit.
  private func field(_ name: String, of entry: Entry, depth: Int, visiting: [Visit]) -> String? {
    let visit = Visit(entry: entry.uuid, field: name)
    guard depth < maximumDepth, !visiting.contains(visit) else { return nil }
    let raw = entry[field: name]?.reveal() ?? ""
    return resolve(raw, entry: entry, depth: depth + 1, visiting: visiting + [visit])
  }

  private func replacement(for body: String, entry: Entry, depth: Int, visiting: [Visit]) -> String? {
    if let reference = FieldReference(placeholder: body) {
      guard let target = database.target(of: reference) else { return nil }
      if reference.wanted == .uuid { return Hex.encode(target.uuid.bytes, uppercase: true) }
      guard let name = reference.wanted.fieldName else { return nil }
      return field(name, of: target, depth: depth, visiting: visiting)
    }
    let upper = body.uppercased()
    if upper.hasPrefix("S:") {
      let name = String(body.dropFirst(2))
      let key =
        entry.fields.first { $0.key == name }?.key
        ?? entry.fields.first { $0.key.uppercased() == name.uppercased() }?.key
      guard let key else { return nil }
      return field(key, of: entry, depth: depth, visiting: visiting)
    }
    switch upper {
    case "TITLE": return field(Entry.titleField, of: entry, depth: depth, visiting: visiting)
    case "USERNAME": return field(Entry.userNameField, of: entry, depth: depth, visiting: visiting)
    case "URL": return field(Entry.urlField, of: entry, depth: depth, visiting: visiting)
    case "PASSWORD": return field(Entry.passwordField, of: entry, depth: depth, visiting: visiting)
    case "NOTES": return field(Entry.notesField, of: entry, depth: depth, visiting: visiting)
    case "UUID": return Hex.encode(entry.uuid.bytes, uppercase: true)
    case "GROUP":
      return database.parentGroupUUID(ofEntry: entry.uuid).flatMap { database.group(withUUID: $0)?.nameText }
    case "TOTP": return oneTimePassword?(entry)
    default: break
    }
    guard upper.hasPrefix("URL:"),
      let url = field(Entry.urlField, of: entry, depth: depth, visiting: visiting)
    else { return nil }
    let parts = URLParts(url)
    switch upper.dropFirst(4) {
    case "RMVSCM", "WITHOUTSCHEME": return parts.withoutScheme
    case "SCM", "SCHEME": return parts.scheme
    case "HOST": return parts.host
    case "PORT": return parts.port.map { String($0) } ?? ""
    case "PATH": return parts.path
    case "QUERY": return parts.query
    case "FRAGMENT": return parts.fragment
    case "USERINFO": return parts.userInfo
    case "USERNAME": return parts.userName
    case "PASSWORD": return parts.password
    default: return nil
    }
  }
}
