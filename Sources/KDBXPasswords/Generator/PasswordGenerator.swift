import KDBX

/// Random passwords from chosen character classes, as KeePass's and KeePassXC's generators make them.
///
/// Every character is drawn uniformly (no modulo bias) from the union of the chosen classes, minus excluded
/// characters; with ``Options/requiresEveryClass`` (the default) the password contains at least one character of
/// each chosen class, by redrawing until it does, which keeps the result uniform over all such passwords.
/// Randomness is injected, so apps pass `SystemRandomNumberGenerator()` and tests a seeded generator.
public struct PasswordGenerator: Sendable {
  /// A character class.
  public enum CharacterClass: CaseIterable, Sendable {
    case lowercase
    case uppercase
    case digits
    /// The printable ASCII punctuation characters.
    case symbols

    /// The characters of the class, in ASCII order.
    public var characters: [Character] {
      switch self {
      case .lowercase: return Array("abcdefghijklmnopqrstuvwxyz")
      case .uppercase: return Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
      case .digits: return Array("0123456789")
      case .symbols: return Array("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
      }
    }
  }

  /// What to generate.
  public struct Options: Equatable, Sendable {
    public var length: Int = 20
    public var classes: [CharacterClass] = [.lowercase, .uppercase, .digits]
    /// Characters never to use.
    public var excludedCharacters: String = ""
    /// Leave out characters that are easy to confuse: `0 O o 1 l I |`.
    public var excludesLookAlikes: Bool = false
    /// Make sure each chosen class appears at least once.
    public var requiresEveryClass: Bool = true

    public init() {}
  }

  /// Why options cannot produce a password.
  public enum GeneratorError: Error, Equatable, Sendable {
    case lengthOutOfRange(Int)
    case noCharactersLeft
    /// The length is shorter than the number of classes that must each appear.
    case lengthTooShortForClasses(length: Int, classes: Int)
  }

  /// The longest password the generator makes.
  public static let maximumLength = 4096

  public var options: Options

  public init(options: Options = Options()) {
    self.options = options
  }

  /// The characters each chosen class still offers after exclusions, skipping classes left empty.
  public func pools() -> [[Character]] {
    let lookAlikes: Set<Character> = ["0", "O", "o", "1", "l", "I", "|"]
    let excluded = Set(options.excludedCharacters)
    var result: [[Character]] = []
    for characterClass in options.classes {
      let pool = characterClass.characters.filter { character in
        !excluded.contains(character) && !(options.excludesLookAlikes && lookAlikes.contains(character))
      }
      if !pool.isEmpty && !result.contains(pool) { result.append(pool) }
    }
    return result
  }

  /// The entropy of a generated password in bits (`length × log2(alphabet)`), ignoring the every-class rule.
  public func entropyBits() -> Double {
    let alphabet = pools().reduce(0) { $0 + $1.count }
    guard alphabet > 1 else { return 0 }
    var log2 = 0.0
    var value = Double(alphabet)
    while value >= 2 {
      value /= 2
      log2 += 1
    }
    // Refine the fractional part with the series for log2(1 + x) via repeated squaring.
    var fraction = 0.0
    var bit = 0.5
    for _ in 0..<32 {
      value *= value
      if value >= 2 {
        value /= 2
        fraction += bit
      }
      bit /= 2
    }
    return Double(options.length) * (log2 + fraction)
  }

  /// Generates one password.
  public func generate(using generator: inout some RandomNumberGenerator) throws(GeneratorError) -> String {
    guard (1...PasswordGenerator.maximumLength).contains(options.length) else {
      throw .lengthOutOfRange(options.length)
    }
    let pools = pools()
    let alphabet = pools.flatMap { $0 }
    guard !alphabet.isEmpty else { throw .noCharactersLeft }
    if options.requiresEveryClass && options.length < pools.count {
      throw .lengthTooShortForClasses(length: options.length, classes: pools.count)
    }
    while true {
      var characters: [Character] = []
      characters.reserveCapacity(options.length)
      for _ in 0..<options.length {
        characters.append(alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))])
      }
      let complete =
        !options.requiresEveryClass || pools.allSatisfy { pool in characters.contains { pool.contains($0) } }
      if complete { return String(characters) }
    }
  }
}
