import KDBX
import KDBXImport

/// Runs `VaultImport.read` on `bytes` when they are detected as `format` (so that each import target stays on its
/// parser), then checks the imported database as `kdbx import` does before it asks for a password
/// (`KDBXFile.checkSavable`). Property: an import either throws an `ImportError` or gives a database whose save
/// check passes or refuses it only for a limit (the import's input is bounded, the vault's limits are not the
/// importer's to enforce twice); anything else means a saved vault would not reopen.
func fuzzImport(_ bytes: [UInt8], as format: ImportFormat, options: ImportOptions = ImportOptions()) {
  guard ImportFormat.detect(bytes) == format else { return }
  var random = SplitMix64(seed: UInt64(bytes.count))
  let imported: ImportedDatabase
  do {
    imported = try VaultImport.read(bytes, options: options, clock: importClock, random: &random)
  } catch {
    guard !error.description.isEmpty else { fatalError("an import error without a description") }
    return
  }
  guard imported.format == format else { fatalError("imported as \(imported.format.name), detected \(format.name)") }
  do {
    try KDBXFile.checkSavable(imported.database, settings: importSaveSettings)
  } catch {
    if case .limitExceeded = error { return }
    fatalError("an imported database does not pass the save check: \(error)")
  }
}

let importClock = FixedClock(Timestamp(secondsSince0001: 63_900_000_000))
let importSaveSettings = SaveSettings(
  version: .v4_1, kdf: .aesKDF(AESKDFParameters(rounds: 1, seed: [UInt8](repeating: 7, count: 32))))
