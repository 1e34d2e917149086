import KDBX
import KDBXBase
import KDBXPasswords

/// `kdbx estimate [PASSWORD] [--advanced] [--json]`: the strength of a password (``PasswordStrength``). No vault
/// needed.
enum EstimateCommand {
  static let command = Command(
    name: "estimate", arguments: "[PASSWORD]",
    summary: "Estimate a password's strength: bits, a rating and the reasons (zxcvbn's approach).",
    section: .noVault,
    details: """
      Estimates how hard PASSWORD is to guess, knowing common passwords, English words, names, keyboard
      patterns, repeats, sequences, years, dates and l33t substitutions (zxcvbn's approach, as KeePassXC).
      Without PASSWORD it is asked for (echo off) or read from the first line of standard input, which keeps
      it out of the shell history. Prints the length, the strength in bits, a rating (very weak, weak, fair,
      strong, very strong: zxcvbn's score 0-4) and the reasons. --advanced lists the parts found.
      """,
    options: [OptionSpec(["-a", "--advanced"], "List the parts found."), CommandTable.json],
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let advanced = arguments.flag("--advanced", "-a")
    let json = arguments.flag("--json")
    try arguments.finish(maxPositionals: 1)
    let password: String
    if let given = arguments.positionals.first {
      password = given
    } else {
      password = try VaultAccess.readPassword(
        prompt: "Password to estimate: ", missing: "no password given (as an argument or on standard input)")
    }
    let strength = PasswordStrength(estimating: password)
    let length = password.unicodeScalars.count
    if json {
      var fields: [(String, JSONValue)] = [
        ("length", .number(length)), ("bits", .double(rounded(strength.bits))),
        ("guessesLog10", .double(rounded(strength.bits / 3.321928094887362))),
        ("rating", .string(strength.rating.name)), ("score", .number(strength.rating.rawValue)),
        ("reasons", .array(strength.reasons.map { .string($0.description) })),
      ]
      if advanced { fields.append(("parts", .array(strength.sequence.map { part(of: $0, in: password) }))) }
      Terminal.out(JSONValue.object(fields).rendered() + "\n")
      return
    }
    var text = "Length:  \(length)\n"
    text += "Entropy: \(rounded(strength.bits)) bits (about 10^\(rounded(strength.bits / 3.321928094887362)) guesses)\n"
    text += "Rating:  \(strength.rating.name) (\(strength.rating.rawValue) of 4)\n"
    if !strength.reasons.isEmpty {
      text += "Reasons:\n"
      for reason in strength.reasons { text += "  \(reason.description)\n" }
    }
    if advanced {
      text += "Parts:\n"
      let scalars = Array(password.unicodeScalars)
      for match in strength.sequence {
        var token = ""
        token.unicodeScalars.append(contentsOf: scalars[match.range])
        text +=
          "  \(TerminalText.line(token))  \(kind(match)), 10^\(rounded(Log2.of(match.guesses) / 3.321928094887362)) guesses\n"
      }
    }
    Terminal.out(text)
  }

  static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

  static func part(of match: StrengthMatch, in password: String) -> JSONValue {
    let scalars = Array(password.unicodeScalars)
    var token = ""
    token.unicodeScalars.append(contentsOf: scalars[match.range])
    return .object([
      ("token", .string(token)), ("start", .number(match.range.lowerBound)), ("kind", .string(kind(match))),
      ("guessesLog10", .double(rounded(Log2.of(match.guesses) / 3.321928094887362))),
    ])
  }

  static func kind(_ match: StrengthMatch) -> String {
    switch match.pattern {
    case .dictionary(let list, let rank, let reversed, let substitutions):
      var text = "word of \(listName(list)) (rank \(rank))"
      if reversed { text += ", reversed" }
      if !substitutions.isEmpty { text += ", l33t" }
      return text
    case .spatial(let layout, let turns, _):
      return "keyboard pattern (\(layout), \(turns) turn\(turns == 1 ? "" : "s"))"
    case .repeat(let base, let count): return "repeat (\(count) x \(base) character\(base == 1 ? "" : "s"))"
    case .sequence(let ascending): return ascending ? "sequence" : "descending sequence"
    case .recentYear: return "recent year"
    case .date: return "date"
    case .bruteforce: return "brute force"
    }
  }

  static func listName(_ list: StrengthDictionary) -> String {
    switch list {
    case .passwords: return "common passwords"
    case .englishWikipedia: return "English (Wikipedia)"
    case .femaleNames: return "female names"
    case .surnames: return "surnames"
    case .usTVAndFilm: return "English (TV and film)"
    case .maleNames: return "male names"
    }
  }
}
