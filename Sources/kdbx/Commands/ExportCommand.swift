import KDBX
import KDBXBase
import KDBXCrypto
import KDBXImport
import KDBXXML

/// `kdbx export FILE --format xml|json|csv`: the whole database in clear, on standard output.
enum ExportCommand {
  static let command = Command(
    name: "export", arguments: "FILE", summary: "Write the whole vault in clear (--format xml|json|csv).",
    section: .reading,
    details: """
      Writes the whole database IN CLEAR to standard output (default format: xml).
      xml:  KeePass 2 XML (KDBX 3.1 layout, attachments in Meta/Binaries), protected values in plain text
            marked ProtectInMemory="True", as keepassxc-cli export does. Characters XML 1.0 cannot carry
            (control characters, U+FFFE, U+FFFF) are left out, as KeePass does, and standard error says where.
      json: one document, schema in the README: {"version", "meta", "groups", "entries", "deletedObjects"}.
      csv:  keepassxc-cli's columns: Group, Title, Username, Password, URL, Notes, TOTP, Icon,
            Last Modified, Created (recycle bin excluded).
      """,
    options: [
      OptionSpec(["-f", "--format"], value: "FORMAT", choices: ["xml", "json", "csv"], "The format (default xml).")
    ] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let format = arguments.value("--format", "-f") ?? "xml"
    guard ["xml", "json", "csv"].contains(format) else {
      throw .usage("--format must be xml, json or csv, not '\(format)'")
    }
    let vault = try VaultAccess.open(&arguments, maxPositionals: 1)
    // Data formats, written exactly (not escaped as terminal text is).
    switch format {
    case "json": Terminal.write(json(vault).rendered() + "\n", to: 1)
    case "csv": Terminal.write(csv(vault.database), to: 1)
    default: Terminal.write(try xml(vault.database), to: 1)
    }
  }

  // MARK: JSON

  /// The JSON document (``VaultJSONExport``, shared with the WebAssembly module), protected values in clear.
  static func json(_ vault: VaultAccess) -> JSONValue { VaultJSONExport.document(vault.opened) }

  // MARK: CSV

  /// RFC 4180 field: quoted, with quotes doubled.
  static func csvField(_ text: String) -> String {
    var out = "\""
    for character in text {
      if character == "\"" { out += "\"" }
      out.append(character)
    }
    return out + "\""
  }

  static func csv(_ database: Database) -> String {
    let rootName = database.root?.nameText ?? "Root"
    var out =
      ["Group", "Title", "Username", "Password", "URL", "Notes", "TOTP", "Icon", "Last Modified", "Created"]
      .map(csvField).joined(separator: ",") + "\n"
    for item in database.flatEntries where !item.isInRecycleBin {
      let entry = item.entry
      func field(_ name: String) -> String { entry[field: name]?.reveal() ?? "" }
      let totp = entry.oneTimePassword() != nil ? (entry[field: "otp"]?.reveal() ?? "") : ""
      let row = [
        ([rootName] + item.groupPath).joined(separator: "/"), field("Title"), field("UserName"), field("Password"),
        field("URL"), field("Notes"), totp, String(entry.iconID ?? 0),
        entry.times?.lastModificationTime.map(ISO8601.format) ?? "",
        entry.times?.creationTime.map(ISO8601.format) ?? "",
      ]
      out += row.map(csvField).joined(separator: ",") + "\n"
    }
    return out
  }

  // MARK: XML

  static func xml(_ database: Database) throws(CLIError) -> String {
    var database = database
    database.meta.headerHash = nil
    var stream = PlaintextInnerStream()
    var notUTF8 = 0
    let tree = revealed(DatabaseXMLWriter.write(database, version: .v3_1, stream: &stream), notUTF8: &notUTF8)
    // KeePass leaves out what XML 1.0 cannot carry (StrUtil.SafeXmlString); so does this export, and says so.
    let unwritable = unwritableCharacterCount(tree)
    let bytes: [UInt8]
    do {
      bytes = try XMLWriter.write(tree, options: XMLWriter.Options(invalidCharacters: .strip))
    } catch {
      throw .failure("cannot write the XML: \(error)")
    }
    let places = placesNotCarried(database)
    let location =
      places.isEmpty ? "" : " (in " + places.prefix(5).joined(separator: ", ") + (places.count > 5 ? ", ..." : "") + ")"
    if unwritable > 0 {
      Terminal.error(
        "kdbx export: left out \(unwritable) character(s) that XML 1.0 cannot carry (control characters other than "
          + "tab, line feed and carriage return, U+FFFE, U+FFFF)\(location), as KeePass does; the vault is unchanged\n")
    }
    if notUTF8 > 0 {
      Terminal.error(
        "kdbx export: \(notUTF8) protected value(s) are not valid UTF-8 and are written with U+FFFD in their place; "
          + "the vault keeps their bytes\n")
    }
    return String(decoding: bytes, as: UTF8.self) + "\n"
  }

  static func unwritableCount(_ text: String) -> Int {
    var count = 0
    for scalar in text.unicodeScalars where !StorableText.isXMLCharacter(scalar) { count += 1 }
    return count
  }

  /// The characters of `element` (names, attribute values, text) that XML 1.0 cannot carry.
  static func unwritableCharacterCount(_ element: XMLElement) -> Int {
    var count = 0
    var stack = [element]
    while let next = stack.popLast() {
      for attribute in next.attributes { count += unwritableCount(attribute.value) }
      for child in next.children {
        switch child {
        case .element(let inner): stack.append(inner)
        case .text(let text), .cdata(let text), .comment(let text): count += unwritableCount(text)
        case .processingInstruction(_, let data): count += unwritableCount(data)
        }
      }
    }
    return count
  }

  /// Entry fields (current and history) that hold characters XML 1.0 cannot carry, as `Group/Title: Field`, each
  /// escaped as one line of terminal text (a title or field name holding a line feed cannot pose as another line).
  static func placesNotCarried(_ database: Database) -> [String] {
    var places: [String] = []
    var seen = Set<String>()
    for item in database.flatEntries {
      let path = (item.groupPath + [item.entry[field: "Title"]?.reveal() ?? ""]).joined(separator: "/")
      for entry in [item.entry] + (item.entry.history ?? []) {
        for field in entry.fields where unwritableCount(field.value.reveal()) > 0 {
          let place = TerminalText.line("\(path): \(field.key)")
          if seen.insert(place).inserted { places.append(place) }
        }
      }
    }
    return places
  }

  /// Turns `Protected="True"` values (base64 of the plain text, as the identity stream leaves them) into plain
  /// text marked `ProtectInMemory="True"`, as KeePass and keepassxc-cli export do. `notUTF8` counts the values
  /// whose bytes are not valid UTF-8 (written with U+FFFD). The tree is rebuilt bottom up with an explicit stack,
  /// not by recursion: its depth follows the vault's group nesting.
  static func revealed(_ element: XMLElement, notUTF8: inout Int) -> XMLElement {
    if let done = revealedValue(element, notUTF8: &notUTF8) { return done }
    // The elements being rebuilt (`element` first), each with the index of its next child.
    var open: [(element: XMLElement, next: Int)] = [(element, 0)]
    while let top = open.indices.last {
      let index = open[top].next
      guard index < open[top].element.children.count else {
        let done = open.removeLast().element
        guard let parent = open.indices.last else { return done }
        open[parent].element.children[open[parent].next - 1] = .element(done)
        continue
      }
      open[top].next = index + 1
      guard case .element(let child) = open[top].element.children[index] else { continue }
      if let done = revealedValue(child, notUTF8: &notUTF8) {
        open[top].element.children[index] = .element(done)
      } else {
        open.append((child, 0))
      }
    }
    return element
  }

  /// `element` as ``revealed(_:notUTF8:)`` leaves it when it has a `Protected="True"` attribute (its children are
  /// not looked into), or `nil` when it has none.
  static func revealedValue(_ element: XMLElement, notUTF8: inout Int) -> XMLElement? {
    guard let index = element.attributes.firstIndex(where: { $0.name == "Protected" && $0.value == "True" }) else {
      return nil
    }
    var copy = element
    if copy.name == "Value" {
      let bytes = Base64.decode(copy.text, options: .lenient) ?? []
      let plain = String(decoding: bytes, as: UTF8.self)
      if Array(plain.utf8) != bytes { notUTF8 += 1 }
      copy.attributes[index] = XMLAttribute(name: "ProtectInMemory", value: "True")
      copy.children = plain.isEmpty ? [] : [.text(plain)]
    } else {
      copy.attributes.remove(at: index)
    }
    return copy
  }
}
