import KDBXBase
import Testing

// Reads the `.vec` test-vector files in `Vectors/`, through the parser `kdbx selftest --vectors` uses too
// (`VectorFileText` in KDBXBase; the format: Vectors/README.md).
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
    switch VectorFileText.bytes(value) {
    case .success(let bytes): return bytes
    case .failure(let error):
      let what = error == .badString ? "bad string" : "bad hex"
      Issue.record("\(testDescription): \(what) in '\(name)'", sourceLocation: sourceLocation)
      return []
    }
  }

  /// Field `name` as text (a quoted string without its quotes, or the raw value).
  public func string(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
    guard let value = raw(name) else {
      Issue.record("\(testDescription): missing field '\(name)'", sourceLocation: sourceLocation)
      return ""
    }
    return VectorFileText.string(value) ?? value
  }

  /// Field `name` as a decimal integer.
  public func int(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> Int {
    guard let value = raw(name), let number = Int(value) else {
      Issue.record("\(testDescription): missing or non-decimal field '\(name)'", sourceLocation: sourceLocation)
      return 0
    }
    return number
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

  /// Parses `.vec` text (``VectorFileText``).
  public static func parse(_ text: String, file: String) -> [VectorRecord] {
    VectorFileText.parse(text).map { VectorRecord(file: file, line: $0.line, fields: $0.fields) }
  }
}
