import KDBX
import KDBXPasswords

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system clock, for modification times.
struct SystemClock: WallClock {
  func now() -> Timestamp { Timestamp(unixSeconds: Int64(time(nil))) }
}

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
}

/// Options shared by `add` and `edit`: the standard fields and how to set the password.
struct EntryFieldOptions {

  var title: String?
  var username: String?
  var url: String?
  var notes: String?
  var tags: String?
  var passwordPrompt = false
  var generate = false
  var generator = PasswordGenerator.Options()

  init(_ arguments: inout Arguments) throws(CLIError) {
    title = arguments.value("--title")
    username = arguments.value("--username", "-u")
    url = arguments.value("--url")
    notes = arguments.value("--notes")
    tags = arguments.value("--tags")
    try StorableText.check(title, as: "--title")
    try StorableText.check(username, as: "--username")
    try StorableText.check(url, as: "--url")
    try StorableText.check(notes, as: "--notes")
    try StorableText.check(tags, as: "--tags")
    passwordPrompt = arguments.flag("-p", "--password-prompt")
    generate = arguments.flag("-g", "--generate")
    if let length = try arguments.integer("--length", in: 1...PasswordGenerator.maximumLength) {
      generator.length = length
    }
    if let length = try arguments.integer("-L", in: 1...PasswordGenerator.maximumLength) { generator.length = length }
    var classes: [PasswordGenerator.CharacterClass] = []
    if arguments.flag("--lower", "-l") { classes.append(.lowercase) }
    if arguments.flag("--upper", "-U") { classes.append(.uppercase) }
    if arguments.flag("--digits", "--numeric", "-n") { classes.append(.digits) }
    if arguments.flag("--symbols", "--special", "-s") { classes.append(.symbols) }
    if !classes.isEmpty { generator.classes = classes }
    generator.excludedCharacters = arguments.values("--exclude", "-x").joined()
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
    if let title { entry[field: Entry.titleField] = .plain(title) }
    if let username { entry[field: Entry.userNameField] = .plain(username) }
    if let url { entry[field: Entry.urlField] = .plain(url) }
    if let notes { entry[field: Entry.notesField] = .plain(notes) }
    if let tags { entry.tags = splitTags(tags) }
    if let password { entry[field: Entry.passwordField] = .protected(ProtectedValue(password, using: &random)) }
  }
}
