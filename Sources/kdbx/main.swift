// The `kdbx` command-line tool. See `kdbx --help` and the README.
import Glibc

let toolVersion = "0.1.0-dev"

let usage = """
  kdbx \(toolVersion): read and write KeePass KDBX databases

  USAGE: kdbx <command> [arguments] [options]

  COMMANDS (no vault needed):
    generate      Print a random password (see 'kdbx generate --help').

  Vault commands (info, ls, show, search, add, edit, ...) arrive with the KDBX codec.

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
    Command(name: "generate", help: GenerateCommand.help, run: GenerateCommand.run),
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
  do {
    try command.run(rest)
    return 0
  } catch {
    Terminal.error("kdbx \(command.name): \(error.message)\n")
    return error.exitStatus
  }
}

exit(main())
