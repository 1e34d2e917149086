import KDBX
import KDBXBase
import KDBXPasswords

/// `kdbx generate [--length N] [--lower] [--upper] [--digits] [--symbols] [--exclude CHARS]
/// [--exclude-similar] [--count N]`: prints random passwords. No vault needed.
enum GenerateCommand {
  static let command = Command(
    name: "generate", arguments: "", summary: "Print a random password.",
    section: .noVault,
    details: """
      Prints a random password. Without class flags it uses lower, upper and digits; every chosen class
      appears at least once. Default length 20.
      """,
    options: CommandTable.generator + [
      OptionSpec(["--exclude-similar"], "Leave out look-alike characters (0O1lI|)."),
      OptionSpec(["--count"], value: "N", "Print N passwords."), CommandTable.json,
    ],
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    var options = try PasswordGenerator.Options(&arguments)
    options.excludesLookAlikes = arguments.flag("--exclude-similar")
    let count = try arguments.integer("--count", in: 1...10_000) ?? 1
    let json = arguments.flag("--json")
    try arguments.finish(maxPositionals: 0)

    let generator = PasswordGenerator(options: options)
    var random = SystemRandomNumberGenerator()
    var passwords: [String] = []
    for _ in 0..<count {
      do {
        passwords.append(try generator.generate(using: &random))
      } catch {
        throw .usage(describe(error))
      }
    }
    if json {
      let entropy = JSONValue.double((generator.entropyBits() * 10).rounded() / 10)
      let items = passwords.map { JSONValue.object([("password", .string($0)), ("entropyBits", entropy)]) }
      Terminal.out(JSONValue.array(items).rendered() + "\n")
    } else {
      for password in passwords { Terminal.out(password + "\n") }
    }
  }

  static func describe(_ error: PasswordGenerator.GeneratorError) -> String {
    switch error {
    case .lengthOutOfRange(let length): return "length \(length) is out of range"
    case .noCharactersLeft: return "the exclusions leave no characters to choose from"
    case .lengthTooShortForClasses(let length, let classes):
      return "a length of \(length) cannot hold one character from each of \(classes) classes"
    }
  }
}
