import Foundation
import KDBX
import KDBXFoundation
import Observation
import Testing
import VectorSupport

// The README's "Foundation types and iCloud Drive" example, verbatim (imports aside): keep the two in step.

@Observable @MainActor final class VaultListModel {
  struct Row: Identifiable, Equatable {
    let id: UUID
    let title: String
    let userName: String
    let modified: Date?
    let expires: Date?
  }
  var rows: [Row] = []
  var unlockProgress = 0.0
  private var session: VaultSession<CoordinatedVaultStorage>?

  func unlock(_ url: URL, password: String) async throws(VaultSessionError) {
    let storage = CoordinatedVaultStorage(url: url, isSecurityScoped: true)  // from the document picker
    let (progress, reporter) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
    Task { for await fraction in progress { self.unlockProgress = fraction } }  // in order, on the main actor
    defer { reporter.finish() }
    session = try await VaultSession.open(storage: storage, key: CompositeKey(password: password)) { fraction in
      reporter.yield(fraction)
    }
    await refresh()
  }

  func rename(_ id: UUID, to title: String) async throws(VaultSessionError) {
    guard let session else { throw .locked }
    try await session.update { $0.editEntry(KDBXUUID(id)) { $0.title = title } }
    do {
      try await session.save()  // a coordinated write over the version read
    } catch .changedOnDisk {  // another device saved through iCloud meanwhile: merge, keeping both sides
      try await session.save(onConflict: .merge(.threeWay()))
    }
    await refresh()
  }

  private func refresh() async {
    rows = ((await session?.database)?.flatEntries ?? []).map { item in
      Row(
        id: UUID(item.entry.uuid), title: item.entry.title, userName: item.entry.userName,
        modified: item.entry.modificationDate, expires: item.entry.expiryDate)
    }
  }
}

/// Drives the README's `VaultListModel` on the demo vault through ``CoordinatedVaultStorage`` (plain files on Linux).
@Suite struct ReadmeFoundationExampleTests {
  /// The code above is the README's, line for line (apart from its `import` lines).
  @Test func exampleIsTheReadmes() throws {
    let readme = String(
      decoding: try #require(Vectors.readFile(atPath: Vectors.repositoryRoot + "/README.md")), as: UTF8.self)
    let section = try #require(readme.firstRange(of: "### Foundation types and iCloud Drive"))
    let fenceStart = try #require(readme[section.upperBound...].firstRange(of: "```swift\n"))
    let fenceEnd = try #require(readme[fenceStart.upperBound...].firstRange(of: "```"))
    let code = readme[fenceStart.upperBound..<fenceEnd.lowerBound].split(
      separator: "\n", omittingEmptySubsequences: false
    )
    .filter { !$0.hasPrefix("import ") }.joined(separator: "\n")
    let source = String(decoding: try #require(Vectors.readFile(atPath: #filePath)), as: UTF8.self)
    #expect(source.contains(code.trimmingCharacters(in: .whitespacesAndNewlines)))
  }

  @MainActor @Test func unlockListRenameAndMergeAnotherDevicesSave() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-readme-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("demo.kdbx")
    try Data(try #require(Vectors.data("demo/demo-light.kdbx"))).write(to: url)

    let model = VaultListModel()
    await #expect(throws: VaultSessionError.kdbx(.invalidCredentials)) {
      try await model.unlock(url, password: "wrong")
    }
    try await model.unlock(url, password: "demo")
    #expect(model.unlockProgress == 1)
    let demo = try await KDBXFile.open(data: try Data(contentsOf: url), key: CompositeKey(password: "demo")).database
    #expect(model.rows.map(\.id) == demo.flatEntries.map { UUID($0.entry.uuid) })
    #expect(model.rows.map(\.title) == demo.flatEntries.map(\.entry.title))
    #expect(model.rows.allSatisfy { $0.modified != nil })
    let first = try #require(model.rows.first)
    let second = try #require(model.rows.dropFirst().first)

    try await model.rename(first.id, to: "Renamed in the app")
    #expect(model.rows.first?.title == "Renamed in the app")
    let saved = try await KDBXFile.open(data: try Data(contentsOf: url), key: CompositeKey(password: "demo")).database
    #expect(saved.flatEntries.first?.entry.title == "Renamed in the app")

    // Another device saves a change to a different entry; the next save meets it and merges both changes.
    var theirs = saved
    theirs.editEntry(KDBXUUID(second.id), clock: FoundationClock()) { $0.userName = "changed elsewhere" }
    let opened = try await KDBXFile.open(data: try Data(contentsOf: url), key: CompositeKey(password: "demo"))
    try await KDBXFile.saveData(theirs, key: CompositeKey(password: "demo"), settings: SaveSettings(keeping: opened))
      .write(to: url, options: .atomic)
    try await model.rename(first.id, to: "Renamed again")
    let merged = try await KDBXFile.open(data: try Data(contentsOf: url), key: CompositeKey(password: "demo")).database
    #expect(merged.flatEntries.first?.entry.title == "Renamed again")
    #expect(merged.flatEntries.first { $0.entry.uuid == KDBXUUID(second.id) }?.entry.userName == "changed elsewhere")
    #expect(model.rows.first { $0.id == second.id }?.userName == "changed elsewhere")
  }
}
