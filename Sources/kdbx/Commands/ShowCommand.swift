import KDBX
import KDBXBase
import KDBXFileIO

/// `kdbx show FILE ENTRY [--show-protected] [--attributes A...] [--totp] [--json]`: prints an entry's fields, as
/// keepassxc-cli does (protected values as `PROTECTED` unless `--show-protected`).
enum ShowCommand {
  static let command = Command(
    name: "show", arguments: "FILE ENTRY", summary: "Show an entry (--show-protected, --attributes NAME, --totp).",
    section: .reading,
    details: """
      Prints the entry ENTRY (a path like 'Internet/GitHub', or a UUID): Title, UserName, Password, URL, Notes,
      custom fields, tags and attachments. Protected values print as PROTECTED unless --show-protected.
      With --attributes, prints only the values of the named fields, one per line (shown in clear).
      --totp adds the current one-time password and the seconds it stays valid.
      """,
    options: [
      OptionSpec(["-s", "--show-protected"], "Show protected values in clear."),
      OptionSpec(["-a", "--attributes"], value: "NAME", "Print only the value of the field NAME (may be repeated)."),
      OptionSpec(["-t", "--totp"], "Add the current one-time password."), CommandTable.json,
    ] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let showProtected = arguments.flag("-s", "--show-protected")
    let attributes = arguments.values("--attributes", "-a")
    let totp = arguments.flag("-t", "--totp")
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 2)
    let located = try vault.locateEntry(try arguments.positional(1, "ENTRY"))
    let entry = located.entry
    let code = totp ? try currentCode(entry) : nil

    if !attributes.isEmpty {
      var lines: [String] = []
      for name in attributes {
        guard let value = field(entry, name) else { throw .failure("the entry has no attribute '\(name)'") }
        lines.append(displayed(value))
      }
      if let code { lines.append(code.code) }
      Terminal.out(lines.map { $0 + "\n" }.joined())
      return
    }
    let fields = entry.displayedFields()
    func shown(_ value: FieldValue?) -> String {
      guard let value else { return "" }
      return value.isProtected && !showProtected ? "PROTECTED" : value.reveal()
    }
    func shownText(_ value: FieldValue?) -> String {
      guard let value else { return "" }
      return value.isProtected && !showProtected ? "PROTECTED" : displayed(value)
    }
    if json {
      var members: [(String, JSONValue)] = [("uuid", .string(entry.uuid.description))]
      members.append(("groupPath", .array(vault.groupPath(of: located.position.group).map { .string($0) })))
      members.append(
        ("fields", .object(fields.map { ($0.name, JSONValue.string(shown($0.value))) })))
      members.append(("tags", .array(entry.tags.map { .string($0) })))
      members.append(("attachments", .array(entry.attachments.map { .string($0.name) })))
      if let code {
        members.append(("totp", .object([("code", .string(code.code)), ("secondsRemaining", code.remaining)])))
      }
      Terminal.out(JSONValue.object(members).rendered() + "\n")
      return
    }
    // Vault text is escaped for the terminal: names and single-line fields on one line, Notes and custom fields
    // (which may span lines on purpose) with their line breaks.
    var lines: [String] = []
    for field in fields {
      let value = shownText(field.value)
      let text = isMultiline(field.name) ? TerminalText.multiline(value) : TerminalText.line(value)
      lines.append("\(TerminalText.line(field.name)): \(text)")
    }
    if !entry.tags.isEmpty { lines.append("Tags: \(TerminalText.line(entry.tags.joined(separator: ", ")))") }
    if !entry.attachments.isEmpty {
      lines.append("Attachments:")
      for attachment in entry.attachments {
        if let data = vault.database.contents(of: attachment) {
          lines.append("  \(TerminalText.line(attachment.name)) (\(data.count) bytes)")
        } else {
          lines.append("  \(TerminalText.line(attachment.name)) (missing: \(missingReference(attachment)))")
        }
      }
    }
    lines.append("Uuid: \(entry.uuid)")
    if let code {
      let remaining = code.seconds.map { " (valid for \($0) s)" } ?? ""
      lines.append("TOTP: \(code.code)\(remaining)")
    }
    Terminal.out(lines.joined(separator: "\n") + "\n")
  }

  /// A value as text for the terminal: bytes of a protected value that are not valid UTF-8 print as `\xNN`
  /// (the vault keeps them as they are).
  static func displayed(_ value: FieldValue) -> String {
    value.reveal { byte in "\\x" + Hex.encode([byte]) }
  }

  /// Why an attachment has no content: the file's reference names no stored binary.
  static func missingReference(_ attachment: Attachment) -> String {
    let reference = attachment.missingReference ?? String(attachment.binaryIndex)
    return "the file's reference \(reference) names no stored data"
  }

  static func field(_ entry: Entry, _ name: String) -> FieldValue? {
    if let value = entry[field: name] { return value }
    return entry.fields.first { $0.key.lowercased() == name.lowercased() }?.value
  }

  /// Whether `name` is printed over several lines when its value has line breaks: Notes and custom fields.
  static func isMultiline(_ name: String) -> Bool { !["Title", "UserName", "Password", "URL"].contains(name) }

  /// The entry's current one-time password and its remaining validity. An entry whose OTP settings are present
  /// but unusable is reported with the reason (for example a period of 0), not as having none.
  static func currentCode(_ entry: Entry) throws(CLIError) -> (code: String, seconds: Int?, remaining: JSONValue) {
    guard let generator = entry.oneTimePassword()?.generator else {
      let readings = entry.oneTimePasswordReadings()
      for reading in readings {
        if case .failure(let error) = reading.result {
          throw .failure(
            "the entry's one-time password settings are invalid: \(TerminalText.line(error.description)) "
              + "(in \(reading.format.fieldsDescription))")
        }
      }
      throw .failure("the entry has no one-time password")
    }
    let now = SystemClock().now().unixSeconds
    let seconds = generator.secondsRemaining(at: now)
    return (generator.code(at: now), seconds, seconds.map { .number($0) } ?? .null)
  }
}

/// `kdbx totp FILE ENTRY [--json]`: the entry's current one-time password.
enum TOTPCommand {
  static let command = Command(
    name: "totp", arguments: "FILE ENTRY", summary: "Print the entry's current one-time password.",
    section: .reading,
    details: """
      Prints the current one-time password of ENTRY and the seconds it stays valid. Reads otpauth:// URIs
      ('otp' field), KeePassXC's 'TOTP Seed'/'TOTP Settings' and KeePass's TimeOtp-* fields.
      """,
    options: [CommandTable.json] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 2)
    let entry = try vault.entry(try arguments.positional(1, "ENTRY"))
    let code = try ShowCommand.currentCode(entry)
    if json {
      Terminal.out(
        JSONValue.object([("code", .string(code.code)), ("secondsRemaining", code.remaining)]).rendered() + "\n")
    } else {
      let remaining = code.seconds.map { " (valid for \($0) s)" } ?? ""
      Terminal.out("\(code.code)\(remaining)\n")
    }
  }
}
