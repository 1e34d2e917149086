// The `kdbx` command-line tool. See `kdbx --help` and the README.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

let toolVersion = "0.1.0-dev"

let usage = """
  kdbx \(toolVersion): read and write KeePass KDBX databases

  USAGE: kdbx <command> [arguments] [options]

  READING A VAULT (FILE first; the password is read from the terminal, or the first line of stdin;
  a KeePass 1.x .kdb file opens read-only):
    info               Format version, cipher, key derivation, compression and counts.
    ls [GROUP]         List a group's entries and subgroups (-R recursive, --flatten full paths).
    show ENTRY         Show an entry (--show-protected, --attributes NAME, --totp).
    search TERM        Find entries by title, user name, URL, tags or notes.
    totp ENTRY         Print the entry's current one-time password.
    clip ENTRY [TIMEOUT]
                       Copy the password (-a NAME, --totp) to the clipboard; cleared after TIMEOUT s (10).
    open               Unlock once, then run ls, show, search, totp, clip, add, edit, rm, mv, mkdir and save
                       at a prompt (or piped after the password); locks on exit or after --timeout S idle.
    analyze            Weak, reused, expired and old passwords (--hibp LIST: a local Have I Been Pwned list).
    export             Write the whole vault in clear (--format xml|json|csv).
    attachment-export ENTRY NAME PATH
                       Write an attachment to a new file (or --stdout).

  CHANGING A VAULT (locked while the command runs; saved atomically beside the real file through symbolic links:
  temporary file, fsync, verify, check that nobody else saved meanwhile, rename):
    add GROUP/TITLE    Add an entry (--username, --url, --notes, --password-prompt or --generate).
    edit ENTRY         Change an entry; the old version goes to its history.
    rm ENTRY           Move an entry to the recycle bin (delete it if it is already there).
    mv ENTRY GROUP     Move an entry to another group.
    mkdir GROUP        Add a group.
    rmdir GROUP        Move a group to the recycle bin (delete it if it is already there).
    attachment-import ENTRY NAME PATH
                       Attach a file to an entry (--force replaces).
    attachment-rm ENTRY NAME
                       Remove an attachment from an entry.

  PASSKEYS (stored as KeePassXC stores them; WebAuthn registration and assertion):
    passkey ls FILE    List the passkeys: relying party, user, algorithm, entry path.
    passkey register FILE GROUP/TITLE --rp ID --user NAME
                       Create a passkey (--algorithm es256|eddsa) on the entry, or a new one; with
                       --challenge B64URL --origin URL --json, print the registration's PublicKeyCredential JSON.
    passkey assert FILE ENTRY --challenge B64URL --origin URL
                       Print the assertion's PublicKeyCredential JSON.
    passkey export-public FILE ENTRY
                       Print the public key as COSE and PEM.

  WHOLE DATABASES:
    verify FILE        Check every integrity layer and the tree's references, and explain.
    merge FILE OTHER...
                       Merge other databases into FILE (--same-credentials, --dry-run, --keep-newer).
    convert FILE OUT   Write FILE with other settings (--format, --cipher, --kdf, ...; --accept-loss).
    import SOURCE OUT  Create a database from a KeePass 2 XML export, a KeePass 1.x .kdb file, a CSV export,
                       a Bitwarden JSON export or a 1Password .1pux export (detected from the content;
                       --columns maps CSV columns; settings as for create).
    create FILE        Create an empty database (--cipher, --kdf, --format, --decryption-time MS or
                       --iterations/--rounds, --memory, ...).
    db-edit FILE       Change the password or key file (--set-password, --set-key-file PATH,
                       --unset-password, --unset-key-file) and/or the format settings, in place.

  NO VAULT NEEDED:
    generate           Print a random password.
    estimate [PASSWORD]
                       Estimate a password's strength: bits, a rating and the reasons (zxcvbn's approach).
    diceware           Print a random passphrase from the EFF large word list (--words N; entropy shown).
    create-key-file PATH
                       Write a new random key file (KeePass XML 2.0).
    calibrate          The Argon2 iterations or AES-KDF rounds for a decryption time on this machine
                       (--target-ms MS, --memory MiB, --parallelism N, --kdf, --json).
    selftest           The library's known-answer self-test, one line per check (--json; --vectors DIR runs
                       every .vec file of Vectors/ too).

  VAULT OPTIONS:
    --key-file PATH    Use a key file (with the password, or alone with --no-password).
    --no-password      Do not ask for a password.
    --allow-large-key-file
                       Accept a key file over 64 MiB (hashed in a stream).
    --lock-timeout S   Commands that change a vault wait up to S seconds (default 20) for another one saving it.
    --max-kdf-seconds N
                       Measure first, then open the vault if its key derivation takes up to about N seconds
                       on this machine, even beyond the default work cap (Argon2 128 GiB of memory x
                       iterations, AES-KDF 500,000,000 rounds), and refuse it otherwise. Without it, vaults
                       over the cap are refused before the KDF runs.
    --json             Machine-readable output (info, ls, show, search, totp, calibrate).

  ENTRY and GROUP are paths from the root's children, like 'Internet/GitHub', or UUIDs.

  OPTIONS:
    --help       Show this help, or a command's help after the command.
    --version    Show the version.

  EXIT STATUS: 0 success, 1 error, 2 wrong password or key file.
  """

/// A command: its help text and its entry point.
struct Command {
  var name: String
  var help: String
  var run: ([String]) throws(CLIError) -> Void
}

func allCommands() -> [Command] {
  [
    Command(name: "info", help: InfoCommand.help, run: InfoCommand.run),
    Command(name: "ls", help: ListCommand.help, run: ListCommand.run),
    Command(name: "show", help: ShowCommand.help, run: ShowCommand.run),
    Command(name: "search", help: SearchCommand.help, run: SearchCommand.run),
    Command(name: "totp", help: TOTPCommand.help, run: TOTPCommand.run),
    Command(name: "export", help: ExportCommand.help, run: ExportCommand.run),
    Command(name: "add", help: AddCommand.help, run: AddCommand.run),
    Command(name: "edit", help: EditCommand.help, run: EditCommand.run),
    Command(name: "rm", help: RemoveCommand.help, run: RemoveCommand.run),
    Command(name: "mv", help: MoveCommand.help, run: MoveCommand.run),
    Command(name: "mkdir", help: MakeGroupCommand.help, run: MakeGroupCommand.run),
    Command(name: "rmdir", help: RemoveGroupCommand.help, run: RemoveGroupCommand.run),
    Command(name: "attachment-import", help: AttachmentImportCommand.help, run: AttachmentImportCommand.run),
    Command(name: "attachment-rm", help: AttachmentRemoveCommand.help, run: AttachmentRemoveCommand.run),
    Command(name: "attachment-export", help: AttachmentExportCommand.help, run: AttachmentExportCommand.run),
    Command(name: "create", help: CreateCommand.help, run: CreateCommand.run),
    Command(name: "verify", help: VerifyCommand.help, run: VerifyCommand.run),
    Command(name: "merge", help: MergeCommand.help, run: MergeCommand.run),
    Command(name: "import", help: ImportCommand.help, run: ImportCommand.run),
    Command(name: "convert", help: ConvertCommand.help, run: ConvertCommand.run),
    Command(name: "generate", help: GenerateCommand.help, run: GenerateCommand.run),
    Command(name: "calibrate", help: CalibrateCommand.help, run: CalibrateCommand.run),
    Command(name: "selftest", help: SelfTestCommand.help, run: SelfTestCommand.run),
    Command(name: "db-edit", help: DatabaseEditCommand.help, run: DatabaseEditCommand.run),
    Command(name: "create-key-file", help: CreateKeyFileCommand.help, run: CreateKeyFileCommand.run),
    Command(name: "diceware", help: DicewareCommand.help, run: DicewareCommand.run),
    Command(name: "estimate", help: EstimateCommand.help, run: EstimateCommand.run),
    Command(name: "analyze", help: AnalyzeCommand.help, run: AnalyzeCommand.run),
    Command(name: "clip", help: ClipCommand.help, run: ClipCommand.run),
    Command(name: "open", help: OpenCommand.help, run: OpenCommand.run),
    Command(name: "passkey", help: PasskeyCommand.help, run: PasskeyCommand.run),
  ]
}

func main() -> Int32 {
  let arguments = Array(CommandLine.arguments.dropFirst())
  guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
    Terminal.out(usage + "\n")
    return 0
  }
  if first == "--version" || first == "-V" {
    Terminal.out("kdbx \(toolVersion)\n")
    return 0
  }
  guard let command = allCommands().first(where: { $0.name == first }) else {
    Terminal.error("kdbx: unknown command '\(first)' (see 'kdbx --help')\n")
    return 1
  }
  let rest = Array(arguments.dropFirst())
  if rest.contains("--help") || rest.contains("-h") {
    Terminal.out(command.help + "\n")
    return 0
  }
  // Key derivation and compression run on the concurrency runtime's worker threads, whose first start costs 1-3 ms
  // in a fresh process: start one now, while the vault and the password are read.
  Task.detached(priority: .high) {}
  do {
    try KeePass1Access.refuseEarly(command: command.name, arguments: rest)
    try command.run(rest)
    return 0
  } catch {
    // One line: messages may echo input (names, paths, values), escaped as `show` escapes vault text.
    Terminal.error("kdbx \(command.name): \(TerminalText.line(error.message))\n")
    return error.exitStatus
  }
}

exit(main())
