// The `kdbx` command-line tool. Commands arrive with the codec (see README).
#if canImport(Glibc)
  import Glibc
#endif

let toolVersion = "0.1.0-dev"

let usage = """
  kdbx \(toolVersion): read and write KeePass KDBX databases

  USAGE: kdbx <command> [FILE] [options]

  OPTIONS:
    --help       Show this help.
    --version    Show the version.

  Vault commands (info, ls, show, add, ...) arrive with the KDBX codec.
  """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.isEmpty || arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
} else if arguments.contains("--version") {
  print("kdbx \(toolVersion)")
} else {
  var standardError = StandardError()
  print("kdbx: unknown command '\(arguments[0])'; see 'kdbx --help'", to: &standardError)
  exit(1)
}

struct StandardError: TextOutputStream {
  mutating func write(_ string: String) {
    var bytes = Array(string.utf8)
    _ = Glibc.write(2, &bytes, bytes.count)
  }
}
