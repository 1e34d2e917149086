import KDBX
import KDBXAutoFill
import KDBXFileIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

// The AutoFill extension's path as one process (issue #35, item 2), for its peak memory under `/usr/bin/time -v`:
//
//   kdbx-bench --cache-key VAULT PASSWORD KEYFILE   unlock with the password (the app) and write the cached key
//   kdbx-bench --autofill VAULT KEYFILE HOST        open with the cached key under a 50 MB budget, match HOST,
//                                                    reveal one password, save one change (the extension)

/// The app's side: runs the KDF once and writes ``CachedVaultKey/serialized`` to `keyPath`.
func cacheKey(vault path: String, password: String, keyPath: String) -> Int32 {
  do {
    let bytes = try FileIO.readFile(atPath: path)
    let opened = try KDBXFile.openBlocking(bytes: bytes, key: CompositeKey(password: password))
    guard let cached = opened.cachedKey else {
      print("no cached key for this file")
      return 1
    }
    try FileIO.atomicWrite(cached.serialized, toPath: keyPath)
    print("cached key for \(cached)")
    return 0
  } catch {
    print("kdbx-bench --cache-key: \(error)")
    return 1
  }
}

/// The extension's side: everything it does for one request, timed in process.
func autoFill(vault path: String, keyPath: String, host: String) -> Int32 {
  let clock = ContinuousClock()
  let start = clock.now
  do {
    let cached = try CachedVaultKey(serialized: try FileIO.readFile(atPath: keyPath))
    var load = LoadOptions.default
    load.availableMemoryBytes = 50_000_000  // history and attachments are loaded: the extension saves
    let session = try SynchronousVaultSession(
      storage: FileVaultStorage(path: path), cachedKey: cached, options: VaultSessionOptions(load: load))
    guard let database = session.database, let service = ServiceIdentifier("https://\(host)/") else {
      print("no database or bad host")
      return 1
    }
    let now = SystemClock().now()
    let matches = CredentialMatcher().match(service, in: database.matchCandidates(now: now)).matches
    guard let best = matches.first, let entry = database.entry(withUUID: best.id) else {
      print("no entry matches \(host)")
      return 1
    }
    let revealed = entry[field: Entry.passwordField]?.reveal().utf8.count ?? 0
    session.database?.editEntry(best.id, clock: SystemClock()) { $0[field: Entry.notesField] = .plain("filled") }
    let outcome = try session.save()
    let elapsed = start.duration(to: clock.now)
    print(
      "autofill: \(matches.count) match(es) for \(host), revealed \(revealed) characters, save \(outcome), "
        + "\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms")
    return 0
  } catch {
    print("kdbx-bench --autofill: \(error)")
    return 1
  }
}
