import KDBX

/// 1Password's unencrypted export, `.1pux` (1Password Support, "About the 1Password Unencrypted Export format"): a
/// zip archive holding `export.attributes`, `export.data` (JSON: `accounts` → `vaults` → `items`, each item with
/// `overview` (title, url, urls, tags) and `details` (loginFields, notesPlain, sections of fields, password,
/// documentAttributes)) and `files/` (attachments, named `files/<documentId>__<fileName>`).
///
/// Vaults become groups (under the account's name when the export holds several accounts; archived items in an
/// `Archive` subgroup); login fields with the username and password designations become UserName and Password, the
/// first URL the URL and the others `KP2A_URL_1`, ...; the first one-time password field the `otp` field; every
/// other field a custom field named by its section and title (concealed values, card numbers and private keys
/// protected); tags, times and the password history are kept; attached files and documents become attachments.
enum OnePasswordImport {
  static func read(_ bytes: [UInt8]) throws(ImportError) -> ImportedVault {
    let archive: ZipArchive
    do throws(ZipError) {
      archive = try ZipArchive(bytes)
    } catch {
      throw .malformed("not a readable zip archive: \(error.description)")
    }
    guard let dataMember = archive.member(named: "export.data") else {
      throw .unrecognised("a zip archive without export.data: not a 1Password .1pux export")
    }
    // The JSON reader's input limit applies before the member is inflated, not after.
    let jsonLimits = JSONReader.Limits()
    guard dataMember.size <= jsonLimits.maxInputBytes else {
      throw .tooLarge("export.data is \(dataMember.size) bytes, over the limit of \(jsonLimits.maxInputBytes)")
    }
    let data: [UInt8]
    do throws(ZipError) {
      data = try archive.contents(of: dataMember)
    } catch {
      throw .malformed(error.description)
    }
    let document: JSON
    do throws(JSONError) {
      document = try JSONReader.parse(data, limits: jsonLimits)
    } catch {
      throw .malformed("export.data is not valid JSON: \(error.description)")
    }
    guard let accounts = document["accounts"]?.array else {
      throw .unrecognised("export.data has no \"accounts\" array: not a 1Password .1pux export")
    }
    var vault = ImportedVault()
    vault.rootName = "1Password"
    var files = Files(archive: archive)
    for member in archive.members where member.name.hasPrefix("files/") {
      files.members[String(member.name.dropFirst(6))] = member
    }
    var favorites = 0
    for account in accounts {
      let accountName = account["attrs"]?["accountName"]?.string ?? account["attrs"]?["name"]?.string ?? "Account"
      for vaultJSON in account["vaults"]?.array ?? [] {
        let vaultName = vaultJSON["attrs"]?["name"]?.string ?? "Vault"
        var path = accounts.count > 1 ? [accountName, vaultName] : [vaultName]
        path = path.map { $0.isEmpty ? "Vault" : $0 }
        vault.emptyGroups.append(path)
        for item in vaultJSON["items"]?.array ?? [] {
          if item["favIndex"]?.integer.map({ $0 > 0 }) == true { favorites += 1 }
          try read(item, path: path, files: &files, into: &vault)
        }
      }
    }
    if favorites > 0 { vault.skipped.append("the favorite mark of \(favorites) item(s) (KeePass has none)") }
    return vault
  }

  /// The archive's `files/` members by name, each inflated once: an item that references a file another item
  /// has already read shares its bytes (an archive whose one large member is referenced by every item costs that
  /// member's size once, not once per item).
  struct Files {
    let archive: ZipArchive
    var members: [String: ZipArchive.Member] = [:]
    private var contents: [String: [UInt8]] = [:]

    init(archive: ZipArchive) { self.archive = archive }

    /// The bytes of the file `name`, or `nil` when the archive has none of that name.
    mutating func bytes(of name: String) throws(ImportError) -> [UInt8]? {
      if let cached = contents[name] { return cached }
      guard let member = members[name] else { return nil }
      do throws(ZipError) {
        let bytes = try archive.contents(of: member)
        contents[name] = bytes
        return bytes
      } catch {
        throw .malformed(error.description)
      }
    }
  }

  /// Category UUIDs (1PUX `categoryUuid`) and their names, for the entries' notes on what they were.
  static let categories: [String: String] = [
    "001": "Login", "002": "Credit Card", "003": "Secure Note", "004": "Identity", "005": "Password",
    "006": "Document", "100": "Software License", "101": "Bank Account", "102": "Database", "103": "Driver License",
    "104": "Outdoor License", "105": "Membership", "106": "Passport", "107": "Reward Program",
    "108": "Social Security Number", "109": "Wireless Router", "110": "Server", "111": "Email Account",
    "112": "API Credential", "113": "Medical Record", "114": "SSH Key", "115": "Crypto Wallet",
  ]

  static func read(
    _ item: JSON, path: [String], files: inout Files, into vault: inout ImportedVault
  ) throws(ImportError) {
    let overview = item["overview"]
    let details = item["details"]
    var record = ImportedVault.Record()
    record.title = overview?["title"]?.string ?? ""
    let label = record.title.isEmpty ? "an untitled item" : "'\(record.title)'"
    switch item["state"]?.string {
    case "archived": record.groupPath = path + ["Archive"]
    case "trashed", "deleted":
      vault.skip("items in the trash", item: label)
      return
    default: record.groupPath = path
    }
    record.notes = details?["notesPlain"]?.string ?? ""
    record.tags = (overview?["tags"]?.array ?? []).compactMap { $0.string }
    if let created = item["createdAt"]?.integer { record.created = Timestamp(unixSeconds: Int64(created)) }
    if let updated = item["updatedAt"]?.integer { record.modified = Timestamp(unixSeconds: Int64(updated)) }
    var urls: [String] = []
    if let url = overview?["url"]?.string, !url.isEmpty { urls.append(url) }
    for entry in overview?["urls"]?.array ?? [] {
      if let url = entry["url"]?.string, !url.isEmpty, !urls.contains(url) { urls.append(url) }
    }
    record.url = urls.first ?? ""
    for (number, url) in urls.dropFirst().enumerated() { record.fields.append(("KP2A_URL_\(number + 1)", url, false)) }
    for field in details?["loginFields"]?.array ?? [] {
      let value = field["value"]?.text ?? ""
      switch field["designation"]?.string {
      case "username" where record.username.isEmpty: record.username = value
      case "password" where record.password.isEmpty: record.password = value
      default:
        guard !value.isEmpty else { continue }
        let name = field["name"]?.string ?? field["id"]?.string ?? "Field"
        record.fields.append((name, value, field["fieldType"]?.string == "P"))
      }
    }
    if let password = details?["password"]?.string, !password.isEmpty {
      if record.password.isEmpty {
        record.password = password
      } else {
        record.fields.append(("Password (2)", password, true))
      }
    }
    for old in details?["passwordHistory"]?.array ?? [] {
      guard let password = old["value"]?.string else {
        vault.skip("password history rows without a password", item: label)
        continue
      }
      record.passwordHistory.append((password, old["time"]?.integer.map { Timestamp(unixSeconds: Int64($0)) }))
    }
    var attachments: [(name: String, documentID: String)] = []
    if let document = details?["documentAttributes"], let name = document["fileName"]?.string,
      let id = document["documentId"]?.string
    {
      attachments.append((name, id))
    }
    for section in details?["sections"]?.array ?? [] {
      let sectionTitle = section["title"]?.string ?? ""
      for field in section["fields"]?.array ?? [] {
        let title = field["title"]?.string ?? field["id"]?.string ?? ""
        let name = sectionTitle.isEmpty ? title : "\(sectionTitle): \(title)"
        guard case .object(let kinds) = field["value"] ?? .null, let (kind, value) = kinds.first else { continue }
        switch kind {
        case "totp" where record.otp.isEmpty:
          record.otp = value.string ?? ""
        case "file":
          if let fileName = value["fileName"]?.string, let id = value["documentId"]?.string {
            attachments.append((fileName, id))
          }
        default:
          guard let (text, protected) = rendered(kind, value), !text.isEmpty else {
            if !(value.isNull || value.text == "") {
              vault.skip("fields of a kind this import does not know", item: "\(label): '\(name)' (\(kind))")
            }
            continue
          }
          record.fields.append((name.isEmpty ? kind : name, text, protected))
        }
      }
    }
    for attachment in attachments {
      let member = "\(attachment.documentID)__\(attachment.name)"
      guard let bytes = try files.bytes(of: member) else {
        vault.skip("files that are not in the archive", item: "\(label): '\(attachment.name)'")
        continue
      }
      record.attachments.append((attachment.name, bytes, member))
    }
    if let category = item["categoryUuid"]?.string, category != "001", category != "005" {
      record.fields.append(("1Password Category", categories[category] ?? category, false))
    }
    try vault.append(record)
  }

  /// A 1PUX field value as text, and whether it is secret; `nil` for a kind not known.
  static func rendered(_ kind: String, _ value: JSON) -> (String, Bool)? {
    switch kind {
    case "concealed", "creditCardNumber": return (value.text ?? "", true)
    case "string", "url", "phone", "menu", "gender", "creditCardType", "totp": return (value.text ?? "", kind == "totp")
    case "email": return (value["email_address"]?.string ?? value.text ?? "", false)
    case "date":
      guard let seconds = value.integer else { return (value.text ?? "", false) }
      return (String(ISO8601.format(Timestamp(unixSeconds: Int64(seconds))).prefix(10)), false)
    case "monthYear":
      guard let number = value.integer, number > 0 else { return (value.text ?? "", false) }
      let month = number % 100
      return ("\(number / 100)-\(month < 10 ? "0" : "")\(month)", false)
    case "address":
      let parts = ["street", "city", "state", "zip", "country"].compactMap { value[$0]?.string }.filter { !$0.isEmpty }
      return (parts.joined(separator: ", "), false)
    case "sshKey":
      return (value["privateKey"]?.string ?? value.text ?? "", true)
    default:
      return value.text.map { ($0, false) }
    }
  }
}
