import KDBX

/// Bitwarden's unencrypted JSON export (Bitwarden Help, "Condition a Bitwarden .json file"): `folders` (or an
/// organization's `collections`) and `items` of type 1 login, 2 secure note, 3 card, 4 identity and 5 SSH key, with
/// custom `fields` of type 0 text, 1 hidden, 2 boolean and 3 linked.
///
/// Mapped as KeePassXC's Bitwarden import does: folders (a `/` in a name nests) become groups; a login's first URI
/// is the URL and the others `KP2A_URL_1`, `KP2A_URL_2`, ...; TOTP becomes the `otp` field (an `otpauth://` URI);
/// cards, identities and SSH keys become custom fields (numbers, codes and private keys protected); hidden custom
/// fields are protected. The password history becomes the entry's history. Favorites, re-prompt flags and linked fields
/// are not KeePass concepts and are reported as skipped.
enum BitwardenImport {
  static func read(_ bytes: [UInt8]) throws(ImportError) -> ImportedVault {
    let document: JSON
    do throws(JSONError) {
      document = try JSONReader.parse(bytes)
    } catch {
      throw .malformed("not valid JSON: \(error.description)")
    }
    if document["encrypted"]?.bool == true || document["passwordProtected"]?.bool == true {
      throw .unsupported(
        "an encrypted Bitwarden export; export again in Bitwarden as .json (not 'encrypted json' "
          + "or password protected)")
    }
    guard let items = document["items"]?.array else {
      throw .unrecognised("JSON but not a Bitwarden export (no \"items\" array)")
    }
    var vault = ImportedVault()
    vault.rootName = "Bitwarden"
    var folders: [String: [String]] = [:]
    // Every folder or collection ID of the export, with a usable name or not: an item whose folder is named by
    // none of them lands in the root group, and says so.
    var folderIDs = Set<String>()
    for folder in (document["folders"]?.array ?? []) + (document["collections"]?.array ?? []) {
      guard let id = folder["id"]?.string else { continue }
      folderIDs.insert(id)
      // A missing name is no name: the folder's items are in the root group, as for an empty one.
      let name = folder["name"]?.string ?? ""
      let path = name.split(separator: "/").map { String($0).trimmingSpaces() }.filter { !$0.isEmpty }
      guard !path.isEmpty else {
        vault.skip("folders without a name (their items are in the root group)", item: "'\(name)'")
        continue
      }
      folders[id] = path
      vault.emptyGroups.append(path)
    }
    var favorites = 0
    var reprompts = 0
    var matchRules = 0
    var revisionDates = 0
    for (index, item) in items.enumerated() {
      let name = item["name"]?.string ?? ""
      let label = name.isEmpty ? "item \(index + 1)" : "'\(name)'"
      guard let type = item["type"]?.integer else {
        vault.skip("items without a type", item: label)
        continue
      }
      if item["deletedDate"]?.string != nil {
        vault.skip("items in the trash", item: label)
        continue
      }
      var record = ImportedVault.Record()
      record.title = name
      record.notes = item["notes"]?.string ?? ""
      let folderID = item["folderId"]?.string
      let collections = item["collectionIds"]?.array ?? []
      if let folderID, let path = folders[folderID] {
        record.groupPath = path
      } else if let path = collections.first?.string.flatMap({ folders[$0] }) {
        record.groupPath = path
        if collections.count > 1 {
          vault.skip(
            "items in more than one collection (an entry is in one group: the first collection's)",
            item: "\(label) in '\(path.joined(separator: "/"))' and \(collections.count - 1) more")
        }
      } else if let folderID, !folderIDs.contains(folderID) {
        vault.skip(
          "items whose folder is not in the export (they are in the root group)",
          item: "\(label) (folder '\(folderID)')")
      } else if let collectionID = collections.first?.string, !folderIDs.contains(collectionID) {
        vault.skip(
          "items whose collection is not in the export (they are in the root group)",
          item: "\(label) (collection '\(collectionID)')")
      }
      record.created = item["creationDate"]?.string.flatMap(ISO8601.parse)
      record.modified = item["revisionDate"]?.string.flatMap(ISO8601.parse)
      if item["creationDate"]?.string.map({ ISO8601.parse($0) == nil }) == true
        || item["revisionDate"]?.string.map({ ISO8601.parse($0) == nil }) == true
      {
        vault.skip("times that are not ISO 8601 (the import's time is used)", item: label)
      }
      func add(_ fieldName: String, _ value: JSON?, protected: Bool = false) {
        guard let text = value?.text, !text.isEmpty else { return }
        record.fields.append((fieldName, text, protected))
      }
      switch type {
      case 1:
        let login = item["login"]
        record.username = login?["username"]?.string ?? ""
        record.password = login?["password"]?.string ?? ""
        record.otp = login?["totp"]?.string ?? ""
        let uriObjects = login?["uris"]?.array ?? []
        let uris = uriObjects.compactMap { $0["uri"]?.string }.filter { !$0.isEmpty }
        if uriObjects.contains(where: { $0["match"]?.integer != nil }) { matchRules += 1 }
        if login?["passwordRevisionDate"]?.string != nil { revisionDates += 1 }
        record.url = uris.first ?? ""
        for (number, uri) in uris.dropFirst().enumerated() {
          record.fields.append(("KP2A_URL_\(number + 1)", uri, false))
        }
        if let passkeys = login?["fido2Credentials"]?.array, !passkeys.isEmpty {
          vault.skip("passkeys (not portable between managers)", item: "\(label) (\(passkeys.count))")
        }
      case 2:
        break
      case 3:
        let card = item["card"]
        add("Cardholder Name", card?["cardholderName"])
        add("Brand", card?["brand"])
        add("Number", card?["number"], protected: true)
        add("Expiry Month", card?["expMonth"])
        add("Expiry Year", card?["expYear"])
        add("Security Code", card?["code"], protected: true)
      case 4:
        let identity = item["identity"]
        record.username = identity?["username"]?.string ?? ""
        for (key, fieldName, protected) in identityFields { add(fieldName, identity?[key], protected: protected) }
      case 5:
        let key = item["sshKey"]
        add("Private Key", key?["privateKey"], protected: true)
        add("Public Key", key?["publicKey"])
        add("Fingerprint", key?["keyFingerprint"])
      default:
        vault.skip("items of a type this import does not know", item: "\(label) (type \(type))")
        continue
      }
      for field in item["fields"]?.array ?? [] {
        let fieldName = field["name"]?.string ?? ""
        switch field["type"]?.integer ?? 0 {
        case 3:
          vault.skip("linked fields (they only point at another field)", item: "\(label): '\(fieldName)'")
        case let fieldType:
          // A null value is an empty field: its name is kept.
          record.fields.append((fieldName, field["value"]?.text ?? "", fieldType == 1))
        }
      }
      if item["favorite"]?.bool == true { favorites += 1 }
      if let reprompt = item["reprompt"]?.integer, reprompt != 0 { reprompts += 1 }
      for old in item["passwordHistory"]?.array ?? [] {
        guard let password = old["password"]?.string else {
          vault.skip("password history rows without a password", item: label)
          continue
        }
        record.passwordHistory.append((password, old["lastUsedDate"]?.string.flatMap(ISO8601.parse)))
      }
      try vault.append(record)
    }
    if favorites > 0 { vault.skipped.append("the favorite mark of \(favorites) item(s) (KeePass has none)") }
    if reprompts > 0 {
      vault.skipped.append("the master password re-prompt of \(reprompts) item(s) (KeePass has none)")
    }
    if matchRules > 0 {
      vault.skipped.append("the URI match rules of \(matchRules) item(s) (KeePass matches by its own rules)")
    }
    if revisionDates > 0 {
      vault.skipped.append(
        "the password revision date of \(revisionDates) item(s) (the entries' modification times are kept)")
    }
    return vault
  }

  /// Bitwarden's identity keys, the custom field names they become, and whether the value is protected.
  static let identityFields: [(String, String, Bool)] = [
    ("title", "Title (Identity)", false), ("firstName", "First Name", false), ("middleName", "Middle Name", false),
    ("lastName", "Last Name", false), ("company", "Company", false), ("email", "Email", false),
    ("phone", "Phone", false), ("address1", "Address 1", false), ("address2", "Address 2", false),
    ("address3", "Address 3", false), ("city", "City", false), ("state", "State", false),
    ("postalCode", "Postal Code", false), ("country", "Country", false), ("ssn", "Social Security Number", true),
    ("passportNumber", "Passport Number", true), ("licenseNumber", "License Number", true),
  ]
}
