import KDBX
import KDBXFileIO

/// `kdbx create FILE [settings]`: writes a new, empty database.
enum CreateCommand {
  static let command = Command(
    name: "create", arguments: "FILE",
    summary:
      "Create an empty database (--cipher, --kdf, --format, --decryption-time MS or --iterations/--rounds, --memory, ...).",
    section: .whole,
    details: """
      Creates a new database FILE (it must not exist) with a root group named NAME (default 'Passwords').
      The password is read as for other commands. Defaults: KDBX 4.0, AES-256, Argon2id with 3 iterations,
      64 MiB and parallelism 2 (AES-KDF: 600000 rounds). KDBX 3.1 needs --kdf aes-kdf.
      --decryption-time MS measures this machine (as 'kdbx calibrate' does) and sets the Argon2 iterations
      or AES-KDF rounds so that unlocking takes about MS milliseconds (100 to 5000); it cannot be combined
      with --iterations or --rounds. --memory and --parallelism are kept as given.
      """,
    options: [OptionSpec(["--name"], value: "NAME", "The root group's name (default 'Passwords').")]
      + CommandTable.settings + CommandTable.newVaultKey,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let path = try arguments.positional(0, "FILE")
    let name = arguments.value("--name") ?? "Passwords"
    let newVault = try NewVaultOptions(&arguments)
    try arguments.finish(maxPositionals: 1)
    if FileIO.fileExists(atPath: path) { throw .failure("\(path) already exists") }

    let key = try newVault.key(for: path)
    let settings = try newVault.calibratedSettings()
    var random = SystemRandomNumberGenerator()
    let database = Database.new(name: name, clock: SystemClock(), random: &random)
    try write(database, key: key, settings: settings, to: path)
    Terminal.out("Created \(path) (\(describe(settings))).\n")
  }

  /// The options of a command that writes a new vault (`create`, `import`): its credentials
  /// (``CommandTable/newVaultKey``) and its format settings (``CommandTable/settings``).
  struct NewVaultOptions {
    var keyFilePath: String?
    var noPassword: Bool
    var allowsLargeKeyFile: Bool
    /// The settings as given, before `--decryption-time` calibrates them.
    var settings: SaveSettings
    var decryptionTime: Duration?

    init(_ arguments: inout Arguments) throws(CLIError) {
      keyFilePath = arguments.value("--key-file", "-k")
      noPassword = arguments.flag("--no-password")
      allowsLargeKeyFile = arguments.flag(VaultAccess.allowLargeKeyFileFlag)
      settings = try CreateCommand.saveSettings(&arguments)
      decryptionTime = try CreateCommand.decryptionTime(&arguments)
    }

    /// The password and key file, read as for `kdbx create` (``newKey(path:keyFilePath:noPassword:allowsLargeKeyFile:)``).
    func key(for path: String) throws(CLIError) -> CompositeKey {
      try CreateCommand.newKey(
        path: path, keyFilePath: keyFilePath, noPassword: noPassword, allowsLargeKeyFile: allowsLargeKeyFile)
    }

    /// ``settings``, calibrated for `--decryption-time` when it was given (``calibrated(_:target:)``).
    func calibratedSettings() throws(CLIError) -> SaveSettings {
      guard let decryptionTime else { return settings }
      return try CreateCommand.calibrated(settings, target: decryptionTime)
    }
  }

  /// The option names of ``saveSettings(_:)`` (``CommandTable/settings``).
  static let settingsOptions = Set(CommandTable.settings.flatMap { $0.names })

  /// `--decryption-time MS`, which excludes explicit `--iterations` and `--rounds`.
  static func decryptionTime(_ arguments: inout Arguments) throws(CLIError) -> Duration? {
    guard let milliseconds = try arguments.integer("--decryption-time", in: Calibration.targetRange) else {
      return nil
    }
    if arguments.value("--iterations") != nil || arguments.value("--rounds") != nil {
      throw .usage("--decryption-time calibrates the iterations or rounds: use it or --iterations/--rounds, not both")
    }
    return .milliseconds(milliseconds)
  }

  /// `settings` with the cost calibrated for `target`; says what was chosen on standard output.
  static func calibrated(_ settings: SaveSettings, target: Duration) throws(CLIError) -> SaveSettings {
    let (settings, result) = try Calibration.calibrated(settings, target: target)
    let unit: String
    switch settings.kdf {
    case .aesKDF: unit = "rounds"
    case .argon2: unit = result.cost == 1 ? "iteration" : "iterations"
    }
    Terminal.out(
      "Calibrated \(Names.kdf(settings.kdf)): \(result.cost) \(unit), "
        + "about \(Calibration.milliseconds(result.estimated)) ms on this machine.\n")
    return settings
  }

  /// `--format`, `--cipher`, `--kdf` and the KDF parameters; what is not given comes from `base` (for convert)
  /// or the defaults.
  static func saveSettings(_ arguments: inout Arguments, base: SaveSettings? = nil) throws(CLIError) -> SaveSettings {
    var defaults = (format: "4.0", cipher: "aes256", kdf: nil as String?, iterations: 3, memory: 64, lanes: 2)
    var defaultRounds = 600_000
    if let base {
      defaults.format = Names.version(base.version)
      switch base.cipher {
      case .aes256: defaults.cipher = "aes256"
      case .chaCha20: defaults.cipher = "chacha20"
      case .twofish: defaults.cipher = "twofish"
      }
      switch base.kdf {
      case .aesKDF(let parameters):
        defaults.kdf = "aes-kdf"
        defaultRounds = Int(clamping: parameters.rounds)
      case .argon2(let parameters):
        defaults.kdf = parameters.variant == .d ? "argon2d" : "argon2id"
        defaults.iterations = Int(clamping: parameters.iterations)
        defaults.memory = max(1, Int(clamping: parameters.memoryBytes >> 20))
        defaults.lanes = Int(parameters.parallelism)
      }
    }
    let version: KDBXVersion
    switch arguments.value("--format") ?? defaults.format {
    case "3.1": version = .v3_1
    case "4.0", "4": version = .v4_0
    case "4.1": version = .v4_1
    case let other: throw .usage("--format must be 3.1, 4.0 or 4.1, not '\(other)'")
    }
    let cipher: CipherAlgorithm
    switch arguments.value("--cipher") ?? defaults.cipher {
    case "aes256", "aes": cipher = .aes256
    case "chacha20": cipher = .chaCha20
    case "twofish": cipher = .twofish
    case let other: throw .usage("--cipher must be aes256, chacha20 or twofish, not '\(other)'")
    }
    let iterations = try arguments.integer("--iterations", in: 1...1_000_000) ?? defaults.iterations
    let memory = try arguments.integer("--memory", in: 1...4_096) ?? defaults.memory
    let parallelism = try arguments.integer("--parallelism", in: 1...64) ?? defaults.lanes
    let rounds = try arguments.integer("--rounds", in: 1...999_999_999) ?? defaultRounds
    let kdf: KDFParameters
    let salt = [UInt8](repeating: 0, count: 32)  // replaced by a fresh random seed when saving
    let kdfName =
      arguments.value("--kdf")
      ?? ((defaults.kdf ?? "argon2id").hasPrefix("argon2") && !version.isKDBX4
        ? "aes-kdf" : (defaults.kdf ?? (version.isKDBX4 ? "argon2id" : "aes-kdf")))
    switch kdfName {
    case "argon2id", "argon2d":
      guard version.isKDBX4 else { throw .usage("Argon2 needs KDBX 4.0 or 4.1 (use --kdf aes-kdf for 3.1)") }
      let variant: Argon2KDFParameters.Variant = kdfName == "argon2d" ? .d : .id
      kdf = .argon2(
        Argon2KDFParameters(
          variant: variant, iterations: UInt64(iterations), memoryBytes: UInt64(memory) * 1_048_576,
          parallelism: UInt32(parallelism), salt: salt))
    case "aes-kdf", "aeskdf", "aes":
      // The KeePass 2 UUID in every version: KeePass 2 and pykeepass refuse KeePassXC's KDBX 4 alias.
      kdf = .aesKDF(AESKDFParameters(rounds: UInt64(rounds), seed: salt))
    case let other: throw .usage("--kdf must be argon2id, argon2d or aes-kdf, not '\(other)'")
    }
    // Before any password prompt or KDF run: settings kdbx would not open by default, and memory not here.
    try KDFCosts.checkWritable(kdf)
    try KDFCosts.checkMemory(kdf)
    return SaveSettings(version: version, cipher: cipher, kdf: kdf)
  }

  static func describe(_ settings: SaveSettings) -> String {
    "KDBX \(Names.version(settings.version)), \(Names.cipher(settings.cipher)), \(Names.kdf(settings.kdf))"
  }

  /// What `create` and `import` say when standard input has no password line.
  static let missingPassword = "no password given (pipe it on standard input, or use --no-password with --key-file)"

  /// The key for a new file: the password (prompted or the next stdin line) and/or a key file.
  static func newKey(path: String, keyFilePath: String?, noPassword: Bool, allowsLargeKeyFile: Bool = false)
    throws(CLIError) -> CompositeKey
  {
    let (password, keyFile) = try VaultAccess.readCredentials(
      keyFilePath: keyFilePath, allowsLargeKeyFile: allowsLargeKeyFile, noPassword: noPassword,
      prompt: "Enter password for the new database \(path): ", missing: missingPassword)
    if password == nil && keyFile == nil { throw .usage("a new database needs a password, a key file or both") }
    return CompositeKey(password: password, keyFile: keyFile)
  }

  /// Saves `database` as the new file `path` (atomically, verified by reading it back as `VaultAccess.save` does;
  /// a file that appeared at `path` meanwhile is not replaced).
  static func write(_ database: Database, key: CompositeKey, settings: SaveSettings, to path: String) throws(CLIError) {
    let bar = ProgressBar(label: "Deriving key")
    let saved: SavedFile
    do {
      saved = try KDFTuning.write(database, key: key, settings: settings, progress: bar.isActive ? bar.update : nil)
    } catch {
      bar.finish()
      throw .failure("cannot create: \(error.description)")
    }
    bar.finish()
    // A coordinated write that expects no file: one that appeared meanwhile is not replaced.
    var storage = FileVaultStorage(path: path)
    do throws(VaultStorageError) {
      _ = try storage.write(saved.bytes, replacing: nil, holding: nil) {
        KDFTuning.problem(readingBack: $0, of: saved)
      }
    } catch {
      // The save's check of its document (which the read-back waits for) refused it: say what.
      if let refusal = saved.pendingCheck?.result() { throw .failure("cannot create: \(refusal.description)") }
      switch error {
      case .changedSinceRead: throw .failure("cannot create: \(path) already exists; nothing was saved")
      case .writeFailed(_, let reason): throw .failure("cannot create: \(reason)")
      default: throw .failure("cannot create: \(error.description)")
      }
    }
  }
}
