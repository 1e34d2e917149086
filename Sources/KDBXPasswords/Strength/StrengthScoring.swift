import KDBX

/// Guesses for matches and the least-guessable cover of a password, after zxcvbn's `scoring` (Wheeler 2016,
/// section 4): the password is split into matches and brute-forced gaps so as to minimise
/// `l! x product(guesses) + 10000^(l-1)` over the `l` parts.
enum StrengthScoring {
  /// The year zxcvbn measures year distances from (`REFERENCE_YEAR`), kept so that ratings agree with it.
  static let referenceYear = 2017
  /// The fewest years a year or date is taken to be chosen from.
  static let minimumYearSpace = 20
  static let bruteforceCardinality = 10.0
  static let minimumGuessesBeforeGrowingSequence = 10_000.0
  static let minimumSubmatchGuessesSingleCharacter = 10.0
  static let minimumSubmatchGuessesMultipleCharacters = 50.0

  /// n choose k as zxcvbn computes it (in floating point).
  static func choose(_ n: Int, _ k: Int) -> Double {
    if k > n { return 0 }
    if k == 0 { return 1 }
    var result = 1.0
    var top = Double(n)
    for divisor in 1...k {
      result *= top
      result /= Double(divisor)
      top -= 1
    }
    return result
  }

  /// zxcvbn's `spatial_guesses`: patterns of this length or shorter with this many turns or fewer, times the ways
  /// of shifting keys.
  static func spatialGuesses(_ layout: KeyboardLayout, length: Int, turns: Int, shiftedCount: Int) -> Double {
    let keyboard = layout == .qwerty || layout == .dvorak
    let starts = Double(keyboard ? StrengthTables.keyboardStartingPositions : StrengthTables.keypadStartingPositions)
    let degree = keyboard ? StrengthTables.keyboardAverageDegree : StrengthTables.keypadAverageDegree
    var guesses = 0.0
    if length >= 2 {
      for i in 2...length {
        let possibleTurns = min(turns, i - 1)
        guard possibleTurns >= 1 else { continue }
        for j in 1...possibleTurns {
          var power = 1.0
          for _ in 0..<j { power *= degree }
          guesses += choose(i - 1, j - 1) * starts * power
        }
      }
    }
    if shiftedCount > 0 {
      let unshifted = length - shiftedCount
      if unshifted == 0 {
        guesses *= 2
      } else {
        var variations = 0.0
        for i in 1...min(shiftedCount, unshifted) { variations += choose(shiftedCount + unshifted, i) }
        guesses *= variations
      }
    }
    return guesses
  }

  /// A match's guesses within a password of `passwordLength`: parts shorter than the password need at least 10
  /// (one character) or 50 guesses.
  static func guesses(of match: StrengthMatch, passwordLength: Int) -> Double {
    var minimum = 1.0
    if match.length < passwordLength {
      minimum = match.length == 1 ? minimumSubmatchGuessesSingleCharacter : minimumSubmatchGuessesMultipleCharacters
    }
    return max(match.guesses, minimum)
  }

  static func bruteforce(_ i: Int, _ j: Int) -> StrengthMatch {
    let length = j - i + 1
    var guesses = 1.0
    for _ in 0..<length { guesses *= bruteforceCardinality }
    let minimum = length == 1 ? minimumSubmatchGuessesSingleCharacter + 1 : minimumSubmatchGuessesMultipleCharacters + 1
    return StrengthMatch(range: i...j, pattern: .bruteforce, guesses: max(guesses, minimum))
  }

  static func factorial(_ n: Int) -> Double {
    var result = 1.0
    if n > 1 { for k in 2...n { result *= Double(k) } }
    return result
  }

  /// The cover of `password` by matches and brute-forced gaps that needs the fewest guesses (zxcvbn's
  /// `most_guessable_match_sequence`), and those guesses.
  static func mostGuessableSequence(_ password: [Unicode.Scalar], matches: [StrengthMatch]? = nil)
    -> (guesses: Double, sequence: [StrengthMatch])
  {
    let n = password.count
    guard n > 0 else { return (1, []) }
    let found = matches ?? StrengthMatching.all(password)
    var byEnd = [[StrengthMatch]](repeating: [], count: n)
    for match in found { byEnd[match.range.upperBound].append(match) }
    for k in byEnd.indices {
      byEnd[k] = byEnd[k].enumerated().sorted {
        ($0.element.range.lowerBound, $0.offset) < ($1.element.range.lowerBound, $1.offset)
      }.map { $0.element }
    }
    // best[k][l]: the best sequence of l parts covering 0...k: its last part, product and overall figure.
    struct Step {
      var match: StrengthMatch
      var product: Double
      var figure: Double
    }
    var best = [[Int: Step]](repeating: [:], count: n)

    func update(_ match: StrengthMatch, _ l: Int) {
      let k = match.range.upperBound
      var product = guesses(of: match, passwordLength: n)
      if l > 1 {
        guard let previous = best[match.range.lowerBound - 1][l - 1] else { return }
        product *= previous.product
      }
      var figure = factorial(l) * product
      var growth = 1.0
      for _ in 0..<(l - 1) { growth *= minimumGuessesBeforeGrowingSequence }
      figure += growth
      for (competingLength, competing) in best[k] where competingLength <= l && competing.figure <= figure { return }
      best[k][l] = Step(match: match, product: product, figure: figure)
    }

    for k in 0..<n {
      for match in byEnd[k] {
        if match.range.lowerBound > 0 {
          for l in best[match.range.lowerBound - 1].keys.sorted() { update(match, l + 1) }
        } else {
          update(match, 1)
        }
      }
      update(bruteforce(0, k), 1)
      if k >= 1 {
        for i in 1...k {
          let gap = bruteforce(i, k)
          for (l, step) in best[i - 1].sorted(by: { $0.key < $1.key }) {
            if case .bruteforce = step.match.pattern { continue }
            update(gap, l + 1)
          }
        }
      }
    }
    // Unwind from the end: the length with the lowest figure.
    guard let (bestLength, bestStep) = best[n - 1].min(by: { ($0.value.figure, $0.key) < ($1.value.figure, $1.key) })
    else { return (1, []) }
    var sequence: [StrengthMatch] = []
    var k = n - 1
    var l = bestLength
    while k >= 0, l >= 1, let step = best[k][l] {
      sequence.insert(step.match, at: 0)
      k = step.match.range.lowerBound - 1
      l -= 1
    }
    return (bestStep.figure, sequence)
  }
}
