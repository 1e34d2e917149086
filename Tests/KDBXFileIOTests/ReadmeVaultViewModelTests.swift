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
  private var session: VaultSession<AnyVaultStorage>?  // any storage: a path, a file provider URL, memory

  func open(path: String, password: String) async {
    // Progress in order: one stream read on the main actor (not one Task per callback, which may run out of order).
    let (progress, reporter) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
    Task { for await fraction in progress { self.unlockProgress = fraction } }
    defer { reporter.finish() }
    do {
      let session = try await VaultSession.open(
        storage: AnyVaultStorage(FileVaultStorage(path: path)), key: CompositeKey(password: password)
      ) { fraction in reporter.yield(fraction) }  // after every Argon2 slice
      self.session = session
      Task { [weak self] in  // follows lock, unlock, saving, "changed on disk" without polling
        for await state in await session.stateUpdates() { self?.state = state }
      }
      await refresh()
    } catch {
      switch error.category {  // one question per alert: wrong key, damaged, unsupported, too large, I/O...
      case .wrongKey: message = "Wrong password or key file."
      default: message = error.description  // one sentence naming the cause
      }
    }
  }

  func rename(entry uuid: KDBXUUID, to title: String) async {
    guard let session else { return }
    do {
      try await session.update { $0.editEntry(uuid, clock: SystemClock()) { $0.title = title } }
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
    titles = (await session?.database)?.flatEntries.map { $0.entry.title } ?? []
  }
}
// --- end ---

@Suite("README vault view model")
struct ReadmeVaultViewModelTests {
  @MainActor @Test func viewModelFollowsTheSession() async throws {
    let scratch = ScratchDirectory()
    let path = scratch.file("demo.kdbx")
    try FileIO.atomicWrite(try #require(Vectors.data("demo/demo-light.kdbx")), toPath: path)
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
