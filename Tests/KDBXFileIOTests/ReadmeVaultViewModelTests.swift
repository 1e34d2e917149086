import KDBX
import KDBXFileIO
import Testing
import VectorSupport

// --- README vault view model (keep in sync) ---
@MainActor final class VaultViewModel {  // @Observable in a SwiftUI app
  var state: VaultSessionState = .locked
  var unlockProgress = 0.0
  var titles: [String] = []
  var message: String?
  private var session: VaultSession<FileVaultStorage>?

  func open(path: String, password: String) async {
    do {
      let session = try await VaultSession.open(
        storage: FileVaultStorage(path: path), key: CompositeKey(password: password)
      ) { fraction in
        Task { @MainActor in self.unlockProgress = fraction }  // after every Argon2 slice
      }
      self.session = session
      Task { [weak self] in  // follows lock, unlock, saving, "changed on disk" without polling
        for await state in await session.stateUpdates() { self?.state = state }
      }
      await refresh()
    } catch {
      message = error.description  // .kdbx(.invalidCredentials): "wrong password or key file"
    }
  }

  func rename(entry uuid: KDBXUUID, to title: String) async {
    guard let session else { return }
    do {
      try await session.update {
        $0.editEntry(uuid, clock: SystemClock()) { $0[field: Entry.titleField] = .plain(title) }
      }
      try await session.save()  // a coordinated write: never over another device's save
    } catch .changedOnDisk {
      message = "The vault changed on another device."  // offer: merge, reload or overwrite
    } catch {
      message = error.description
    }
    await refresh()
  }

  func mergeChanges(now: Timestamp) async throws(VaultSessionError) {
    try await session?.save(onConflict: .merge(.threeWay(now: now)))
    await refresh()
  }

  func lock() async {
    await session?.lock()
    titles = []
  }

  private func refresh() async {
    let database = await session?.database
    titles = database?.flatEntries.compactMap { $0.entry[field: Entry.titleField]?.reveal() } ?? []
  }
}
// --- end ---

@Suite("README vault view model")
struct ReadmeVaultViewModelTests {
  @MainActor @Test func viewModelFollowsTheSession() async throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("demo.kdbx")
    try FileIO.atomicWrite(try #require(Vectors.data("demo/demo.kdbx")), toPath: path)
    let model = VaultViewModel()
    await model.open(path: path, password: "wrong")
    #expect(model.message?.contains("password") == true, "\(model.message ?? "no message")")
    model.message = nil
    await model.open(path: path, password: "demo")
    #expect(model.message == nil)
    #expect(model.titles.contains("GitHub"))
    #expect(model.unlockProgress >= 0)

    // Another program saves the vault: the model's save is refused, then merged.
    let other = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: CompositeKey(password: "demo"))
    let entries = try #require(other.database?.flatEntries)
    let github = try #require(entries.first { $0.entry[field: "Title"]?.reveal() == "GitHub" })
    let another = try #require(entries.first { $0.entry.uuid != github.entry.uuid })
    other.database?.editEntry(another.entry.uuid, clock: SystemClock()) {
      $0[field: Entry.userNameField] = .plain("octocat")
    }
    try other.save()
    await model.rename(entry: github.entry.uuid, to: "GitHub (work)")
    #expect(model.message == "The vault changed on another device.")
    await waitForState(.changedOnDisk, in: model)
    try await model.mergeChanges(now: Timestamp(unixSeconds: 1_772_539_200))
    #expect(model.titles.contains("GitHub (work)"))
    await waitForState(.unlocked, in: model)
    let disk = try SynchronousVaultSession(storage: FileVaultStorage(path: path), key: CompositeKey(password: "demo"))
    #expect(disk.database?.entry(withUUID: github.entry.uuid)?[field: Entry.titleField]?.reveal() == "GitHub (work)")
    #expect(disk.database?.entry(withUUID: another.entry.uuid)?[field: Entry.userNameField]?.reveal() == "octocat")

    await model.lock()
    await waitForState(.locked, in: model)
    #expect(model.titles.isEmpty)
  }

  /// Lets the model's observing task run until it saw `state` (bounded: no timing assertion, a yield count).
  @MainActor func waitForState(_ state: VaultSessionState, in model: VaultViewModel) async {
    for _ in 0..<10_000 where model.state != state { await Task.yield() }
    #expect(model.state == state)
  }
}
