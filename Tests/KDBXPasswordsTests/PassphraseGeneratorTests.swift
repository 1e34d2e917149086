import KDBX
import KDBXPasswords
import Testing
import VectorSupport

@Suite("Passphrase generator")
struct PassphraseGeneratorTests {
  @Test func effLargeListIsComplete() {
    let words = EFFLargeWordList.words
    #expect(words.count == 7_776)
    #expect(Set(words).count == 7_776)
    // Dice 11111 and 66666 in the EFF publication.
    #expect(words.first == "abacus")
    #expect(words.last == "zoom")
    #expect(words.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLowercase || $0 == "-" } })
  }

  @Test func entropyIsWordsTimesLog2OfTheList() throws {
    let seven = try PassphraseGenerator()
    #expect(abs(seven.entropyBits() - 7 * 12.924812503605781) < 1e-9)
    let custom = try PassphraseGenerator(wordCount: 10, words: ["a", "b", "b", "", "c", "d"])
    #expect(custom.words == ["a", "b", "c", "d"])
    #expect(abs(custom.entropyBits() - 20) < 1e-12)
  }

  @Test func wordsAreDrawnFromTheListUniformly() throws {
    var random = SplitMix64(seed: 3)
    let generator = try PassphraseGenerator(wordCount: 4, separator: "-", words: ["w0", "w1", "w2", "w3"])
    var counts = [String: Int]()
    for _ in 0..<2_000 {
      let phrase = generator.generate(using: &random)
      let parts = phrase.split(separator: "-").map(String.init)
      #expect(parts.count == 4)
      for part in parts { counts[part, default: 0] += 1 }
    }
    // 8,000 draws over 4 words: each count is 2,000 +- 5 standard deviations (sqrt(8000 * 3/16) = 38.7).
    for word in ["w0", "w1", "w2", "w3"] { #expect(abs((counts[word] ?? 0) - 2_000) < 194) }
  }

  @Test func refusesBadSettings() {
    #expect(throws: PassphraseGenerator.GeneratorError.wordCountOutOfRange(0)) { try PassphraseGenerator(wordCount: 0) }
    #expect(throws: PassphraseGenerator.GeneratorError.wordListTooSmall(1)) {
      try PassphraseGenerator(words: ["same", "same"])
    }
  }
}
