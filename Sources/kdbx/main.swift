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

/// The version of the tool and the library; `CHANGELOG.md` says what each version changed.
let toolVersion = "0.1.0-dev"

func main() -> Int32 {
  let arguments = Array(CommandLine.arguments.dropFirst())
  guard let first = arguments.first, first != "--help", first != "-h", first != "help" else {
    Terminal.out(CommandTable.usage(version: toolVersion) + "\n")
    return 0
  }
  if first == "--version" || first == "-V" {
    Terminal.out(BuildInfo.versionLine(toolVersion) + "\n")
    return 0
  }
  guard let command = CommandTable.all().first(where: { $0.name == first }) else {
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
