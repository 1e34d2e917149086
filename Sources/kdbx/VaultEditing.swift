import KDBX
import KDBXPasswords

extension VaultAccess {
  /// A note for standard error when the vault's `RecycleBinUUID` names the root group, which is never taken as the
  /// bin (deleting would then remove everything for good): the next deletion makes a new bin, as KeePass does for
  /// a missing one. `nil` otherwise. Ask before deleting.
  func recycleBinNote() -> String? {
    guard database.isRecycleBinEnabled, let bin = database.meta.recycleBinUUID, !bin.isZero,
      bin == database.root?.uuid
    else { return nil }
    return "note: the vault's recycle bin setting named the root group, which cannot be the bin; "
      + "a new '\(Database.recycleBinName)' group was made in the root (see 'kdbx verify')\n"
  }

  /// What `rm` and `rmdir` print after deleting the entry or group `reference` (`kind`: `entry` or `group`): a move
  /// to the recycle bin (then `movedNote`, and `binNote` on standard error) or a deletion for good; an error when
  /// nothing was found.
  static func deletion(
    _ outcome: DeletionOutcome, of kind: String, _ reference: String, binNote: String?, movedNote: String = ""
  ) throws(CLIError) -> Change {
    switch outcome {
    case .notFound: throw .failure("no \(kind) named '\(reference)'")
    case .movedToRecycleBin:
      return Change(message: "Moved \(kind) \(reference) to the recycle bin.\n" + movedNote, note: binNote)
    case .deletedPermanently:
      return Change(message: kind.prefix(1).uppercased() + kind.dropFirst() + " \(reference) deleted permanently.\n")
    }
  }
}

/// Options shared by `add` and `edit`: the standard fields and how to set the password.
struct EntryFieldOptions {
  /// The options that set text (``CommandTable/entryFields``), each with the field it sets (`nil`: the tags, given
  /// as `a;b`), in the order they are checked and applied.
  static let textOptions: [(names: [String], field: String?)] = [
    (["--title"], "Title"), (["--username", "-u"], "UserName"), (["--url"], "URL"), (["--notes"], "Notes"),
    (["--tags"], nil),
  ]

  /// The text options given: the field each sets and its value.
  var texts: [(field: String?, value: String)] = []
  var passwordPrompt = false
  var generate = false
  var generator = PasswordGenerator.Options()

  init(_ arguments: inout Arguments) throws(CLIError) {
    for (names, field) in Self.textOptions {
      guard let value = arguments.value(names) else { continue }
      try StorableText.check(value, as: names[0])
      texts.append((field, value))
    }
    passwordPrompt = arguments.flag("-p", "--password-prompt")
    generate = arguments.flag("-g", "--generate")
    generator = try PasswordGenerator.Options(&arguments)
    if passwordPrompt && generate { throw .usage("use either --password-prompt or --generate, not both") }
  }

  /// The new password, when one was asked for. Call after the vault is open (the prompt reads the next line).
  func newPassword() throws(CLIError) -> String? {
    if passwordPrompt {
      return try VaultAccess.readPassword(prompt: "Enter password for new entry: ", missing: "no entry password given")
    }
    guard generate else { return nil }
    var random = SystemRandomNumberGenerator()
    do {
      return try PasswordGenerator(options: generator).generate(using: &random)
    } catch {
      throw .usage(GenerateCommand.describe(error))
    }
  }

  /// Applies the options to `entry`; the password is protected.
  func apply(to entry: inout Entry, password: String?) {
    var random = SystemRandomNumberGenerator()
    for (field, value) in texts {
      if let field {
        entry[field: field] = .plain(value)
      } else {
        entry.tags = splitTags(value)
      }
    }
    if let password { entry[field: "Password"] = .protected(ProtectedValue(password, using: &random)) }
  }
}

extension PasswordGenerator.Options {
  /// The generator options of `generate`, `add` and `edit` (``CommandTable/generator``); the library's defaults for
  /// what is not given.
  init(_ arguments: inout Arguments) throws(CLIError) {
    self.init()
    if let length = try arguments.integer("--length", in: 1...PasswordGenerator.maximumLength) { self.length = length }
    if let length = try arguments.integer("-L", in: 1...PasswordGenerator.maximumLength) { self.length = length }
    var classes: [PasswordGenerator.CharacterClass] = []
    if arguments.flag("--lower", "-l") { classes.append(.lowercase) }
    if arguments.flag("--upper", "-U") { classes.append(.uppercase) }
    if arguments.flag("--digits", "--numeric", "-n") { classes.append(.digits) }
    if arguments.flag("--symbols", "--special", "-s") { classes.append(.symbols) }
    if !classes.isEmpty { self.classes = classes }
    excludedCharacters = arguments.values("--exclude", "-x").joined()
  }
}
