import KDBX

/// KeePass 1.x keeps an entry's auto-type settings in its notes, one per line (KeePass 1.x help, "Auto-Type"):
///
/// - `Auto-Type: SEQUENCE` sets the default sequence;
/// - `Auto-Type-Window: TITLE` adds a window for the default sequence;
/// - `Auto-Type-N: SEQUENCE` and `Auto-Type-Window-N: TITLE` pair a sequence with windows by the number N.
///
/// As KeePassXC's `KeePass1Reader::parseNotes` does: the prefixes are matched case-insensitively against whole
/// lines (a value needs at least one character), matching lines leave the notes, an empty line right after one of
/// them leaves too, `\r` is removed from every line, and each window becomes an association with the sequence of its
/// number (empty, meaning the entry's default, when there is none).
enum KDB1AutoType {
  struct Parsed {
    var notes: String
    var defaultSequence: String?
    var associations: [AutoType.Association]
  }

  static func parse(_ notes: [UInt8]) -> Parsed {
    var kept: [[UInt8]] = []
    var defaultSequence: String?
    var sequences: [Int: String] = [:]
    var windows: [Int: [String]] = [:]
    var lastLineWasAutoType = false
    for rawLine in notes.split(separator: 0x0A, omittingEmptySubsequences: false) {
      let line = rawLine.filter { $0 != 0x0D }
      if let (number, value) = match(line, prefix: windowPrefix) {
        windows[number ?? -1, default: []].append(String(decoding: value, as: UTF8.self))
        lastLineWasAutoType = true
      } else if let (number, value) = match(line, prefix: sequencePrefix) {
        let sequence = String(decoding: value, as: UTF8.self)
        if let number { sequences[number] = sequence } else { defaultSequence = sequence }
        lastLineWasAutoType = true
      } else {
        if !lastLineWasAutoType || !line.isEmpty { kept.append(line) }
        lastLineWasAutoType = false
      }
    }
    var associations: [AutoType.Association] = []
    for number in windows.keys.sorted() {
      for window in windows[number] ?? [] {
        associations.append(AutoType.Association(window: window, keystrokeSequence: sequences[number] ?? ""))
      }
    }
    let text = kept.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n")
    return Parsed(notes: text, defaultSequence: defaultSequence, associations: associations)
  }

  static let sequencePrefix = Array("auto-type".utf8)
  static let windowPrefix = Array("auto-type-window".utf8)

  /// Matches `PREFIX(-DIGITS)?: VALUE` (VALUE at least one byte) against the whole line, the prefix compared without
  /// regard to ASCII case; returns the number (saturating) and the value.
  static func match(_ line: [UInt8], prefix: [UInt8]) -> (Int?, ArraySlice<UInt8>)? {
    guard line.count > prefix.count else { return nil }
    for (index, byte) in prefix.enumerated() {
      let character = line[index]
      guard (character >= 0x41 && character <= 0x5A ? character | 0x20 : character) == byte else { return nil }
    }
    var position = prefix.count
    var number: Int?
    if line[position] == 0x2D {  // "-"
      position += 1
      var value = 0
      let start = position
      while position < line.count, line[position] >= 0x30, line[position] <= 0x39 {
        let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
        let (sum, overflow2) = times.addingReportingOverflow(Int(line[position] - 0x30))
        value = overflow1 || overflow2 ? Int.max : sum
        position += 1
      }
      guard position > start else { return nil }
      number = value
    }
    guard line.count - position > 2, line[position] == 0x3A, line[position + 1] == 0x20 else { return nil }
    return (number, line[(position + 2)...])
  }
}
