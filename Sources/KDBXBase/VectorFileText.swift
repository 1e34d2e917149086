/// The text of a `.vec` test-vector file (`Vectors/README.md`), read by `kdbx selftest --vectors` and by the test
/// support target, which both wrap a record's fields in their own type (the CLI reports a mismatch as an error, the
/// tests record an issue).
///
/// Records are separated by blank lines; each line is `name = value`, where a value is lowercase hex, a "quoted
/// string" (escapes `\n` `\r` `\t` `\\` `\"` `\xHH`) or a decimal number; lines starting with `#` are comments, and
/// a line without `=` is passed over. Lines end in LF or CRLF.
package enum VectorFileText {
  /// One record: the 1-based line where it starts and its fields in file order.
  package typealias Record = (line: Int, fields: [(name: String, value: String)])

  /// The records of `text`.
  package static func parse(_ text: String) -> [Record] {
    var records: [Record] = []
    var fields: [(name: String, value: String)] = []
    var start = 0
    var lineNumber = 0
    // "\r\n" is one Character in a Swift string: splitting at "\n" alone would keep a CRLF file in one line.
    for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
      lineNumber += 1
      let line = rawLine.drop { $0 == " " || $0 == "\t" }
      let trimmed = line.last == "\r" ? line.dropLast() : line
      if trimmed.isEmpty {
        if !fields.isEmpty { records.append((start, fields)) }
        fields = []
        continue
      }
      if trimmed.first == "#" { continue }
      guard let equals = trimmed.firstIndex(of: "=") else { continue }
      if fields.isEmpty { start = lineNumber }
      fields.append(
        (
          name: String(trimmed[..<equals].trimmingBlanks()),
          value: String(trimmed[trimmed.index(after: equals)...].trimmingBlanks())
        ))
    }
    if !fields.isEmpty { records.append((start, fields)) }
    return records
  }

  /// Why a field's value could not be read as bytes.
  package enum ValueError: Error, Equatable {
    /// A quoted string with a bad escape or without its closing quote.
    case badString
    /// Hex with an odd number of digits or a character that is not one.
    case badHex
  }

  /// A field's value as bytes: a "quoted string" gives its UTF-8 bytes with the escapes resolved, anything else
  /// is read as hex.
  package static func bytes(_ value: String) -> Result<[UInt8], ValueError> {
    if value.hasPrefix("\"") {
      guard let decoded = unquote(value) else { return .failure(.badString) }
      return .success(decoded)
    }
    guard let decoded = Hex.decode(value) else { return .failure(.badHex) }
    return .success(decoded)
  }

  /// A field's value as text: a quoted string without its quotes and with its escapes resolved, anything else as
  /// written; `nil` for a quoted string that does not decode.
  package static func string(_ value: String) -> String? {
    guard value.hasPrefix("\"") else { return value }
    return unquote(value).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The bytes of a "quoted string", or `nil` when it is not one.
  package static func unquote(_ text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count >= 2, chars.first == UInt8(ascii: "\""), chars.last == UInt8(ascii: "\"") else { return nil }
    var out: [UInt8] = []
    var index = 1
    while index < chars.count - 1 {
      let c = chars[index]
      guard c == UInt8(ascii: "\\") else {
        out.append(c)
        index += 1
        continue
      }
      guard index + 1 < chars.count - 1 else { return nil }
      switch chars[index + 1] {
      case UInt8(ascii: "n"): out.append(0x0a)
      case UInt8(ascii: "r"): out.append(0x0d)
      case UInt8(ascii: "t"): out.append(0x09)
      case UInt8(ascii: "\\"): out.append(0x5c)
      case UInt8(ascii: "\""): out.append(0x22)
      case UInt8(ascii: "x"):
        guard index + 3 < chars.count - 1, let high = Hex.value(of: chars[index + 2]),
          let low = Hex.value(of: chars[index + 3])
        else { return nil }
        out.append(high << 4 | low)
        index += 2
      default: return nil
      }
      index += 2
    }
    return out
  }
}

extension Substring {
  fileprivate func trimmingBlanks() -> Substring {
    var s = self
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
    return s
  }
}
