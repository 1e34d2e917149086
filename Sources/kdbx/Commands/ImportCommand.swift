import KDBX
import KDBXFileIO
import KDBXXML

/// `kdbx import XML OUT [settings]`: writes a new database from a KeePass 2 XML export.
enum ImportCommand {
  static let help = """
    USAGE: kdbx import XML OUT [--cipher ...] [--kdf ...] [--format ...]
                       [--decryption-time MS | --iterations N | --rounds N] [--memory MiB] [--parallelism N]
                       [--key-file PATH] [--no-password]
      Creates the database OUT (it must not exist) from the KeePass 2 XML file XML (as written by
      'kdbx export', KeePass or keepassxc-cli export), with the settings and credentials of 'kdbx create'.
    """

  static func run(_ raw: [String]) throws(CLIError) {
    var valueOptions = VaultAccess.valueOptions
    valueOptions.formUnion(CreateCommand.settingsOptions)
    var arguments = try Arguments(raw, valueOptions: valueOptions)
    let xmlPath = try arguments.positional(0, "XML")
    let path = try arguments.positional(1, "OUT")
    let keyFilePath = arguments.value("--key-file", "-k")
    let noPassword = arguments.flag("--no-password")
    var settings = try CreateCommand.saveSettings(&arguments)
    let decryptionTime = try CreateCommand.decryptionTime(&arguments)
    try arguments.finish(maxPositionals: 2)
    if FileIO.fileExists(atPath: path) { throw .failure("\(path) already exists") }
    let bytes = try VaultAccess.readFile(xmlPath)
    var database: Database
    do throws(KDBXError) {
      // Straight from the pull reader (no tree); plain-text values marked ProtectInMemory="True" (KeePass and
      // keepassxc-cli exports) are read as protected values.
      var stream = PlaintextInnerStream()
      var random = SystemRandomNumberGenerator()
      database = try DatabaseXMLReader.read(xml: bytes, stream: &stream, random: &random, gzip: NoGzipDecompressor())
    } catch {
      throw .failure("\(xmlPath): \(error.description)")
    }
    database.meta.headerHash = nil
    let key = try CreateCommand.newKey(path: path, keyFilePath: keyFilePath, noPassword: noPassword)
    if let decryptionTime { settings = try CreateCommand.calibrated(settings, target: decryptionTime) }
    try CreateCommand.write(database, key: key, settings: settings, to: path)
    Terminal.out("Imported \(xmlPath) into \(path) (\(CreateCommand.describe(settings))).\n")
  }
}
