import KDBX

/// The word lists of the strength estimator (zxcvbn's frequency lists).
public enum StrengthDictionary: Sendable, Equatable {
  /// Leaked passwords, most common first.
  case passwords
  /// English words by their frequency in Wikipedia.
  case englishWikipedia
  /// US female given names.
  case femaleNames
  /// US surnames.
  case surnames
  /// Words of US television and film subtitles.
  case usTVAndFilm
  /// US male given names.
  case maleNames
}

/// The keyboards whose adjacent keys the estimator knows.
public enum KeyboardLayout: Sendable, Equatable {
  case qwerty
  case dvorak
  case keypad
  case macKeypad
}

/// A guessable part of a password, found by the estimator (zxcvbn's "match").
public struct StrengthMatch: Sendable, Equatable {
  /// What kind of pattern the part is.
  public enum Pattern: Sendable, Equatable {
    /// A word of a list: its rank, whether it was reversed, and the substitutions (`"4"` for `"a"`) undone.
    case dictionary(StrengthDictionary, rank: Int, reversed: Bool, substitutions: [Substitution])
    /// A run of adjacent keys, with its number of direction changes and shifted keys.
    case spatial(KeyboardLayout, turns: Int, shiftedCount: Int)
    /// A part repeated (`aaa`, `abcabc`): the repeated unit's length in characters and the number of repeats.
    case `repeat`(baseLength: Int, count: Int)
    /// Characters with a constant step (`abcd`, `9753`).
    case sequence(ascending: Bool)
    /// A year from 1900 to 2019.
    case recentYear(Int)
    /// A date (day, month and year in some order), with or without separators.
    case date(year: Int, month: Int, day: Int, separated: Bool)
    /// Anything else: counted as 10 possibilities a character.
    case bruteforce
  }

  /// One undone substitution: `substitute` stands for `letter`.
  public struct Substitution: Sendable, Equatable {
    public var substitute: Unicode.Scalar
    public var letter: Unicode.Scalar
  }

  /// The first and last positions (in Unicode scalars) of the part.
  public var range: ClosedRange<Int>
  public var pattern: Pattern
  /// The guesses the part needs alone (before the minimum for parts of a longer password).
  public var guesses: Double
  /// Whether a dictionary word's letters are capitalised in a way that adds guesses.
  public var capitalized: Bool = false
  /// For a dictionary word: whether only its first letter is upper case; otherwise `false`.
  public var startsUpper: Bool = false
  /// For a dictionary word: whether all its letters are upper case; otherwise `false`.
  public var allUpper: Bool = false

  var length: Int { range.upperBound - range.lowerBound + 1 }
}
