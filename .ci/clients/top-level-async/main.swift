// An executable-style client in top-level code, type-checked by .ci/api-check.sh against the public API alone with
// warnings as errors (issue #35 item 8, no sync/async trap).
//
// In top-level code Swift used to rank a blocking overload of the same name above the `async` one, so
// `try await KDBXFile.open(...)` silently blocked; the compiler then warns "no 'async' operations occur within
// 'await' expression", which -warnings-as-errors turns into a failure here. The blocking forms have their own names
// (`openBlocking`, `saveBlocking`), so every `try await` below reaches the `async` form, and the blocking forms stay
// reachable by name from synchronous and `async` code alike.
import KDBX
import KDBXFoundation

let key = CompositeKey(password: "demo")
let settings = SaveSettings(
  version: .v4_0, kdf: .aesKDF(AESKDFParameters(rounds: 1_000, seed: [UInt8](repeating: 0, count: 32))))
var random = SystemRandomNumberGenerator()
let clock = FoundationClock()
let created = Database.new(name: "Top level", clock: clock, random: &random)

// The async forms, from top-level code.
let bytes = try await KDBXFile.save(created, key: key, settings: settings)
let opened = try await KDBXFile.open(bytes: bytes, key: key)
let data = try await KDBXFile.saveData(opened.database, key: key, settings: SaveSettings(keeping: opened))
let reopened = try await KDBXFile.open(data: data, key: key)
let withProgress = try await KDBXFile.open(bytes: bytes, key: key) { fraction in print("unlocking", fraction) }

/// A tool's synchronous code reaches the blocking forms by name.
func tool(_ bytes: [UInt8], key: CompositeKey) throws(KDBXError) -> [UInt8] {
  let opened = try KDBXFile.openBlocking(bytes: bytes, key: key) { _ in true }
  return try KDBXFile.saveBlocking(opened.database, key: key, settings: SaveSettings(keeping: opened))
}

/// So does `async` code, where a blocking call of the same name as the `async` one was unreachable before.
func worker(_ bytes: [UInt8], key: CompositeKey) async throws(KDBXError) -> OpenedDatabase {
  let opened = try KDBXFile.openBlocking(bytes: bytes, key: key)
  let saved = try KDBXFile.saveBlocking(opened.database, key: key, settings: SaveSettings(keeping: opened))
  return try await KDBXFile.open(bytes: saved, key: key)
}

let fromTool = try tool(bytes, key: key)
let fromWorker = try await worker(fromTool, key: key)
print(opened.database == reopened.database, withProgress.database == fromWorker.database)
