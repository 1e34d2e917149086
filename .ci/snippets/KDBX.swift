// What the examples in KDBX's doc comments and DocC articles take as given: the names an app has at that point,
// with their types. Type-checked with the examples by .ci/doc-snippets.py, never run.
import KDBX

/// The vault file's bytes, as read from disk or a file provider.
var bytes: [UInt8] { fatalError() }
var fileBytes: [UInt8] { fatalError() }
var password: String { fatalError() }
var pw: String { fatalError() }
var key: CompositeKey { fatalError() }
var opened: OpenedDatabase { fatalError() }
var database: Database {
  get { fatalError() }
  set {}
}
var entry: Entry {
  get { fatalError() }
  set {}
}
var uuid: KDBXUUID { fatalError() }
var id: KDBXUUID { fatalError() }
var entryID: KDBXUUID { fatalError() }
var groupUUID: KDBXUUID { fatalError() }
var savedGroupUUIDs: [KDBXUUID] { fatalError() }
var storage: AnyVaultStorage { fatalError() }
var cached: CachedVaultKey { fatalError() }
var configuration: OTPConfiguration { fatalError() }
var unixTime: Int64 { fatalError() }
var now: Timestamp { fatalError() }
var clock: DocClock { fatalError() }
var keychain: Keychain { fatalError() }
var yubiKey: ChallengeResponseDevice { fatalError() }
var reporter: AsyncStream<Double>.Continuation { fatalError() }
@MainActor var model: UnlockViewModel { fatalError() }

struct DocClock: WallClock {
  func now() -> Timestamp { fatalError() }
}

/// The app's Keychain wrapper (Apple's Security framework, out of this package's scope).
struct Keychain {
  func store(_ bytes: [UInt8]) throws {}
  func load() throws -> [UInt8] { [] }
}

/// A hardware key's HMAC-SHA1 challenge-response (a YubiKey through the app's own driver).
struct ChallengeResponseDevice {
  func respond(to challenge: [UInt8]) -> [UInt8] { [] }
}

@MainActor final class UnlockViewModel {
  var unlockProgress = 0.0
}

func log(_ message: String) {}
func show(_ label: String, _ value: String) {}
func show(_ label: String, _ bytes: [UInt8]) {}
func copyToPasteboard(_ text: String) {}
func disableVaultAccess() {}
func edited(_ bytes: [UInt8]) -> [UInt8] { bytes }
var path: String { fatalError() }
var session: VaultSession<AnyVaultStorage> { fatalError() }
var keyFileBytes: [UInt8] { fatalError() }
/// The same vault as another device saved it, and the version both started from (merges).
var remote: Database { fatalError() }
var base: Database { fatalError() }
var report: MergeReport { fatalError() }
/// The text of a scanned QR code, a one-time password's secret, a custom icon's PNG.
var scannedText: String { fatalError() }
var secretBytes: [UInt8] { fatalError() }
var pngBytes: [UInt8] { fatalError() }
func currentUnixTime() -> Int64 { 0 }
