/// The command table: every command of `kdbx` with its arguments and options, declared once.
///
/// The parser (``Arguments``), `--help`, the shell completions (`kdbx completions SHELL`) and the manual page
/// (`kdbx man`) all read this table, so a command or option added here appears in each of them, and one that is
/// not here is refused by the parser.

/// One option of a command.
struct OptionSpec: Sendable {
  /// Every spelling, e.g. `["-R", "--recursive"]`; the parser accepts each.
  var names: [String]
  /// The value's placeholder (`PATH`, `N`) for an option that takes a value; `nil` for a flag.
  var value: String?
  /// The values the completions offer (`xml`, `json`, `csv`); empty when any value goes.
  var choices: [String]
  /// Whether the value is a file path (the completions offer files).
  var valueIsPath: Bool
  /// What the option does, as `--help` and the manual page show it (with the choices, when there are some).
  var summary: String {
    guard !choices.isEmpty else { return text }
    let list = choices.dropLast().joined(separator: ", ") + " or " + (choices.last ?? "")
    return text + " One of: " + list + "."
  }
  /// What the option does, without the choices.
  var text: String

  init(
    _ names: [String], value: String? = nil, choices: [String] = [], path: Bool = false, _ summary: String
  ) {
    self.names = names
    self.value = value
    self.choices = choices
    self.valueIsPath = path
    self.text = summary
  }

  /// The names as a synopsis shows them: short ones first, e.g. `-R, --recursive`, then the value.
  var display: String {
    let short = names.filter { !$0.hasPrefix("--") }
    let long = names.filter { $0.hasPrefix("--") }
    return (short + long).joined(separator: ", ") + (value.map { " " + $0 } ?? "")
  }
}

/// The parts of the top-level help, in order.
enum CommandSection: CaseIterable, Sendable {
  case reading, changing, whole, noVault, shell

  var heading: String {
    switch self {
    case .reading:
      return "READING A VAULT (FILE first; the password is read from the terminal, or the first line of stdin; "
        + "a KeePass 1.x .kdb file opens read-only):"
    case .changing:
      return "CHANGING A VAULT (locked while the command runs; saved atomically beside the real file through "
        + "symbolic links: temporary file, fsync, verify, check that nobody else saved meanwhile, rename):"
    case .whole: return "WHOLE DATABASES:"
    case .noVault: return "NO VAULT NEEDED:"
    case .shell: return "SHELL COMPLETION AND MANUAL:"
    }
  }
}

/// A command: its table entry and its entry point.
struct Command: Sendable {
  /// The name typed after `kdbx`.
  var name: String
  /// The positional arguments as the synopsis shows them, e.g. `FILE [GROUP]`.
  var arguments: String
  /// One line for the command list of `kdbx --help` and the manual page.
  var summary: String
  var section: CommandSection
  /// What the command does, as `kdbx COMMAND --help` shows it: lines of at most 116 characters; a line that
  /// starts with `- ` starts a list item, and blank lines separate paragraphs.
  var details: String
  /// The options the command accepts, besides `--help`.
  var options: [OptionSpec]
  /// The values the completions offer for the positional arguments (`bash`, `zsh`, `fish`); empty: files.
  var positionalChoices: [String] = []
  /// The entry point, with the words after the command's name.
  var run: @Sendable ([String]) throws(CLIError) -> Void

  /// `kdbx COMMAND --help`: the synopsis, the details and every option.
  var help: String {
    var text = "USAGE: kdbx \(name)"
    if !arguments.isEmpty { text += " " + arguments }
    if !options.isEmpty { text += " [options]" }
    text += "\n"
    for line in details.split(separator: "\n", omittingEmptySubsequences: false) {
      text += line.isEmpty ? "\n" : "  " + line + "\n"
    }
    text += "\nOPTIONS:\n"
    text += HelpText.optionList(options + [CommandTable.helpOption])
    return String(text.dropLast())
  }
}

extension Command {
  /// A command whose arguments are parsed against its own `options` (``Arguments``) before `run` sees them: every
  /// command but `passkey`, which picks its options by subcommand first.
  init(
    name: String, arguments: String, summary: String, section: CommandSection, details: String,
    options: [OptionSpec], positionalChoices: [String] = [],
    run: @escaping @Sendable (inout Arguments) throws(CLIError) -> Void
  ) {
    self.init(
      name: name, arguments: arguments, summary: summary, section: section, details: details, options: options,
      positionalChoices: positionalChoices,
      run: { (raw: [String]) throws(CLIError) in
        var parsed = try Arguments(raw, options: options)
        try run(&parsed)
      })
  }
}

/// The table itself, and what is shared between commands.
enum CommandTable {
  /// Every command, in the order of `kdbx --help`.
  static func all() -> [Command] {
    [
      InfoCommand.command, ListCommand.command, ShowCommand.command, SearchCommand.command, TOTPCommand.command,
      ClipCommand.command, OpenCommand.command, AnalyzeCommand.command, ExportCommand.command,
      AttachmentExportCommand.command,
      AddCommand.command, EditCommand.command, RemoveCommand.command, MoveCommand.command, MakeGroupCommand.command,
      RemoveGroupCommand.command, AttachmentImportCommand.command, AttachmentRemoveCommand.command,
      VerifyCommand.command, MergeCommand.command, ConvertCommand.command, ImportCommand.command,
      CreateCommand.command, DatabaseEditCommand.command,
      GenerateCommand.command, EstimateCommand.command, DicewareCommand.command, CreateKeyFileCommand.command,
      CalibrateCommand.command, SelfTestCommand.command,
      CompletionsCommand.command, ManualCommand.command, PasskeyCommand.command,
    ]
  }

  /// `--help`, which every command takes (handled before the command runs).
  static let helpOption = OptionSpec(["-h", "--help"], "Show this help.")

  /// The options of `kdbx` without a command.
  static let globalOptions = [
    OptionSpec(["-h", "--help"], "Show this help, or a command's help after the command."),
    OptionSpec(["-V", "--version"], "Show the version and the commit this binary was built from."),
  ]

  /// The exit statuses of every command.
  static let exitStatuses: [(status: Int32, meaning: String)] = [
    (0, "success"),
    (1, "an error: bad arguments, a file that cannot be read or written, a failed check"),
    (2, "wrong password or key file"),
  ]

  /// The environment variables `kdbx` reads.
  static let environment: [(name: String, meaning: String)] = [
    ("PATH", "Where clip looks for wl-copy, xclip, xsel or pbcopy."),
    ("WAYLAND_DISPLAY", "When set, clip uses wl-copy (Wayland) first."),
    ("DISPLAY", "When set, clip uses xclip or xsel (X11)."),
  ]

  /// The files `kdbx` reads or writes besides the ones named on its command line.
  static let files: [(name: String, meaning: String)] = [
    (
      ".FILE.tmp-PID-N",
      "The temporary file a save writes, syncs and verifies beside FILE (in the directory of the real file "
        + "when FILE is a symbolic link) before renaming it over FILE; removed when a save fails."
    ),
    (
      "/proc/locks",
      "Read on Linux when another program holds the vault's lock (flock(2) on FILE itself, no lock file), to "
        + "name that program."
    ),
  ]

  // MARK: Options shared by several commands

  static let keyFile = OptionSpec(
    ["-k", "--key-file"], value: "PATH", path: true, "Use a key file (with the password, or alone with --no-password).")
  static let noPassword = OptionSpec(["--no-password"], "Do not ask for a password.")
  static let allowLargeKeyFile = OptionSpec(
    ["--allow-large-key-file"], "Accept a key file over 64 MiB (hashed in a stream).")
  static let maxKDFSeconds = OptionSpec(
    ["--max-kdf-seconds"], value: "N",
    "Measure first, then open the vault if its key derivation takes up to about N seconds on this machine, even "
      + "beyond the default work cap (Argon2 128 GiB of memory x iterations, AES-KDF 500,000,000 rounds), and "
      + "refuse it otherwise. Without it, vaults over the cap are refused before the KDF runs.")
  static let lockTimeout = OptionSpec(
    ["--lock-timeout"], value: "S", "Wait up to S seconds (default 20) for another command saving the vault.")
  static let json = OptionSpec(["--json"], "Machine-readable output.")

  /// The options for opening a vault, of the commands that read one.
  static let readingVault = [keyFile, noPassword, allowLargeKeyFile, maxKDFSeconds]
  /// The options for opening a vault, of the commands that change one.
  static let changingVault = readingVault + [lockTimeout]
  /// The options that give a new vault's credentials (`create`, `import`).
  static let newVaultKey = [keyFile, noPassword, allowLargeKeyFile]

  /// The format settings of `create`, `convert`, `import` and `db-edit`.
  static let settings = [
    OptionSpec(["--format"], value: "VERSION", choices: ["3.1", "4.0", "4.1"], "The KDBX version."),
    OptionSpec(["--cipher"], value: "CIPHER", choices: ["aes256", "chacha20", "twofish"], "The outer cipher."),
    OptionSpec(["--kdf"], value: "KDF", choices: ["argon2id", "argon2d", "aes-kdf"], "The key derivation function."),
    OptionSpec(
      ["--decryption-time"], value: "MS",
      "Measure this machine and set the Argon2 iterations or AES-KDF rounds so that unlocking takes about MS "
        + "milliseconds (100 to 5000); not with --iterations or --rounds."),
    OptionSpec(["--iterations"], value: "N", "Argon2 iterations."),
    OptionSpec(["--rounds"], value: "N", "AES-KDF rounds."),
    OptionSpec(["--memory"], value: "MiB", "Argon2 memory in MiB (1 to 4096)."),
    OptionSpec(["--parallelism"], value: "N", "Argon2 lanes (1 to 64)."),
  ]

  /// How `generate`, `add --generate` and `edit --generate` make a password.
  static let generator = [
    OptionSpec(["-L", "--length"], value: "N", "The password's length (default 20)."),
    OptionSpec(["-l", "--lower"], "Use lower-case letters."),
    OptionSpec(["-U", "--upper"], "Use upper-case letters."),
    OptionSpec(["-n", "--digits", "--numeric"], "Use digits."),
    OptionSpec(["-s", "--symbols", "--special"], "Use symbols."),
    OptionSpec(["-x", "--exclude"], value: "CHARS", "Leave out these characters (may be repeated)."),
  ]

  /// The fields `add` and `edit` set.
  static let entryFields =
    [
      OptionSpec(["--title"], value: "TITLE", "Set the title."),
      OptionSpec(["-u", "--username"], value: "NAME", "Set the user name."),
      OptionSpec(["--url"], value: "URL", "Set the URL."),
      OptionSpec(["--notes"], value: "TEXT", "Set the notes."),
      OptionSpec(["--tags"], value: "TAGS", "Set the tags ('a;b')."),
      OptionSpec(
        ["-p", "--password-prompt"], "Read the entry's password (the line after the vault password when piped)."),
      OptionSpec(["-g", "--generate"], "Generate the password, with the options below."),
    ] + generator

  // MARK: The top-level help

  /// `kdbx --help`.
  static func usage(version: String) -> String {
    var text = "kdbx \(version): read and write KeePass KDBX databases\n\nUSAGE: kdbx <command> [arguments] [options]\n"
    let commands = all()
    for section in CommandSection.allCases {
      text += "\n" + HelpText.wrap(section.heading, width: 118, indent: "") + "\n"
      for command in commands where command.section == section {
        let synopsis = command.arguments.isEmpty ? command.name : command.name + " " + command.arguments
        text += HelpText.item(synopsis, command.summary, column: 21)
      }
    }
    text += "\nVAULT OPTIONS (of the commands that open a vault; --lock-timeout: of those that change one):\n"
    text += HelpText.optionList(changingVault)
    text += "\nENTRY and GROUP are paths from the root's children, like 'Internet/GitHub', or UUIDs.\n"
    text += "\nOPTIONS:\n" + HelpText.optionList(globalOptions)
    let statuses = exitStatuses.map { "\($0.status) \($0.meaning)" }.joined(separator: "; ")
    text += "\n" + HelpText.wrap("EXIT STATUS: " + statuses + ".", width: 118, indent: "") + "\n"
    text += "\nShell completions: 'kdbx completions bash|zsh|fish'; the manual page: 'kdbx man'."
    return text
  }
}

/// Laying out help text: word wrapping and two-column lists.
enum HelpText {
  /// The options as `--help` lists them: names and value, then the summary, wrapped.
  static func optionList(_ options: [OptionSpec]) -> String {
    options.map { item($0.display, $0.summary, column: 27) }.joined()
  }

  /// `  LABEL   TEXT`, the text starting at `column` (on the next line when the label is too long), wrapped.
  static func item(_ label: String, _ text: String, column: Int) -> String {
    let head = "  " + label
    let pad = String(repeating: " ", count: column)
    let body = wrap(text, width: 118 - column, indent: "").split(separator: "\n").map { pad + $0 }
    guard var first = body.first else { return head + "\n" }
    var lines = [head]
    if head.count + 2 <= column {
      first = head + String(repeating: " ", count: column - head.count) + first.dropFirst(column)
      lines = [first]
    } else {
      lines.append(first)
    }
    return (lines + body.dropFirst()).joined(separator: "\n") + "\n"
  }

  /// `text` wrapped at `width` characters, continuation lines starting with `indent`.
  static func wrap(_ text: String, width: Int, indent: String) -> String {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ") {
      if !line.isEmpty && line.count + 1 + word.count > width {
        lines.append(line)
        line = indent + word
      } else {
        line += (line.isEmpty ? "" : " ") + word
      }
    }
    if !line.isEmpty { lines.append(line) }
    return lines.joined(separator: "\n")
  }
}
