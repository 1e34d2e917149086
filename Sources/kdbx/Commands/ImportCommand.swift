import KDBX
import KDBXFileIO
import KDBXImport

/// `kdbx import SOURCE OUT [settings]`: writes a new database from a KeePass 2 XML export, a KeePass 1.x file, or
/// another manager's export (CSV, Bitwarden JSON, 1Password .1pux).
enum ImportCommand {
  static let command = Command(
    name: "import", arguments: "SOURCE OUT",
    summary:
      "Create a database from a KeePass 2 XML export, a KeePass 1.x .kdb file, a CSV export, a Bitwarden JSON export or a 1Password .1pux export (detected from the content; --columns maps CSV columns; settings as for create).",
    section: .whole,
    details: """
      Creates the database OUT (it must not exist) from SOURCE, with the settings of 'kdbx create'. SOURCE is
      detected from its content, not its name:
      - a KeePass 2 XML file (as written by 'kdbx export', KeePass or keepassxc-cli export): OUT gets the
        password read next and the --key-file given, as with 'kdbx create';
      - a KeePass 1.x database (.kdb, AES or Twofish): the password and --key-file open it, and OUT gets the
        same credentials (KeePass 1.x groups go under a new root group "Root"; meta-stream entries are read as
        settings, not entries);
      - a CSV file with a header row (KeePassXC's CSV export, 'kdbx export --format csv', or another
        manager's: columns named Group, Title, Username, Password, URL, Notes, TOTP, Tags, Icon, Last Modified,
        Created are recognised, --columns title=Name,password=Secret,... maps others (a name or a 1-based
        number); other columns become custom fields; groups are '/' paths, a shared first one is the root).
      - Bitwarden's unencrypted JSON export (personal or organization): folders or collections become groups;
        logins keep username, password, URIs (the first as URL, others as KP2A_URL_1, ...), TOTP (as the otp
        field) and notes; cards, identities and SSH keys become custom fields (numbers, codes, keys protected);
        custom fields are kept (hidden ones protected); the password history becomes the entry's history.
        Favorites, re-prompt and linked fields are listed as skipped.
      - 1Password's .1pux export (a zip archive, read with our own inflate, each member's CRC-32 checked, sizes
        bounded): vaults become groups (under the account when there are several; archived items in 'Archive');
        login fields, URLs (the first as URL, others as KP2A_URL_1, ...), the first TOTP (as otp), notes, tags
        and times are kept; section fields become custom fields named 'Section: Title' (concealed values, card
        numbers and SSH keys protected); documents and file fields become attachments.
      The import says how many entries it imported and what it skipped. A malformed file is refused before
      any password is asked for, and nothing is written.
      """,
    options: [
      OptionSpec(
        ["--columns"], value: "MAP", "Map CSV columns: title=Name,password=Secret,... (a name or a 1-based number).")
    ] + CommandTable.settings + CommandTable.newVaultKey,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let columns = arguments.value("--columns")
    let xmlPath = try arguments.positional(0, "SOURCE")
    let path = try arguments.positional(1, "OUT")
    let newVault = try CreateCommand.NewVaultOptions(&arguments)
    try arguments.finish(maxPositionals: 2)
    if FileIO.fileExists(atPath: path) { throw .failure("\(path) already exists") }
    let bytes = try VaultAccess.readInput(xmlPath)
    if KDB1File.isKDB1(bytes) {
      try importKeePass1(bytes, from: xmlPath, to: path, options: newVault)
      return
    }
    let options = ImportOptions(csvColumns: try csvColumns(columns))
    var random = SystemRandomNumberGenerator()
    let imported: ImportedDatabase
    do throws(ImportError) {
      imported = try VaultImport.read(bytes, options: options, clock: SystemClock(), random: &random)
    } catch {
      switch error.reason {
      case .invalidOptions: throw .usage("\(xmlPath): \(error.description)")
      case .unrecognised where ImportFormat.detect(bytes) == .kdbx:
        throw .failure("\(xmlPath) is a KDBX database already; 'kdbx convert' changes its settings")
      default: throw .failure("\(xmlPath): \(error.description)")
      }
    }
    // What no save could write (the open's limits) is refused before the password is asked for.
    do throws(KDBXError) {
      try KDBXFile.checkSavable(imported.database, settings: newVault.settings)
    } catch {
      throw .failure("cannot import \(xmlPath): \(error.description)")
    }
    let key = try newVault.key(for: path)
    let settings = try newVault.calibratedSettings()
    try CreateCommand.write(imported.database, key: key, settings: settings, to: path)
    // A KeePass 2 XML file is the vault itself; other managers' exports say what they held and what was dropped.
    let description =
      imported.format == .keePassXML && imported.skipped.isEmpty
      ? " " : " (\(imported.format.name): \(summary(imported)))\n"
    Terminal.out(
      "Imported \(TerminalText.line(xmlPath))\(description)into \(TerminalText.line(path)) "
        + "(\(CreateCommand.describe(settings))).\n")
  }

  /// `--columns FIELD=COLUMN,...`: COLUMN is a header name or a 1-based number.
  static func csvColumns(_ option: String?) throws(CLIError) -> [CSVField: CSVColumn] {
    guard let option else { return [:] }
    var columns: [CSVField: CSVColumn] = [:]
    for pair in option.split(separator: ",") {
      let parts = pair.split(separator: "=", maxSplits: 1).map { String($0) }
      guard parts.count == 2, let field = CSVField(rawValue: parts[0].lowercased().trimmingSpaces()) else {
        throw .usage(
          "--columns takes FIELD=COLUMN pairs, FIELD one of "
            + "\(CSVField.allCases.map(\.rawValue).joined(separator: ", ")); not '\(pair)'")
      }
      let column = parts[1].trimmingSpaces()
      columns[field] = Int(column).map(CSVColumn.number) ?? .named(column)
    }
    return columns
  }

  /// "N entries in M groups" and what was skipped, for the import's last lines.
  static func summary(_ imported: ImportedDatabase) -> String {
    let (entries, groups, skipped) = (imported.entryCount, imported.groupCount, imported.skipped)
    var text = "\(entries) entr\(entries == 1 ? "y" : "ies") in \(groups) group\(groups == 1 ? "" : "s")"
    // The first 50 reasons are listed; a hostile file cannot flood the terminal.
    // Each reason names items of the file: one line each, escaped as `show` escapes vault text.
    var listed = skipped.prefix(50).map(TerminalText.line).joined(separator: "\n  ")
    if skipped.count > 50 { listed += "\n  ... and \(skipped.count - 50) more" }
    // Each line counts its own kind ("items without a type: 60 (item 1, item 2, item 3, ...)").
    text += skipped.isEmpty ? "; nothing skipped" : "; skipped:\n  " + listed
    return text
  }

  /// Converts the KeePass 1.x file `bytes` to the new KDBX file `path`, with the same password and key file (as
  /// KeePassXC's import does; an empty password with a key file is no password, as KeePass 1.x reads it).
  static func importKeePass1(
    _ bytes: [UInt8], from source: String, to path: String, options: CreateCommand.NewVaultOptions
  ) throws(CLIError) {
    let (password, keyFile) = try VaultAccess.readCredentials(
      keyFilePath: options.keyFilePath, allowsLargeKeyFile: options.allowsLargeKeyFile, noPassword: options.noPassword,
      prompt: "Enter password to unlock \(source): ", missing: CreateCommand.missingPassword)
    if password == nil && keyFile == nil { throw .usage("a KeePass 1.x file needs a password, a key file or both") }
    let key = CompositeKey(password: password, keyFile: keyFile)
    let opened = try VaultAccess.openBytes(bytes, key: key)
    guard opened.isKeePass1 else { throw .failure("\(source) is not a KeePass 1.x file") }
    // The KDBX 3.1 equivalent of the file's settings: its cipher, and AES-KDF with its rounds.
    var rounds: UInt64 = 0
    if case .aesKDF(let parameters) = opened.header.kdf { rounds = parameters.rounds }
    let newKey = password?.isEmpty == true && keyFile != nil ? CompositeKey(password: nil, keyFile: keyFile) : key
    let settings = try options.calibratedSettings()
    try CreateCommand.write(opened.database, key: newKey, settings: settings, to: path)
    var groups = 0
    var entries = 0
    if let root = opened.database.root {
      entries = root.entries.count
      var walk = GroupWalk(below: root)
      while let step = walk.next() {
        guard case .enter(let group, _) = step else { continue }
        groups += 1
        entries += group.entries.count
      }
    }
    Terminal.out(
      "Imported \(TerminalText.line(source)) (KeePass 1.x, \(Names.cipher(opened.header.cipher)), \(rounds) rounds: \(groups) "
        + "groups, \(entries) entries) into \(TerminalText.line(path)) (\(CreateCommand.describe(settings))).\n")
  }

}
