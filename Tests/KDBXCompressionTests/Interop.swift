import Foundation

/// Runs outside reference tools (Python's zlib, gzip) for interop tests.
enum Interop {
  /// The path of an executable on PATH, or nil.
  static func which(_ name: String) -> String? {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
    for directory in paths {
      let path = "\(directory)/\(name)"
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  static let python: String? = {
    guard let path = which("python3") else { return nil }
    // The tests need the interpreter to start and have zlib.
    return (try? run(path, ["-c", "import zlib, gzip"], input: [])) != nil ? path : nil
  }()
  static let gzip: String? = which("gzip")

  static var hasPython: Bool {
    if python == nil { print("SKIP: python3 with zlib not found; Python interop tests skipped") }
    return python != nil
  }
  static var hasGzip: Bool {
    if gzip == nil { print("SKIP: gzip not found; gzip interop tests skipped") }
    return gzip != nil
  }

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  /// Runs `executable` with `arguments`, feeding `input` on standard input through a temporary
  /// file, and returns standard output. Throws when the exit status is not zero.
  static func run(_ executable: String, _ arguments: [String], input: [UInt8]) throws -> [UInt8] {
    let directory = FileManager.default.temporaryDirectory
    let inputURL = directory.appendingPathComponent("kdbx-interop-\(UUID().uuidString).in")
    let outputURL = directory.appendingPathComponent("kdbx-interop-\(UUID().uuidString).out")
    defer {
      try? FileManager.default.removeItem(at: inputURL)
      try? FileManager.default.removeItem(at: outputURL)
    }
    try Data(input).write(to: inputURL)
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = try FileHandle(forReadingFrom: inputURL)
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw Failure(description: "\(executable) \(arguments.first ?? "") exited with \(process.terminationStatus)")
    }
    return [UInt8](try Data(contentsOf: outputURL))
  }

  /// Runs a Python snippet that reads standard input into `data` and writes bytes to `out`.
  static func python(_ body: String, input: [UInt8]) throws -> [UInt8] {
    guard let python else { throw Failure(description: "no python3") }
    let script = "import sys, zlib, gzip\ndata = sys.stdin.buffer.read()\n\(body)\nsys.stdout.buffer.write(out)\n"
    return try run(python, ["-c", script], input: input)
  }
}
