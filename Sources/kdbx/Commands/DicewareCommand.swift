import KDBX
import KDBXBase
import KDBXPasswords

/// `kdbx diceware [--words N] [--separator TEXT] [--word-list FILE] [--count N] [--json]`: prints random
/// passphrases from the EFF large word list (compiled in) or a word list file. No vault needed.
enum DicewareCommand {
  static let command = Command(
    name: "diceware", arguments: "",
    summary: "Print a random passphrase from the EFF large word list (--words N; entropy shown).",
    section: .noVault,
    details: """
      Prints a random passphrase of N words (default 7) drawn uniformly from the EFF large word list
      (7,776 words, 12.9 bits each; Electronic Frontier Foundation, CC BY 3.0 US), or from FILE (one word a
      line; repeated words count once). The passphrase goes to standard output and its entropy to standard
      error ("Entropy: 90.5 bits ..."); --json prints both as one document.
      """,
    options: [
      OptionSpec(["-W", "--words"], value: "N", "The number of words (default 7)."),
      OptionSpec(["--separator"], value: "TEXT", "Between words (default a space)."),
      OptionSpec(["-w", "--word-list"], value: "FILE", path: true, "Draw from FILE, one word a line."),
      OptionSpec(["--count"], value: "N", "Print N passphrases."),
      OptionSpec(["--json"], "Print the passphrase and its entropy as one document."),
    ],
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let range = 1...PassphraseGenerator.maximumWordCount
    let shortWordCount = try arguments.integer("-W", in: range)
    let wordCount = try arguments.integer("--words", in: range) ?? shortWordCount ?? 7
    let separator = arguments.value("--separator") ?? " "
    let listPath = arguments.value("--word-list", "-w")
    let count = try arguments.integer("--count", in: 1...10_000) ?? 1
    let json = arguments.flag("--json")
    try arguments.finish(maxPositionals: 0)

    var words: [String]? = nil
    if let listPath {
      let bytes = try VaultAccess.readInput(listPath)
      guard let text = String(validating: bytes, as: UTF8.self) else {
        throw .failure("word list \(listPath) is not UTF-8 text")
      }
      words = text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).map {
        // "DICE<TAB>WORD" lines (diceware lists) give their word; other lines are the word, trimmed.
        let line = $0.split(separator: "\t").last.map(String.init) ?? ""
        return String(line.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
      }
    }
    let generator: PassphraseGenerator
    do {
      generator = try PassphraseGenerator(wordCount: wordCount, separator: separator, words: words)
    } catch {
      switch error {
      case .wordCountOutOfRange(let count):
        throw .usage("--words must be 1 to \(PassphraseGenerator.maximumWordCount), not \(count)")
      case .wordListTooSmall(let found):
        throw .failure("word list \(listPath ?? "") has \(found) distinct word(s); at least 2 are needed")
      }
    }
    var random = SystemRandomNumberGenerator()
    let phrases = (0..<count).map { _ in generator.generate(using: &random) }
    let bits = (generator.entropyBits() * 10).rounded() / 10
    if json {
      let items = phrases.map {
        JSONValue.object([
          ("passphrase", .string($0)), ("entropyBits", .double(bits)), ("words", .number(wordCount)),
          ("wordListSize", .number(generator.words.count)),
        ])
      }
      Terminal.out(JSONValue.array(items).rendered() + "\n")
      return
    }
    for phrase in phrases { Terminal.out(phrase + "\n") }
    let source = listPath.map { "a list of \(generator.words.count) words in \($0)" } ?? "the EFF large word list"
    Terminal.error("Entropy: \(bits) bits (\(wordCount) words from \(source))\n")
  }
}
