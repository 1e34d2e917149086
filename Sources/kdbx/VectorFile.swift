// Reads the `.vec` files of `Vectors/` for `kdbx selftest --vectors DIR`, without the test targets, through the
// parser `Tests/VectorSupport` uses too (`VectorFileText` in KDBXBase; the format: Vectors/README.md).
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

/// One record of a `.vec` file (``VectorFileText``).
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
    switch VectorFileText.bytes(value) {
    case .success(let bytes): return bytes
    case .failure(.badString): throw VectorMismatch("bad string in '\(name)'")
    case .failure(.badHex): throw VectorMismatch("bad hex in '\(name)'")
    }
  }

  /// Field `name` as text (a quoted string without its quotes, or the raw value).
  func string(_ name: String) throws(VectorMismatch) -> String {
    guard let value = raw(name) else { throw VectorMismatch("missing field '\(name)'") }
    guard let text = VectorFileText.string(value) else { throw VectorMismatch("bad string in '\(name)'") }
    return text
  }

  /// Field `name` as a decimal integer.
  func int(_ name: String) throws(VectorMismatch) -> Int {
    guard let value = raw(name), let number = Int(value) else {
      throw VectorMismatch("missing or non-decimal field '\(name)'")
    }
    return number
  }

  /// Parses `.vec` text.
  static func parse(_ text: String, file: String) -> [VectorRecord] {
    VectorFileText.parse(text).map { VectorRecord(file: file, line: $0.line, fields: $0.fields) }
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
