import Foundation
import KDBX
import KDBXPasswords
import Testing
import VectorSupport

@Suite("Password strength (zxcvbn's approach)")
struct PasswordStrengthTests {
  @Test func commonPasswordsAreVeryWeak() {
    let strength = PasswordStrength(estimating: "password")
    #expect(strength.rating == .veryWeak)
    // zxcvbn: rank 2 of the password list, one part: 1! x 2 + 1 = 3 guesses.
    #expect(strength.guesses == 3)
    #expect(strength.reasons == [.commonPassword(rank: 2)])
    #expect(strength.reasons.first?.description == "one of the 10 most common passwords")
  }

  @Test func eachPatternIsFound() {
    func patterns(_ password: String) -> [StrengthMatch.Pattern] {
      PasswordStrength(estimating: password).sequence.map(\.pattern)
    }
    #expect(patterns("P@ssw0rd").count == 1)
    if case .dictionary(.passwords, rank: 2, reversed: false, let substitutions)? = patterns("P@ssw0rd").first {
      #expect(substitutions.count == 2)
    } else {
      Issue.record("P@ssw0rd is not read as 'password' with substitutions")
    }
    #expect(PasswordStrength(estimating: "P@ssw0rd").reasons.contains(.l33tSubstitutions))
    #expect(PasswordStrength(estimating: "drowssap").reasons.contains(.reversedWord))
    #expect(PasswordStrength(estimating: "19841215").reasons == [.date])
    #expect(PasswordStrength(estimating: "abcabcabc").reasons == [.repeated(singleCharacter: false)])
    #expect(PasswordStrength(estimating: "zzzzzzzzzzzzzzzz").reasons == [.repeated(singleCharacter: true)])
    #expect(PasswordStrength(estimating: "jklmnopqrs").reasons == [.sequence])
    #expect(PasswordStrength(estimating: "1987xkcdq").reasons == [.recentYear])
    #expect(PasswordStrength(estimating: "zxcdewsa").reasons == [.keyboardPattern(.qwerty, straight: false)])
    #expect(PasswordStrength(estimating: "qwertyuiop[]").reasons == [.keyboardPattern(.qwerty, straight: true)])
    #expect(PasswordStrength(estimating: "Ambulance").reasons.contains(.predictableCapitalization))
    #expect(PasswordStrength(estimating: "").reasons == [.empty])
    #expect(PasswordStrength(estimating: "").rating == .veryWeak)
  }

  @Test func randomPasswordsAreVeryStrong() {
    let strength = PasswordStrength(estimating: "x7#kQ9!mLp2$")
    #expect(strength.rating == .veryStrong)
    #expect(abs(strength.bits - 39.86) < 0.01)  // 10^12 guesses, as zxcvbn
    #expect(strength.reasons.isEmpty)
  }

  @Test func longInputIsBounded() {
    // 20,000 characters: matched up to maximumAnalyzedLength, the rest counted as brute force.
    let strength = PasswordStrength(estimating: String(repeating: "a1!", count: 6_667))
    #expect(strength.rating == .veryStrong)
    #expect(strength.guesses.isInfinite || strength.guesses > 1e100)
    #expect(PasswordStrength(estimating: String(repeating: "a", count: 5_000)).rating == .veryStrong)
  }

  @Test func ratingThresholdsAreZxcvbns() {
    #expect(PasswordStrength.Rating(guesses: 1_004) == .veryWeak)
    #expect(PasswordStrength.Rating(guesses: 1_005) == .weak)
    #expect(PasswordStrength.Rating(guesses: 1e6 + 5) == .fair)
    #expect(PasswordStrength.Rating(guesses: 1e8 + 5) == .strong)
    #expect(PasswordStrength.Rating(guesses: 1e10 + 5) == .veryStrong)
  }

  /// The committed list (`Vectors/strength/passwords.txt`, made by `Vectors/tools/strength_passwords.py`) spans
  /// every zxcvbn score; our rating must equal Python zxcvbn's score for at least 90% of it.
  @Test func agreesWithPythonZxcvbn() throws {
    let text = String(decoding: try #require(Vectors.data("strength/passwords.txt")), as: UTF8.self)
    let passwords = text.split(separator: "\n").map(String.init)
    #expect(passwords.count == 200)
    guard let scores = Self.pythonScores(Vectors.root + "/strength/passwords.txt") else {
      print("note: Python zxcvbn is absent (pip install zxcvbn); the comparison with it is SKIPPED")
      return
    }
    try #require(scores.count == passwords.count)
    var agreeing = 0
    var seen = Set<Int>()
    for (password, score) in zip(passwords, scores) {
      seen.insert(score)
      let ours = PasswordStrength(estimating: password).rating.rawValue
      if ours == score { agreeing += 1 } else { print("zxcvbn \(score), ours \(ours): \(password)") }
    }
    print("PasswordStrength agrees with Python zxcvbn on \(agreeing) of \(passwords.count) passwords")
    #expect(seen == [0, 1, 2, 3, 4])
    #expect(agreeing * 10 >= passwords.count * 9)
  }

  /// Python zxcvbn's score of each line of `path`, or `nil` when python3 or zxcvbn is missing.
  static func pythonScores(_ path: String) -> [Int]? {
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/env") else { return nil }
    let script = """
      import sys
      from zxcvbn import zxcvbn
      for line in open(sys.argv[1], encoding='utf-8').read().split('\\n'):
          if line:
              print(zxcvbn(line)['score'])
      """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }
  }
}
