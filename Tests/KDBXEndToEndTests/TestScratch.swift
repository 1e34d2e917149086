import Foundation

/// One directory per test process under the system's temporary directory, removed when the process exits: suites
/// whose files must live for the whole run (fixtures shared by several tests, vaults a peer reads later) create
/// their directories here, so that a run leaves nothing behind in `/tmp`.
enum TestScratch {
  static let root: String = {
    let path = NSTemporaryDirectory() + "kdbx-tests-\(ProcessInfo.processInfo.processIdentifier)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: TestScratch.root) }
    return path
  }()

  /// A new, empty directory `PREFIX-UUID` under ``root``.
  static func directory(_ prefix: String) throws -> String {
    let path = root + "/" + prefix + "-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }
}
