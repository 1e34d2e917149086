import KDBX
import KDBXFileIO

/// `kdbx convert FILE OUT [settings] [--accept-loss]`: writes FILE's content with other format settings.
enum ConvertCommand {
  static let command = Command(
    name: "convert", arguments: "FILE OUT",
    summary: "Write FILE with other settings (--format, --cipher, --kdf, ...; --accept-loss).",
    section: .whole,
    details: """
      Writes the content of FILE to the new file OUT with the given settings (the others are kept), and the
      same credentials. A downgrade that would lose content lists what would be lost and stops, unless
      --accept-loss is given. --decryption-time MS calibrates the iterations or rounds as 'kdbx create' does.
      """,
    options: CommandTable.settings + [OptionSpec(["--accept-loss"], "Write even when a downgrade loses content.")]
      + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let acceptLoss = arguments.flag("--accept-loss")
    let vault = try VaultAccess.open(&arguments)
    try KeePass1Access.refuseChange(vault.opened, path: vault.path)
    var settings = try CreateCommand.saveSettings(&arguments, base: SaveSettings(keeping: vault.opened))
    let decryptionTime = try CreateCommand.decryptionTime(&arguments)
    try arguments.finish(maxPositionals: 2)
    let path = try arguments.positional(1, "OUT")
    if FileIO.fileExists(atPath: path) { throw .failure("\(path) already exists") }
    try checkLoss(vault.database, settings: &settings, acceptLoss: acceptLoss)
    if let decryptionTime { settings = try CreateCommand.calibrated(settings, target: decryptionTime) }
    try CreateCommand.write(vault.database, key: vault.key, settings: settings, to: path)
    Terminal.out("Converted \(vault.path) to \(path) (\(CreateCommand.describe(settings))).\n")
  }

  /// Stops, listing what would be lost, when `settings` cannot hold all of `database`, unless `acceptLoss`; then
  /// the loss is recorded in `settings` and named on standard error.
  static func checkLoss(_ database: Database, settings: inout SaveSettings, acceptLoss: Bool) throws(CLIError) {
    let report = DowngradeReport(database: database, settings: settings, target: settings.version)
    guard !report.isEmpty else { return }
    let lost = report.lostFeatures.map { "\($0)" }.joined(separator: ", ")
    guard acceptLoss else {
      throw .failure(
        "KDBX \(Names.version(settings.version)) would lose: \(lost) (use --accept-loss to convert anyway)")
    }
    Terminal.error("Dropping: \(lost)\n")
    settings.acceptedDowngrade = report
  }
}
