import KDBX
import KDBXBase

/// `kdbx info FILE [--json]`: the format version, cipher, key derivation, compression and counts.
enum InfoCommand {
  static let command = Command(
    name: "info", arguments: "FILE", summary: "Format version, cipher, key derivation, compression and counts.",
    section: .reading,
    details: """
      Prints the database's format version, cipher, key derivation function and parameters, compression,
      name, and the numbers of groups, entries, history entries, attachments and deleted objects.
      A KeePass 1.x file (.kdb) shows "Format: KeePass 1.x (import only)" (JSON: "version": "1.x").
      """,
    options: [CommandTable.json] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let json = arguments.flag("--json")
    let vault = try VaultAccess.open(&arguments, maxPositionals: 1)
    let header = vault.opened.header
    let database = vault.database
    var groups = 0
    var entries = 0
    var history = 0
    var attachments = 0
    func count(_ group: Group) {
      for entry in group.entries {
        entries += 1
        history += entry.history?.count ?? 0
        attachments += entry.attachments.count
      }
    }
    if let root = database.root {
      count(root)
      var walk = GroupWalk(below: root)
      while let step = walk.next() {
        guard case .enter(let group, _) = step else { continue }
        groups += 1
        count(group)
      }
    }
    let deleted = database.deletedObjects?.count ?? 0
    let kdf = Names.kdfParameters(header.kdf)
    if json {
      let value = JSONValue.object([
        ("file", .string(vault.path)),
        ("version", .string(Names.version(of: vault.opened))),
        ("cipher", .string(Names.cipher(header.cipher))),
        ("kdf", .object([("name", .string(Names.kdf(header.kdf)))] + kdf.map { ($0.0, JSONValue.number($0.1)) })),
        ("compression", .string(Names.compression(header.compression))),
        ("name", .string(database.meta.databaseName ?? "")),
        ("description", .string(database.meta.databaseDescription ?? "")),
        ("generator", .string(database.meta.generator ?? "")),
        (
          "counts",
          .object([
            ("groups", .number(groups)), ("entries", .number(entries)), ("historyEntries", .number(history)),
            ("attachments", .number(attachments)), ("deletedObjects", .number(deleted)),
          ])
        ),
      ])
      Terminal.out(value.rendered() + "\n")
      return
    }
    var lines: [String] = []
    // Vault text is escaped for the terminal (TerminalText); the description may span lines.
    lines.append("File:            \(TerminalText.line(vault.path))")
    lines.append("Name:            \(TerminalText.line(database.meta.databaseName ?? ""))")
    if let text = database.meta.databaseDescription, !text.isEmpty {
      lines.append("Description:     \(TerminalText.multiline(text))")
    }
    lines.append("Generator:       \(TerminalText.line(database.meta.generator ?? ""))")
    lines.append("Format:          \(Names.format(of: vault.opened))")
    lines.append("Cipher:          \(Names.cipher(header.cipher))")
    let parameters = kdf.map { "\($0.0) \($0.1)" }.joined(separator: ", ")
    lines.append("KDF:             \(Names.kdf(header.kdf)) (\(parameters))")
    lines.append("Compression:     \(Names.compression(header.compression))")
    lines.append("Groups:          \(groups)")
    lines.append("Entries:         \(entries)")
    lines.append("History entries: \(history)")
    lines.append("Attachments:     \(attachments)")
    lines.append("Deleted objects: \(deleted)")
    Terminal.out(lines.joined(separator: "\n") + "\n")
  }
}

/// Display names of format settings.
enum Names {
  /// The version as the file states it, `major.minor` (KDBX 2.x files may say 2.4, which the library reads as 2).
  static func version(of header: OuterHeader) -> String {
    "\(header.version.major).\(header.minorVersion)"
  }

  /// The version for reports: `major.minor` for KDBX, `1.x` for a KeePass 1.x file.
  static func version(of opened: OpenedDatabase) -> String {
    opened.isKeePass1 ? "1.x" : version(of: opened.header)
  }

  /// The format for reports: `KDBX 4.1`, or `KeePass 1.x (import only)`.
  static func format(of opened: OpenedDatabase) -> String {
    opened.isKeePass1 ? "KeePass 1.x (import only)" : "KDBX \(version(of: opened.header))"
  }

  static func version(_ version: KDBXVersion) -> String {
    switch version {
    case .v2: return "2.0"
    case .v3_0: return "3.0"
    case .v3_1: return "3.1"
    case .v4_0: return "4.0"
    case .v4_1: return "4.1"
    }
  }

  static func cipher(_ cipher: CipherAlgorithm) -> String {
    switch cipher {
    case .aes256: return "AES-256"
    case .chaCha20: return "ChaCha20"
    case .twofish: return "Twofish"
    }
  }

  static func compression(_ compression: CompressionAlgorithm) -> String {
    switch compression {
    case .none: return "none"
    case .gzip: return "gzip"
    }
  }

  static func kdf(_ kdf: KDFParameters) -> String {
    switch kdf {
    case .aesKDF: return "AES-KDF"
    case .argon2(let parameters): return parameters.variant == .d ? "Argon2d" : "Argon2id"
    }
  }

  static func kdfParameters(_ kdf: KDFParameters) -> [(String, Int)] {
    switch kdf {
    case .aesKDF(let parameters): return [("rounds", Int(clamping: parameters.rounds))]
    case .argon2(let parameters):
      return [
        ("iterations", Int(clamping: parameters.iterations)),
        ("memoryKiB", Int(clamping: parameters.memoryBytes / 1_024)),
        ("parallelism", Int(parameters.parallelism)),
      ]
    }
  }
}
