// Reads the `.vec` files of `Vectors/` for `kdbx selftest --vectors DIR`, without the test targets: the same
// format that `Tests/VectorSupport` parses (see Vectors/README.md). Records are separated by blank lines; each line
// is `name = value`, where a value is lowercase hex, a "quoted string" (escapes \n \r \t \\ \" \xHH) or a decimal
// number; lines starting with `#` are comments.
import KDBXBase

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What made one vector record fail: a message naming the field or the mismatch.
struct VectorMismatch: Error {
  var message: String
  init(_ message: String) { self.message = message }
}

/// One record of a `.vec` file.
struct VectorRecord {
  /// Path relative to the vectors folder, for example `sha256/cavp-shortmsg.vec`.
  let file: String
  /// 1-based line where the record starts.
  let line: Int
  let fields: [(name: String, value: String)]

  func raw(_ name: String) -> String? { fields.first { $0.name == name }?.value }
  func has(_ name: String) -> Bool { raw(name) != nil }

  /// Field `name` as bytes: hex decoded, or a quoted string's UTF-8 bytes.
  func bytes(_ name: String) throws(VectorMismatch) -> [UInt8] {
    guard let value = raw(name) else { throw VectorMismatch("missing field '\(name)'") }
    if value.hasPrefix("\"") {
      guard let decoded = VectorRecord.unquote(value) else { throw VectorMismatch("bad string in '\(name)'") }
      return decoded
    }
    guard let decoded = Hex.decode(value) else { throw VectorMismatch("bad hex in '\(name)'") }
    return decoded
  }

  /// Field `name` as text (a quoted string without its quotes, or the raw value).
  func string(_ name: String) throws(VectorMismatch) -> String {
    guard let value = raw(name) else { throw VectorMismatch("missing field '\(name)'") }
    if value.hasPrefix("\"") {
      guard let decoded = VectorRecord.unquote(value) else { throw VectorMismatch("bad string in '\(name)'") }
      return String(decoding: decoded, as: UTF8.self)
    }
    return value
  }

  /// Field `name` as a decimal integer.
  func int(_ name: String) throws(VectorMismatch) -> Int {
    guard let value = raw(name), let number = Int(value) else {
      throw VectorMismatch("missing or non-decimal field '\(name)'")
    }
    return number
  }

  static func unquote(_ text: String) -> [UInt8]? {
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
        guard index + 3 < chars.count - 1, let h = Hex.value(of: chars[index + 2]),
          let l = Hex.value(of: chars[index + 3])
        else {
          return nil
        }
        out.append(h << 4 | l)
        index += 2
      default: return nil
      }
      index += 2
    }
    return out
  }

  /// Parses `.vec` text.
  static func parse(_ text: String, file: String) -> [VectorRecord] {
    var records: [VectorRecord] = []
    var fields: [(name: String, value: String)] = []
    var start = 0
    var lineNumber = 0
    for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
      lineNumber += 1
      let line = rawLine.drop { $0 == " " || $0 == "\t" }
      let trimmed = line.last == "\r" ? line.dropLast() : line
      if trimmed.isEmpty {
        if !fields.isEmpty { records.append(VectorRecord(file: file, line: start, fields: fields)) }
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
    if !fields.isEmpty { records.append(VectorRecord(file: file, line: start, fields: fields)) }
    return records
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

/// The `.vec` files under a folder, as paths relative to it, sorted; `nil` when the folder cannot be read.
func vectorFiles(under root: String) -> [String]? {
  var found: [String] = []
  guard listVectorFiles(root, relative: "", into: &found, depth: 0) else { return nil }
  return found.sorted()
}

private func listVectorFiles(_ root: String, relative: String, into found: inout [String], depth: Int) -> Bool {
  guard depth < 16, let directory = opendir(relative.isEmpty ? root : root + "/" + relative) else { return false }
  defer { closedir(directory) }
  while let entry = readdir(directory) {
    // SAFETY: `entry` is readdir's record for `directory`, valid until the next readdir or closedir (both after
    // this iteration); d_name is a fixed array inside it, read only up to its NUL within the array's bounds.
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name == "." || name == ".." || name.hasPrefix(".") { continue }
    let path = relative.isEmpty ? name : relative + "/" + name
    var isDirectory = entry.pointee.d_type == UInt8(DT_DIR)
    if entry.pointee.d_type == UInt8(DT_UNKNOWN) {  // some file systems do not fill d_type
      var status = stat()
      isDirectory = stat(root + "/" + path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
    if isDirectory {
      _ = listVectorFiles(root, relative: path, into: &found, depth: depth + 1)
    } else if name.hasSuffix(".vec") {
      found.append(path)
    }
  }
  return true
}
