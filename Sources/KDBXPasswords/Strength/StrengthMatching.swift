import KDBX

/// Finding the guessable parts of a password, after zxcvbn's `matching` (Wheeler, "zxcvbn: Low-Budget Password
/// Strength Estimation", USENIX Security 2016, section 3): dictionary words (also reversed and with l33t
/// substitutions undone), keyboard runs, repeats, sequences, recent years and dates. Every matcher is polynomial in
/// the length, which the caller bounds (``PasswordStrength/maximumAnalyzedLength``).
enum StrengthMatching {
  /// zxcvbn's l33t table: each letter and the characters that may stand for it.
  static let l33tTable: [(letter: Unicode.Scalar, substitutes: [Unicode.Scalar])] = [
    ("a", ["4", "@"]), ("b", ["8"]), ("c", ["(", "{", "[", "<"]), ("e", ["3"]), ("g", ["6", "9"]),
    ("i", ["1", "!", "|"]), ("l", ["1", "|", "7"]), ("o", ["0"]), ("s", ["$", "5"]), ("t", ["+", "7"]),
    ("x", ["%"]), ("z", ["2"]),
  ]

  /// Every match in `password`, ordered by start then end.
  static func all(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    var matches = dictionary(password)
    matches += reversedDictionary(password)
    matches += l33t(password)
    matches += spatial(password)
    matches += repeats(password)
    matches += sequences(password)
    matches += recentYears(password)
    matches += dates(password)
    return stableSorted(matches)
  }

  static func stableSorted(_ matches: [StrengthMatch]) -> [StrengthMatch] {
    matches.enumerated().sorted {
      ($0.element.range.lowerBound, $0.element.range.upperBound, $0.offset)
        < ($1.element.range.lowerBound, $1.element.range.upperBound, $1.offset)
    }.map { $0.element }
  }

  static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
    guard scalar.value >= 0x41, scalar.value <= 0x5A, let lower = Unicode.Scalar(scalar.value + 0x20) else {
      return scalar
    }
    return lower
  }

  static func isUpper(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x41 && scalar.value <= 0x5A }
  static func isLower(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x61 && scalar.value <= 0x7A }
  static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

  // MARK: Dictionaries

  /// A word found: positions, list, rank and the word as listed.
  struct WordHit {
    var i: Int
    var j: Int
    var list: StrengthDictionary
    var rank: Int
    var word: [Unicode.Scalar]
  }

  /// Every substring of `password`, lower-cased, that a list holds.
  static func words(in password: [Unicode.Scalar]) -> [WordHit] {
    let lower = password.map(lowercased)
    var hits: [WordHit] = []
    let longest = StrengthTables.longestWord
    for list in StrengthTables.lists {
      for i in lower.indices {
        var candidate = ""
        for j in i..<min(lower.count, i + longest) {
          candidate.unicodeScalars.append(lower[j])
          if let rank = list.ranks[candidate] {
            hits.append(WordHit(i: i, j: j, list: list.name, rank: rank, word: Array(lower[i...j])))
          }
        }
      }
    }
    return hits
  }

  static func dictionary(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    words(in: password).map { hit in
      wordMatch(
        token: Array(password[hit.i...hit.j]), range: hit.i...hit.j, list: hit.list, rank: hit.rank, reversed: false,
        substitutions: [])
    }
  }

  static func reversedDictionary(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    let reversed = Array(password.reversed())
    let last = password.count - 1
    return words(in: reversed).map { hit in
      let range = (last - hit.j)...(last - hit.i)
      return wordMatch(
        token: Array(password[range]), range: range, list: hit.list, rank: hit.rank, reversed: true, substitutions: [])
    }
  }

  /// A dictionary match with its guesses: rank x capitalisation variations x substitution variations x 2 when
  /// reversed (zxcvbn's `dictionary_guesses`).
  static func wordMatch(
    token: [Unicode.Scalar], range: ClosedRange<Int>, list: StrengthDictionary, rank: Int, reversed: Bool,
    substitutions: [StrengthMatch.Substitution]
  ) -> StrengthMatch {
    let upper = token.filter(isUpper).count
    let lowerCount = token.filter(isLower).count
    var capitalization = 1.0
    var startsUpper = false
    var allUpper = false
    if upper > 0 {
      let notUpper = token.count - upper
      startsUpper = isUpper(token[0]) && upper == 1 && notUpper > 0
      let endsUpper = isUpper(token[token.count - 1]) && upper == 1 && notUpper > 0
      allUpper = lowerCount == 0
      if startsUpper || endsUpper || allUpper {
        capitalization = 2
      } else {
        capitalization = 0
        for k in 1...max(1, min(upper, lowerCount)) where k <= min(upper, lowerCount) {
          capitalization += StrengthScoring.choose(upper + lowerCount, k)
        }
      }
    }
    var l33tVariations = 1.0
    let lowered = token.map(lowercased)
    for substitution in substitutions {
      let subbed = lowered.filter { $0 == substitution.substitute }.count
      let unsubbed = lowered.filter { $0 == substitution.letter }.count
      if subbed == 0 || unsubbed == 0 {
        l33tVariations *= 2
      } else {
        var possibilities = 0.0
        for k in 1...min(subbed, unsubbed) { possibilities += StrengthScoring.choose(subbed + unsubbed, k) }
        l33tVariations *= possibilities
      }
    }
    let guesses = Double(rank) * capitalization * l33tVariations * (reversed ? 2 : 1)
    return StrengthMatch(
      range: range, pattern: .dictionary(list, rank: rank, reversed: reversed, substitutions: substitutions),
      guesses: guesses, capitalized: upper > 0, startsUpper: startsUpper, allUpper: allUpper && upper > 0)
  }

  // MARK: l33t

  /// The substitution tables to try: each maps some of the substitutes in `password` to one letter each
  /// (zxcvbn's `enumerate_l33t_subs` over the relevant part of the table).
  static func substitutionTables(_ password: [Unicode.Scalar]) -> [[(Unicode.Scalar, Unicode.Scalar)]] {
    let present = Set(password)
    var subs: [[(Unicode.Scalar, Unicode.Scalar)]] = [[]]
    for (letter, substitutes) in l33tTable {
      let relevant = substitutes.filter { present.contains($0) }
      guard !relevant.isEmpty else { continue }
      var next: [[(Unicode.Scalar, Unicode.Scalar)]] = []
      for substitute in relevant {
        for sub in subs {
          if let index = sub.firstIndex(where: { $0.0 == substitute }) {
            var alternative = sub
            alternative.remove(at: index)
            alternative.append((substitute, letter))
            next.append(sub)
            next.append(alternative)
          } else {
            next.append(sub + [(substitute, letter)])
          }
        }
      }
      // Drop tables that hold the same pairs, keeping the first.
      var seen = Set<[UInt32]>()
      subs = next.filter { sub in
        let label = sub.map { $0.1.value << 21 | $0.0.value }.sorted()
        return seen.insert(label).inserted
      }
    }
    return subs
  }

  static func l33t(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    var matches: [StrengthMatch] = []
    for table in substitutionTables(password) {
      guard !table.isEmpty else { break }
      let subbed = password.map { scalar in table.first { $0.0 == scalar }?.1 ?? scalar }
      for hit in words(in: subbed) {
        let token = Array(password[hit.i...hit.j])
        if token.map(lowercased) == hit.word { continue }  // no substitution in this word
        let used = table.filter { token.contains($0.0) }.map {
          StrengthMatch.Substitution(substitute: $0.0, letter: $0.1)
        }
        guard token.count > 1 else { continue }
        matches.append(
          wordMatch(
            token: token, range: hit.i...hit.j, list: hit.list, rank: hit.rank, reversed: false, substitutions: used))
      }
    }
    return matches
  }

  // MARK: Keyboards

  static let shifted = Set("~!@#$%^&*()_+QWERTYUIOP{}|ASDFGHJKL:\"ZXCVBNM<>?".unicodeScalars)

  static func spatial(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    var matches: [StrengthMatch] = []
    for graph in StrengthTables.graphs {
      let keyboard = graph.name == .qwerty || graph.name == .dvorak
      var i = 0
      while i < password.count - 1 {
        var j = i + 1
        var lastDirection = -1
        var turns = 0
        var shiftedCount = keyboard && shifted.contains(password[i]) ? 1 : 0
        while true {
          var found = false
          if j < password.count, let around = graph.neighbours[password[j - 1]] {
            let current = password[j]
            for (direction, neighbour) in around.enumerated() {
              guard let neighbour, let position = neighbour.firstIndex(of: current) else { continue }
              found = true
              if position == 1 { shiftedCount += 1 }
              if lastDirection != direction {
                turns += 1
                lastDirection = direction
              }
              break
            }
          }
          if found {
            j += 1
          } else {
            if j - i > 2 {
              matches.append(
                StrengthMatch(
                  range: i...(j - 1), pattern: .spatial(graph.name, turns: turns, shiftedCount: shiftedCount),
                  guesses: StrengthScoring.spatialGuesses(
                    graph.name, length: j - i, turns: turns, shiftedCount: shiftedCount)))
            }
            i = j
            break
          }
        }
      }
    }
    return matches
  }

  // MARK: Repeats

  /// The shortest unit at `start` that repeats at least twice right after itself, and the longest; `nil` when no
  /// unit repeats there.
  static func repeatedUnits(_ password: [Unicode.Scalar], at start: Int) -> (shortest: Int, longest: Int)? {
    var shortest: Int? = nil
    var longest: Int? = nil
    let room = password.count - start
    for length in stride(from: 1, through: room / 2, by: 1) where repeats(password, at: start, unit: length) {
      if shortest == nil { shortest = length }
      longest = length
    }
    guard let shortest, let longest else { return nil }
    return (shortest, longest)
  }

  static func repeats(_ password: [Unicode.Scalar], at start: Int, unit: Int) -> Bool {
    for k in 0..<unit where password[start + k] != password[start + unit + k] { return false }
    return true
  }

  /// How many times the unit of `length` at `start` repeats in a row.
  static func repeatCount(_ password: [Unicode.Scalar], at start: Int, unit: Int) -> Int {
    var count = 1
    while start + (count + 1) * unit <= password.count,
      password[start..<(start + unit)] == password[(start + count * unit)..<(start + (count + 1) * unit)]
    {
      count += 1
    }
    return count
  }

  /// Repeats, as zxcvbn's greedy `(.+)\1+` and lazy `(.+?)\1+` searches find them; the repeated unit is estimated
  /// on its own (recursively) and multiplied by the number of repeats.
  static func repeats(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    var matches: [StrengthMatch] = []
    var from = 0
    while from < password.count {
      var start = from
      var units: (shortest: Int, longest: Int)? = nil
      while start < password.count - 1 {
        units = repeatedUnits(password, at: start)
        if units != nil { break }
        start += 1
      }
      guard let units else { break }
      let greedyLength = units.longest * repeatCount(password, at: start, unit: units.longest)
      let lazyLength = units.shortest * repeatCount(password, at: start, unit: units.shortest)
      let total: Int
      var base: Int
      if greedyLength > lazyLength {
        total = greedyLength
        // The shortest unit that the whole greedy match is made of.
        base = units.longest
        for unit in 1...units.longest where total % unit == 0 {
          if repeatCount(password, at: start, unit: unit) * unit >= total {
            base = unit
            break
          }
        }
      } else {
        total = lazyLength
        base = units.shortest
      }
      let unit = Array(password[start..<(start + base)])
      let baseGuesses = StrengthScoring.mostGuessableSequence(unit).guesses
      let count = total / base
      matches.append(
        StrengthMatch(
          range: start...(start + total - 1), pattern: .repeat(baseLength: base, count: count),
          guesses: baseGuesses * Double(count)))
      from = start + total
    }
    return matches
  }

  // MARK: Sequences

  static func sequences(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    guard password.count > 1 else { return [] }
    var matches: [StrengthMatch] = []
    func add(_ i: Int, _ j: Int, _ delta: Int) {
      guard j - i > 1 || abs(delta) == 1, delta != 0, abs(delta) <= 5 else { return }
      let first = password[i]
      var base: Double
      if "aAzZ019".unicodeScalars.contains(first) {
        base = 4
      } else if isDigit(first) {
        base = 10
      } else {
        base = 26
      }
      if delta < 0 { base *= 2 }
      matches.append(
        StrengthMatch(range: i...j, pattern: .sequence(ascending: delta > 0), guesses: base * Double(j - i + 1)))
    }
    var i = 0
    var lastDelta: Int? = nil
    for k in 1..<password.count {
      let delta = Int(password[k].value) - Int(password[k - 1].value)
      if lastDelta == nil { lastDelta = delta }
      if delta == lastDelta { continue }
      add(i, k - 1, lastDelta ?? 0)
      i = k - 1
      lastDelta = delta
    }
    add(i, password.count - 1, lastDelta ?? 0)
    return matches
  }

  // MARK: Years and dates

  /// Years 1900-2019 (zxcvbn's `19\d\d|200\d|201\d`), found left to right without overlap.
  static func recentYears(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    var matches: [StrengthMatch] = []
    var i = 0
    while i + 3 < password.count {
      let digits = password[i...(i + 3)]
      if digits.allSatisfy(isDigit) {
        let year = digits.reduce(0) { $0 * 10 + Int($1.value - 0x30) }
        if (1900...2019).contains(year) {
          let guesses = Double(max(abs(year - StrengthScoring.referenceYear), StrengthScoring.minimumYearSpace))
          matches.append(StrengthMatch(range: i...(i + 3), pattern: .recentYear(year), guesses: guesses))
          i += 4
          continue
        }
      }
      i += 1
    }
    return matches
  }

  /// Where a digit string of each length splits into three numbers (zxcvbn's `DATE_SPLITS`).
  static let dateSplits: [Int: [(Int, Int)]] = [
    4: [(1, 2), (2, 3)], 5: [(1, 3), (2, 3)], 6: [(1, 2), (2, 4), (4, 5)], 7: [(1, 3), (2, 3), (4, 5), (4, 6)],
    8: [(2, 4), (4, 6)],
  ]

  static func number(_ scalars: ArraySlice<Unicode.Scalar>) -> Int {
    scalars.reduce(0) { $0 * 10 + Int($1.value - 0x30) }
  }

  static func dates(_ password: [Unicode.Scalar]) -> [StrengthMatch] {
    var found: [StrengthMatch] = []
    func add(_ i: Int, _ j: Int, _ date: (year: Int, month: Int, day: Int), separated: Bool) {
      var guesses = Double(max(abs(date.year - StrengthScoring.referenceYear), StrengthScoring.minimumYearSpace)) * 365
      if separated { guesses *= 4 }
      found.append(
        StrengthMatch(
          range: i...j, pattern: .date(year: date.year, month: date.month, day: date.day, separated: separated),
          guesses: guesses))
    }
    let n = password.count
    // Without separators: 4 to 8 digits.
    for i in 0..<max(0, n - 3) {
      for j in (i + 3)..<(i + 8) where j < n {
        let token = password[i...j]
        guard token.allSatisfy(isDigit), let splits = dateSplits[token.count] else { continue }
        var best: (year: Int, month: Int, day: Int)? = nil
        for (k, l) in splits {
          let base = token.startIndex
          guard
            let date = dayMonthYear(
              number(token[base..<(base + k)]), number(token[(base + k)..<(base + l)]),
              number(token[(base + l)...]))
          else { continue }
          if let current = best {
            if abs(date.year - StrengthScoring.referenceYear) < abs(current.year - StrengthScoring.referenceYear) {
              best = date
            }
          } else {
            best = date
          }
        }
        if let best { add(i, j, best, separated: false) }
      }
    }
    // With separators: `d{1,4} S d{1,2} S d{1,4}`, 6 to 10 characters, the same separator twice.
    for i in 0..<max(0, n - 5) {
      for j in (i + 5)..<(i + 10) where j < n {
        let token = Array(password[i...j])
        guard let date = separatedDate(token) else { continue }
        add(i, j, date, separated: true)
      }
    }
    // Drop dates inside other dates.
    return found.enumerated().filter { index, match in
      !found.enumerated().contains { other, candidate in
        other != index && candidate != match && candidate.range.lowerBound <= match.range.lowerBound
          && candidate.range.upperBound >= match.range.upperBound
      }
    }.map { $0.element }
  }

  static let separators: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "/", "\\", "_", ".", "-"]

  static func separatedDate(_ token: [Unicode.Scalar]) -> (year: Int, month: Int, day: Int)? {
    var firstEnd = 0
    while firstEnd < token.count, isDigit(token[firstEnd]) { firstEnd += 1 }
    guard (1...4).contains(firstEnd), firstEnd < token.count, separators.contains(token[firstEnd]) else {
      return nil
    }
    let separator = token[firstEnd]
    var secondEnd = firstEnd + 1
    while secondEnd < token.count, isDigit(token[secondEnd]) { secondEnd += 1 }
    guard (1...2).contains(secondEnd - firstEnd - 1), secondEnd < token.count, token[secondEnd] == separator else {
      return nil
    }
    let third = token[(secondEnd + 1)...]
    guard (1...4).contains(third.count), third.allSatisfy(isDigit) else { return nil }
    return dayMonthYear(
      number(token[0..<firstEnd]), number(token[(firstEnd + 1)..<secondEnd]), number(third))
  }

  /// zxcvbn's `map_ints_to_dmy`: the three numbers as a day, month and year, or `nil`.
  static func dayMonthYear(_ a: Int, _ b: Int, _ c: Int) -> (year: Int, month: Int, day: Int)? {
    let ints = [a, b, c]
    guard b <= 31, b > 0 else { return nil }
    var over12 = 0
    var over31 = 0
    var under1 = 0
    for value in ints {
      if (99 < value && value < 1000) || value > 2050 { return nil }
      if value > 31 { over31 += 1 }
      if value > 12 { over12 += 1 }
      if value <= 0 { under1 += 1 }
    }
    if over31 >= 2 || over12 == 3 || under1 >= 2 { return nil }
    let splits = [(c, (a, b)), (a, (b, c))]
    for (year, rest) in splits where (1000...2050).contains(year) {
      guard let dm = dayMonth(rest.0, rest.1) else { return nil }
      return (year, dm.month, dm.day)
    }
    for (year, rest) in splits {
      guard let dm = dayMonth(rest.0, rest.1) else { continue }
      let fullYear = year > 99 ? year : (year > 50 ? year + 1900 : year + 2000)
      return (fullYear, dm.month, dm.day)
    }
    return nil
  }

  static func dayMonth(_ first: Int, _ second: Int) -> (day: Int, month: Int)? {
    if (1...31).contains(first) && (1...12).contains(second) { return (first, second) }
    if (1...31).contains(second) && (1...12).contains(first) { return (second, first) }
    return nil
  }
}
