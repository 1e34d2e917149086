import KDBX
import KDBXPasswords
import Testing
import VectorSupport

@Suite("Password generator")
struct PasswordGeneratorTests {
  @Test func respectsLengthClassesAndExclusions() throws {
    var random = SplitMix64(seed: 1)
    var options = PasswordGenerator.Options()
    options.length = 32
    options.classes = [.lowercase, .digits, .symbols]
    options.excludedCharacters = "abc123"
    let generator = PasswordGenerator(options: options)
    for _ in 0..<200 {
      let password = try generator.generate(using: &random)
      #expect(password.count == 32)
      #expect(!password.contains { "abc123".contains($0) || $0.isUppercase })
      #expect(password.contains { $0.isLowercase })
      #expect(password.contains { $0.isNumber })
      #expect(password.contains { PasswordGenerator.CharacterClass.symbols.characters.contains($0) })
    }
  }

  @Test func everyClassAppearsEvenInShortPasswords() throws {
    var random = SplitMix64(seed: 7)
    var options = PasswordGenerator.Options()
    options.length = 4
    options.classes = PasswordGenerator.CharacterClass.allCases
    let generator = PasswordGenerator(options: options)
    for _ in 0..<300 {
      let password = try generator.generate(using: &random)
      for characterClass in PasswordGenerator.CharacterClass.allCases {
        #expect(password.contains { characterClass.characters.contains($0) })
      }
    }
  }

  @Test func lookAlikesCanBeExcluded() throws {
    var random = SplitMix64(seed: 3)
    var options = PasswordGenerator.Options()
    options.length = 200
    options.excludesLookAlikes = true
    let password = try PasswordGenerator(options: options).generate(using: &random)
    #expect(!password.contains { "0Oo1lI|".contains($0) })
  }

  @Test func characterChoiceIsRoughlyUniform() throws {
    var random = SplitMix64(seed: 11)
    var options = PasswordGenerator.Options()
    options.length = 4096
    options.classes = [.digits]
    let password = try PasswordGenerator(options: options).generate(using: &random)
    var counts: [Character: Int] = [:]
    for character in password { counts[character, default: 0] += 1 }
    #expect(counts.count == 10)
    // 4096 draws over 10 digits: each count is near 410; 300...520 is over 5 standard deviations wide.
    #expect(counts.values.allSatisfy { (300...520).contains($0) })
  }

  @Test func impossibleOptionsThrow() {
    var random = SplitMix64(seed: 5)
    var options = PasswordGenerator.Options()
    options.classes = [.digits]
    options.excludedCharacters = "0123456789"
    #expect(throws: PasswordGenerator.GeneratorError.noCharactersLeft) {
      try PasswordGenerator(options: options).generate(using: &random)
    }
    options = PasswordGenerator.Options()
    options.length = 0
    #expect(throws: PasswordGenerator.GeneratorError.lengthOutOfRange(0)) {
      try PasswordGenerator(options: options).generate(using: &random)
    }
    options.length = 2
    options.classes = PasswordGenerator.CharacterClass.allCases
    #expect(throws: PasswordGenerator.GeneratorError.lengthTooShortForClasses(length: 2, classes: 4)) {
      try PasswordGenerator(options: options).generate(using: &random)
    }
  }

  @Test func entropyMatchesTheAlphabet() {
    var options = PasswordGenerator.Options()
    options.length = 10
    options.classes = [.digits]
    let bits = PasswordGenerator(options: options).entropyBits()
    // 10 × log2(10) = 33.219...
    #expect(abs(bits - 33.2193) < 0.01)
  }
}
