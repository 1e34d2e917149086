import KDBX

/// The data of the strength estimator, read once from the generated tables (`StrengthTables+Generated.swift`, made
/// by `Vectors/tools/zxcvbn_tables.py` from zxcvbn's frequency lists and keyboard graphs, MIT licence).
enum StrengthTables {
  /// A ranked word list: rank 1 is the most frequent word.
  struct RankedList: Sendable {
    var name: StrengthDictionary
    var ranks: [String: Int]
  }

  /// A keyboard or keypad: each key's neighbours in a fixed direction order (`nil` at an edge).
  struct Graph: Sendable {
    var name: KeyboardLayout
    var neighbours: [Unicode.Scalar: [[Unicode.Scalar]?]]
    /// The number of keys (zxcvbn's starting positions).
    var keyCount: Int { neighbours.count }
    /// The average number of neighbours a key has.
    var averageDegree: Double {
      var total = 0
      for (_, around) in neighbours { total += around.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }
      return neighbours.isEmpty ? 0 : Double(total) / Double(neighbours.count)
    }
  }

  /// The ranked lists in zxcvbn's order.
  static let lists: [RankedList] = [
    RankedList(name: .passwords, ranks: ranks(passwords)),
    RankedList(name: .englishWikipedia, ranks: ranks(englishWikipedia)),
    RankedList(name: .femaleNames, ranks: ranks(femaleNames)),
    RankedList(name: .surnames, ranks: ranks(surnames)),
    RankedList(name: .usTVAndFilm, ranks: ranks(usTVAndFilm)),
    RankedList(name: .maleNames, ranks: ranks(maleNames)),
  ]

  /// The longest word of any list, in Unicode scalars: longer substrings need no look-up.
  static let longestWord: Int = {
    var longest = 0
    for list in lists { for (word, _) in list.ranks { longest = max(longest, word.unicodeScalars.count) } }
    return longest
  }()

  static let graphs: [Graph] = [
    graph(.qwerty, qwerty), graph(.dvorak, dvorak), graph(.keypad, keypad), graph(.macKeypad, macKeypad),
  ]
  static let keyboardAverageDegree = graphs[0].averageDegree
  static let keyboardStartingPositions = graphs[0].keyCount
  static let keypadAverageDegree = graphs[2].averageDegree
  static let keypadStartingPositions = graphs[2].keyCount

  /// Word to rank (its position, from 1) for a packed list of words separated by commas and line feeds; a word
  /// listed twice keeps its later rank, as zxcvbn's `build_ranked_dict` does.
  static func ranks(_ packed: StaticString) -> [String: Int] {
    var ranks: [String: Int] = [:]
    packed.withUTF8Buffer { buffer in
      var start = 0
      var rank = 0
      for index in 0...buffer.count where index == buffer.count || buffer[index] == 0x2C || buffer[index] == 0x0A {
        if index > start {
          rank += 1
          ranks[String(decoding: buffer[start..<index], as: UTF8.self)] = rank
        }
        start = index + 1
      }
    }
    return ranks
  }

  /// A graph from lines `KEY<TAB>NEIGHBOUR<TAB>...`, U+007F for a missing neighbour.
  static func graph(_ name: KeyboardLayout, _ packed: StaticString) -> Graph {
    var neighbours: [Unicode.Scalar: [[Unicode.Scalar]?]] = [:]
    packed.withUTF8Buffer { buffer in
      let text = String(decoding: buffer, as: UTF8.self)
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard let key = fields.first?.unicodeScalars.first else { continue }
        neighbours[key] = fields.dropFirst().map { field in
          field == "\u{7F}" ? nil : Array(field.unicodeScalars)
        }
      }
    }
    return Graph(name: name, neighbours: neighbours)
  }
}
