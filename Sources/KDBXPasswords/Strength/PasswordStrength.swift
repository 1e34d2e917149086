import KDBX

/// A password's strength: how many guesses an attacker who knows common passwords, words, names, keyboard
/// patterns, repeats, sequences, dates and l33t substitutions needs, after zxcvbn (Wheeler, "zxcvbn: Low-Budget
/// Password Strength Estimation", USENIX Security 2016), which KeePassXC uses through zxcvbn-c.
///
/// The frequency lists are zxcvbn's, cut to their most frequent words (`Vectors/tools/zxcvbn_tables.py`). The
/// rating uses zxcvbn's thresholds, so it agrees with zxcvbn's `score` for almost every password.
///
/// ```swift
/// let strength = PasswordStrength(estimating: "Tr0ub4dor&3")
/// strength.rating        // .fair
/// strength.bits          // log2 of the guesses
/// strength.reasons       // [.dictionaryWord(...), .l33tSubstitutions, ...]
/// ```
public struct PasswordStrength: Sendable {
  /// The five-step rating (zxcvbn's score 0-4).
  public enum Rating: Int, Sendable, Comparable, CaseIterable {
    /// Under 10^3 guesses: guessed at once.
    case veryWeak = 0
    /// Under 10^6 guesses: falls to an online attack.
    case weak = 1
    /// Under 10^8 guesses: resists a throttled online attack.
    case fair = 2
    /// Under 10^10 guesses: resists an offline attack on a slow hash.
    case strong = 3
    /// 10^10 guesses or more.
    case veryStrong = 4

    public static func < (lhs: Rating, rhs: Rating) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "very weak", "weak", "fair", "strong" or "very strong".
    public var name: String {
      switch self {
      case .veryWeak: return "very weak"
      case .weak: return "weak"
      case .fair: return "fair"
      case .strong: return "strong"
      case .veryStrong: return "very strong"
      }
    }

    /// The rating of `guesses` (zxcvbn's `guesses_to_score`).
    public init(guesses: Double) {
      let delta = 5.0
      if guesses < 1e3 + delta {
        self = .veryWeak
      } else if guesses < 1e6 + delta {
        self = .weak
      } else if guesses < 1e8 + delta {
        self = .fair
      } else if guesses < 1e10 + delta {
        self = .strong
      } else {
        self = .veryStrong
      }
    }
  }

  /// Why a password is guessable. Descriptions name the kind of pattern, never the password's characters.
  public enum Reason: Sendable, Equatable, CustomStringConvertible {
    /// Empty.
    case empty
    /// One of the most common passwords, with its rank (1 is the most common).
    case commonPassword(rank: Int)
    /// A word of a list.
    case dictionaryWord(StrengthDictionary)
    /// A list word written backwards.
    case reversedWord
    /// Letters replaced by look-alikes (`@` for `a`).
    case l33tSubstitutions
    /// Only the first letter, or every letter, capitalised.
    case predictableCapitalization
    /// A run of adjacent keys; `straight` when it does not change direction.
    case keyboardPattern(KeyboardLayout, straight: Bool)
    /// Repeated characters or a repeated part.
    case repeated(singleCharacter: Bool)
    /// Characters in sequence (`abc`, `6543`).
    case sequence
    /// A recent year.
    case recentYear
    /// A date.
    case date
    /// Short and without any pattern: few enough characters to try them all.
    case short(length: Int)

    public var description: String {
      switch self {
      case .empty: return "empty"
      case .commonPassword(let rank):
        if rank <= 10 { return "one of the 10 most common passwords" }
        if rank <= 100 { return "one of the 100 most common passwords" }
        return "a common password (rank \(rank) of the leaked-password list)"
      case .dictionaryWord(let list):
        switch list {
        case .passwords: return "a common password"
        case .englishWikipedia, .usTVAndFilm: return "an English word"
        case .femaleNames, .maleNames: return "a first name"
        case .surnames: return "a surname"
        }
      case .reversedWord: return "a word written backwards, which is hardly harder to guess"
      case .l33tSubstitutions: return "predictable substitutions like '@' for 'a'"
      case .predictableCapitalization: return "capitals only at the start or throughout, which hardly helps"
      case .keyboardPattern(_, let straight):
        return straight ? "a straight row of keys" : "a keyboard pattern"
      case .repeated(let single): return single ? "repeated characters like 'aaa'" : "a repeated part like 'abcabc'"
      case .sequence: return "a sequence like 'abc' or '6543'"
      case .recentYear: return "a recent year"
      case .date: return "a date"
      case .short(let length): return "only \(length) characters"
      }
    }
  }

  /// Characters past this length (in Unicode scalars) are counted as brute force (10 guesses each) instead of
  /// being matched, which bounds the work of every matcher.
  public static let maximumAnalyzedLength = 100

  /// The estimated number of guesses.
  public let guesses: Double
  /// log2 of ``guesses``: the strength in bits.
  public let bits: Double
  /// The five-step rating.
  public let rating: Rating
  /// The parts the estimate sees, in order (brute-forced gaps included).
  public let sequence: [StrengthMatch]
  /// Why the password is guessable, most important first; empty for a strong password without patterns.
  public let reasons: [Reason]

  /// Estimates `password`'s strength.
  public init(estimating password: String) {
    let scalars = Array(password.unicodeScalars)
    let analyzed = Array(scalars.prefix(PasswordStrength.maximumAnalyzedLength))
    var (guesses, sequence) = StrengthScoring.mostGuessableSequence(analyzed)
    for _ in analyzed.count..<scalars.count { guesses *= StrengthScoring.bruteforceCardinality }
    self.guesses = guesses
    bits = Log2.of(guesses)
    rating = Rating(guesses: guesses)
    self.sequence = sequence
    reasons = PasswordStrength.reasons(sequence, length: scalars.count)
  }

  static func reasons(_ sequence: [StrengthMatch], length: Int) -> [Reason] {
    guard length > 0 else { return [.empty] }
    var reasons: [Reason] = []
    func add(_ reason: Reason) {
      // English words from both lists (and other pairs that read the same) are said once.
      if !reasons.contains(where: { $0.description == reason.description }) { reasons.append(reason) }
    }
    // Longest parts first: they say most about the password.
    let ordered = sequence.enumerated().sorted { ($0.element.length, -$0.offset) > ($1.element.length, -$1.offset) }
    for (_, match) in ordered {
      switch match.pattern {
      case .dictionary(let list, let rank, let reversed, let substitutions):
        if list == .passwords && sequence.count == 1 && !reversed && substitutions.isEmpty {
          add(.commonPassword(rank: rank))
        } else {
          add(.dictionaryWord(list))
        }
        if reversed { add(.reversedWord) }
        if !substitutions.isEmpty { add(.l33tSubstitutions) }
        if match.startsUpper || match.allUpper { add(.predictableCapitalization) }
      case .spatial(let layout, let turns, _): add(.keyboardPattern(layout, straight: turns == 1))
      case .repeat(let baseLength, _): add(.repeated(singleCharacter: baseLength == 1))
      case .sequence: add(.sequence)
      case .recentYear: add(.recentYear)
      case .date: add(.date)
      case .bruteforce: break
      }
    }
    if reasons.isEmpty && length < 10 { add(.short(length: length)) }
    return reasons
  }
}
