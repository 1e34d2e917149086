import Foundation
import KDBX
import KDBXXML
import Testing
import VectorSupport

/// Runs `keepassxc-cli` (KeePassXC 2.7.4 here) to check ``DatabaseMerge/synchronize(local:remote:)`` against
/// `keepassxc-cli merge` on the same pair of databases. The databases go through KeePass XML (our
/// `DatabaseXMLWriter`, then `keepassxc-cli import`), and the merged file comes back through
/// `keepassxc-cli export -f xml` and our `DatabaseXMLReader`, so no KDBX codec of ours is involved.
enum KeePassXCCLI {
  static let path: String? = ["/usr/bin/keepassxc-cli", "/usr/local/bin/keepassxc-cli"].first {
    FileManager.default.isExecutableFile(atPath: $0)
  }
  static let password = "merge-test"

  static var isAvailable: Bool {
    guard EndToEnd.isEnabled else { return false }
    if path == nil { print("note: keepassxc-cli is absent; the merge interop test is skipped") }
    return path != nil
  }

  @discardableResult
  static func run(_ arguments: [String], input: String) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path ?? "/nonexistent")
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    let stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let errors = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw InteropFailure(message: "\(arguments.first ?? ""): \(String(decoding: errors, as: UTF8.self))")
    }
    return output
  }

  struct InteropFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Writes `database` as KeePass XML and imports it into a KDBX file at `path`.
  static func importDatabase(_ database: Database, to path: String) throws {
    var stream = PlaintextInnerStream()
    // A plain XML import reads no protected values: keep the passwords plain (a save protects them by default).
    var database = database
    database.meta.memoryProtection = MemoryProtection(protectPassword: false)
    let document = DatabaseXMLWriter.write(database, version: .v3_1, stream: &stream)
    let xml = try XMLWriter.write(document)
    let xmlPath = path + ".xml"
    try Data(xml).write(to: URL(fileURLWithPath: xmlPath))
    try run(["import", "-q", "-p", xmlPath, path], input: "\(password)\n\(password)\n")
  }

  /// Exports the KDBX file at `path` as XML and reads it into the model.
  static func exportDatabase(_ path: String) throws -> Database {
    let xml = try run(["export", "-q", "-f", "xml", path], input: "\(password)\n")
    guard let document = TestXMLParser.parse(Array(xml)) else { throw InteropFailure(message: "export not XML") }
    var stream = PlaintextInnerStream()
    var random = SplitMix64(seed: 3)
    return try DatabaseXMLReader.read(document: document, stream: &stream, random: &random, gzip: ProcessGzip())
  }
}

@Suite("Merge: keepassxc-cli interop")
struct MergeInteropTests {
  typealias F = MergeFixture
  static let groupC = F.uuid(4)
  static let four = F.uuid(14)
  static let five = F.uuid(15)
  static let six = F.uuid(16)

  /// The classic traps at once: edit/edit, deletion against a newer edit, deletion newer than an edit, move
  /// against an edit, new entries on both sides, a deleted group holding an entry edited on the other side, and
  /// a plain local deletion.
  static func scenario() -> (local: Database, remote: Database) {
    var base = F.base()
    F.mutate(&base) { group in
      if group.uuid == F.root {
        group.groups.append(
          F.group(groupC, name: "C", entries: [F.entry(four, title: "four"), F.entry(five, title: "five")]))
        group.childOrder.append(false)
      }
    }
    F.addEntry(&base, F.entry(six, title: "six"), to: F.root)
    var local = base
    var remote = base
    F.setPassword(&local, F.entry1, "local edit", at: 100)
    F.setPassword(&remote, F.entry1, "remote edit", at: 200)
    F.delete(&remote, F.entry2, at: 100)
    F.setPassword(&local, F.entry2, "edited after the deletion", at: 200)
    F.setPassword(&remote, F.entry3, "old edit", at: 100)
    F.move(&local, F.entry3, to: F.root, at: 150)
    F.addEntry(&local, F.entry(F.uuid(21), title: "local new", at: 10), to: F.groupA)
    F.addEntry(&remote, F.entry(F.uuid(22), title: "remote new", at: 20), to: F.groupB)
    F.delete(&remote, groupC, at: 100)
    F.setPassword(&local, four, "edited after the group deletion", at: 300)
    F.delete(&local, six, at: 100)
    return (local, remote)
  }

  /// Differences between two merged databases, one line per difference.
  static func differences(_ ours: Database, _ theirs: Database, ids: Set<KDBXUUID>) -> [String] {
    var problems: [String] = []
    for id in ids.sorted(by: { $0.description < $1.description }) {
      let title = F.entry(id, in: ours)?[field: "Title"]?.reveal() ?? F.entry(id, in: theirs)?[field: "Title"]?.reveal()
      let label = "entry \(title ?? id.description)"
      if (F.entry(id, in: ours) == nil) != (F.entry(id, in: theirs) == nil) { problems.append("\(label): presence") }
      if F.password(id, in: ours) != F.password(id, in: theirs) { problems.append("\(label): password") }
      if F.parent(of: id, in: ours) != F.parent(of: id, in: theirs) { problems.append("\(label): group") }
      let history = { (database: Database) in
        (F.entry(id, in: database)?.history ?? []).map { $0[field: "Password"]?.reveal() ?? "" }
      }
      if history(ours) != history(theirs) {
        problems.append("\(label): history \(history(ours)) vs \(history(theirs))")
      }
    }
    let groups = { (database: Database) in Set(database.root.map(F.allGroupIDs) ?? []) }
    if groups(ours) != groups(theirs) { problems.append("groups") }
    let tombstones = { (database: Database) in Set((database.deletedObjects ?? []).map(\.uuid)) }
    for id in tombstones(ours).symmetricDifference(tombstones(theirs)) { problems.append("tombstone \(id)") }
    return problems
  }

  @Test(.enabled(if: KeePassXCCLI.isAvailable && ProcessGzip.path != nil))
  func synchronizeMatchesKeePassXCMerge() throws {
    let (local, remote) = Self.scenario()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-merge-\(getpid())").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let localPath = directory + "/local.kdbx"
    let remotePath = directory + "/remote.kdbx"
    try KeePassXCCLI.importDatabase(local, to: localPath)
    try KeePassXCCLI.importDatabase(remote, to: remotePath)
    try KeePassXCCLI.run(["merge", "-q", "-s", localPath, remotePath], input: "\(KeePassXCCLI.password)\n")
    let theirs = try KeePassXCCLI.exportDatabase(localPath)
    let ids = Set((local.root.map(F.allEntryIDs) ?? []) + (remote.root.map(F.allEntryIDs) ?? []))

    // keepassxc-cli merges in KeePassXC's default mode, KeepNewer: everything must agree, history included.
    let keepNewer = DatabaseMerge.synchronize(local: local, remote: remote, mode: .keepNewer).database
    #expect(Self.differences(keepNewer, theirs, ids: ids) == [])

    // Synchronize mode also applies the tombstones. The only differences from keepassxc-cli are the objects
    // whose deletion is not older than their last change: "five" (unchanged inside the remotely deleted group C,
    // which stays for the edited "four") and "six" (deleted locally, unchanged remotely; KeepNewer brings it
    // back, while keeping the local tombstone of "six" as it is), plus the tombstone of "five".
    let synchronized = DatabaseMerge.synchronize(local: local, remote: remote).database
    #expect(
      Set(Self.differences(synchronized, theirs, ids: ids)) == [
        "entry five: presence", "entry five: password", "entry five: group", "entry six: presence",
        "entry six: password", "entry six: group", "tombstone \(Self.five)",
      ])
  }
}
