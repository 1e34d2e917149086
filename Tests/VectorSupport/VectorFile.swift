import Testing

// Reads the `.vec` test-vector files in `Vectors/`.
//
// Format: records are separated by blank lines. Each line is `name = value`, where a value is
// lowercase hex, a "quoted string" or a decimal number. Lines starting with `#` are comments.
// A record's location (`file:line`) is its test-case name in Swift Testing.
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// One record of a `.vec` file.
public struct VectorRecord: Sendable, CustomTestStringConvertible, CustomStringConvertible {
  /// Path relative to `Vectors/`, for example `sha256/SHA256ShortMsg.vec`.
  public let file: String
  /// 1-based line where the record starts.
  public let line: Int
  /// The fields in file order.
  public let fields: [(name: String, value: String)]

  public var testDescription: String { "\(file):\(line)" }
  public var description: String { testDescription }

  /// The raw text of field `name` (quotes kept), or `nil`.
  public func raw(_ name: String) -> String? {
    fields.first { $0.name == name }?.value
  }

  /// Whether the record has field `name`.
  public func has(_ name: String) -> Bool { raw(name) != nil }

  /// Field `name` as bytes: hex is decoded, a "quoted string" gives its UTF-8 bytes (with `\n`,
  /// `\t`, `\\`, `\"` and `\xHH` escapes). Records a test failure and returns `[]` when missing or bad.
  public func bytes(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    guard let value = raw(name) else {
      Issue.record("\(testDescription): missing field '\(name)'", sourceLocation: sourceLocation)
      return []
    }
    if value.hasPrefix("\"") {
      guard let decoded = VectorRecord.unquote(value) else {
        Issue.record("\(testDescription): bad string in '\(name)'", sourceLocation: sourceLocation)
        return []
      }
      return decoded
    }
    guard let decoded = VectorRecord.hex(value) else {
      Issue.record("\(testDescription): bad hex in '\(name)'", sourceLocation: sourceLocation)
      return []
    }
    return decoded
  }

  /// Field `name` as text (a quoted string without its quotes, or the raw value).
  public func string(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    guard let value = raw(name) else {
      Issue.record("\(testDescription): missing field '\(name)'", sourceLocation: sourceLocation)
      return ""
    }
    if value.hasPrefix("\""), let decoded = VectorRecord.unquote(value) {
      return String(decoding: decoded, as: UTF8.self)
    }
    return value
  }

  /// Field `name` as a decimal integer.
  public func int(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    guard let value = raw(name), let number = Int(value) else {
      Issue.record("\(testDescription): missing or non-decimal field '\(name)'", sourceLocation: sourceLocation)
      return 0
    }
    return number
  }

  static func hex(_ text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard digits.count % 2 == 0 else { return nil }
    var out = [UInt8]()
    out.reserveCapacity(digits.count / 2)
    var index = 0
    while index < digits.count {
      guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
      out.append(high << 4 | low)
      index += 2
    }
    return out
  }

  static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  static func unquote(_ text: String) -> [UInt8]? {
    let chars = Array(text.utf8)
    guard chars.count >= 2, chars.first == UInt8(ascii: "\""), chars.last == UInt8(ascii: "\"") else { return nil }
    var out = [UInt8]()
    var index = 1
    while index < chars.count - 1 {
      let c = chars[index]
      if c == UInt8(ascii: "\\") {
        guard index + 1 < chars.count - 1 else { return nil }
        let e = chars[index + 1]
        switch e {
        case UInt8(ascii: "n"): out.append(0x0a)
        case UInt8(ascii: "r"): out.append(0x0d)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "\\"): out.append(0x5c)
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "x"):
          guard index + 3 < chars.count, let h = nibble(chars[index + 2]), let l = nibble(chars[index + 3]) else {
            return nil
          }
          out.append(h << 4 | l)
          index += 2
        default: return nil
        }
        index += 2
      } else {
        out.append(c)
        index += 1
      }
    }
    return out
  }
}

/// Locates and parses the files in `Vectors/`.
public enum Vectors {
  /// The absolute path of the repository's `Vectors/` folder, found from this source file's path.
  public static var root: String {
    // This file lives at <repo>/Tests/VectorSupport/VectorFile.swift.
    var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/") + "/Vectors"
  }

  /// The repository root (the folder holding `Package.swift`).
  public static var repositoryRoot: String {
    var parts = root.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast()
    return parts.joined(separator: "/")
  }

  /// Reads a whole file. Returns `nil` when it cannot be opened.
  public static func readFile(atPath path: String) -> [UInt8]? {
    guard let handle = fopen(path, "rb") else { return nil }
    defer { fclose(handle) }
    var out = [UInt8]()
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, handle) }
      if count > 0 { out.append(contentsOf: chunk[0..<count]) }
      if count < chunk.count { break }
    }
    return out
  }

  /// Reads `Vectors/<relativePath>` as bytes, or `nil`.
  public static func data(_ relativePath: String) -> [UInt8]? {
    readFile(atPath: root + "/" + relativePath)
  }

  /// Parses `Vectors/<relativePath>` into records. A missing file yields one placeholder record
  /// whose `file` names the problem, so that a test using it fails visibly rather than running zero cases.
  public static func records(_ relativePath: String) -> [VectorRecord] {
    guard let bytes = data(relativePath) else {
      return [VectorRecord(file: "MISSING:" + relativePath, line: 0, fields: [])]
    }
    let parsed = parse(String(decoding: bytes, as: UTF8.self), file: relativePath)
    if parsed.isEmpty { return [VectorRecord(file: "EMPTY:" + relativePath, line: 0, fields: [])] }
    return parsed
  }

  /// Parses `.vec` text.
  public static func parse(_ text: String, file: String) -> [VectorRecord] {
    var records: [VectorRecord] = []
    var fields: [(name: String, value: String)] = []
    var start = 0
    var lineNumber = 0
    func flush() {
      if !fields.isEmpty { records.append(VectorRecord(file: file, line: start, fields: fields)) }
      fields = []
    }
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.drop { $0 == " " || $0 == "\t" }
      let trimmed = line.last == "\r" ? line.dropLast() : line
      if trimmed.isEmpty {
        flush()
        continue
      }
      if trimmed.first == "#" { continue }
      guard let equals = trimmed.firstIndex(of: "=") else { continue }
      let name = trimmed[..<equals].trimmingSpaces()
      let value = trimmed[trimmed.index(after: equals)...].trimmingSpaces()
      if fields.isEmpty { start = lineNumber }
      fields.append((name: String(name), value: String(value)))
    }
    flush()
    return records
  }
}

extension Substring {
  fileprivate func trimmingSpaces() -> Substring {
    var s = self
    while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
    while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
    return s
  }
}
