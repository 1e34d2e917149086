import KDBX

/// Diceware passphrases: words drawn uniformly and independently from a word list (by default the
/// `EFFLargeWordList`), as KeePassXC's passphrase generator and `keepassxc-cli diceware` make them.
///
/// Each word adds log2(word count) bits of entropy: 12.92 bits with the EFF list, so the default 7 words give
/// 90.5 bits.
public struct PassphraseGenerator: Sendable {
  /// Why a generator cannot be made or run.
  public enum GeneratorError: Error, Sendable, Equatable {
    /// The word count is outside 1...``maximumWordCount``.
    case wordCountOutOfRange(Int)
    /// The word list has fewer than two distinct words.
    case wordListTooSmall(Int)
  }

  /// The most words in one passphrase.
  public static let maximumWordCount = 1_000
  /// The number of words in a passphrase (default 7, as KeePassXC).
  public var wordCount: Int
  /// What goes between the words (default one space).
  public var separator: String
  /// The distinct words to draw from.
  public let words: [String]

  /// A generator over `words` (empty lines and repeated words are dropped; default the EFF large list).
  public init(wordCount: Int = 7, separator: String = " ", words: [String]? = nil) throws(GeneratorError) {
    guard (1...PassphraseGenerator.maximumWordCount).contains(wordCount) else {
      throw .wordCountOutOfRange(wordCount)
    }
    self.wordCount = wordCount
    self.separator = separator
    if let words {
      var seen = Set<String>()
      var distinct: [String] = []
      for word in words where !word.isEmpty && seen.insert(word).inserted { distinct.append(word) }
      guard distinct.count >= 2 else { throw .wordListTooSmall(distinct.count) }
      self.words = distinct
    } else {
      self.words = EFFLargeWordList.words
    }
  }

  /// The passphrase's entropy in bits: `wordCount` x log2(word list size).
  public func entropyBits() -> Double {
    Double(wordCount) * Log2.of(Double(words.count))
  }

  /// One passphrase, each word chosen uniformly (`random.next(upperBound:)` rejects biased draws).
  public func generate(using random: inout some RandomNumberGenerator) -> String {
    var chosen: [String] = []
    chosen.reserveCapacity(wordCount)
    for _ in 0..<wordCount {
      chosen.append(words[Int(random.next(upperBound: UInt64(words.count)))])
    }
    return chosen.joined(separator: separator)
  }
}
