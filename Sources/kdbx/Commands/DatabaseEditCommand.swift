import KDBX
import KDBXCrypto
import KDBXFileIO

/// `kdbx db-edit FILE`: changes a vault's credentials (password, key file) and/or its format settings in place,
/// under the vault's lock and through the same compare-and-replace save as every other change (keepassxc-cli's
/// `db-edit`).
enum DatabaseEditCommand {
  static let command = Command(
    name: "db-edit", arguments: "FILE",
    summary: "Change the password or key file (--set-password, --set-key-file PATH, --unset-password, "
      + "--unset-key-file) and/or the format settings, in place.",
    section: .whole,
    details: """
      Changes FILE in place (locked, saved atomically; nothing is written when a step fails).
      The format options are those of 'kdbx convert' (what is not given is kept). A vault is never left without
      a password or a key file. The current credentials are given as for any command (--key-file,
      --no-password).
      """,
    options: [
      OptionSpec(
        ["-p", "--set-password"],
        "A new password: asked twice on a terminal; otherwise the two lines after the current password on standard "
          + "input (both must match)."),
      OptionSpec(["--unset-password"], "Open with the key file alone from now on."),
      OptionSpec(
        ["--set-key-file"], value: "PATH", path: true,
        "Use the key file PATH from now on (replaces the current one; 'kdbx create-key-file' makes one)."),
      OptionSpec(["--unset-key-file"], "Open with the password alone from now on."),
    ] + CommandTable.settings + [OptionSpec(["--accept-loss"], "Write even when a downgrade loses content.")]
      + CommandTable.changingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let setPassword = arguments.flag("--set-password", "-p")
    let unsetPassword = arguments.flag("--unset-password")
    let newKeyFilePath = arguments.value("--set-key-file")
    let unsetKeyFile = arguments.flag("--unset-key-file")
    let acceptLoss = arguments.flag("--accept-loss")
    let changesSettings = arguments.mentions(CreateCommand.settingsOptions)
    if setPassword && unsetPassword { throw .usage("--set-password and --unset-password exclude each other") }
    if newKeyFilePath != nil && unsetKeyFile { throw .usage("--set-key-file and --unset-key-file exclude each other") }
    if !setPassword && !unsetPassword && newKeyFilePath == nil && !unsetKeyFile && !changesSettings {
      throw .usage(
        "nothing to change: give --set-password, --unset-password, --set-key-file, --unset-key-file or format options"
      )
    }
    // The new key file is read before anything is asked, so that a wrong path costs no password prompt.
    let newKeyFile = try VaultAccess.readKeyFile(
      newKeyFilePath, allowsLarge: arguments.flag(VaultAccess.allowLargeKeyFileFlag))
    let vault = try VaultAccess.open(&arguments, forChange: true)
    try KeePass1Access.refuseChange(vault.opened, path: vault.path)
    let base = SaveSettings(keeping: vault.opened)
    var settings = base
    var decryptionTime: Duration? = nil
    if changesSettings {
      let chosen = try CreateCommand.saveSettings(&arguments, base: base)
      decryptionTime = try CreateCommand.decryptionTime(&arguments)
      settings.version = chosen.version
      settings.cipher = chosen.cipher
      settings.kdf = chosen.kdf
    } else {
      arguments.notGiven(CommandTable.settings)
    }
    try arguments.finish(maxPositionals: 1)

    let old = vault.credentials ?? VaultAccess.Credentials()
    if unsetPassword && old.password == nil { throw .failure("\(vault.path) has no password to remove") }
    if unsetKeyFile && old.keyFile == nil {
      throw .failure("\(vault.path) was opened without a key file; there is none to remove")
    }
    var password = unsetPassword ? nil : old.password
    if setPassword { password = try readNewPassword(for: vault.path) }
    let keyFile = unsetKeyFile ? nil : (newKeyFile ?? old.keyFile)
    if password == nil && keyFile == nil {
      throw .failure(
        "\(vault.path) would have neither a password nor a key file, and nobody could open it; nothing was changed")
    }
    if changesSettings {
      try ConvertCommand.checkLoss(vault.database, settings: &settings, acceptLoss: acceptLoss)
      if let decryptionTime { settings = try CreateCommand.calibrated(settings, target: decryptionTime) }
    }
    try vault.save(key: CompositeKey(password: password, keyFile: keyFile), settings: settings)

    var changes: [String] = []
    if setPassword { changes.append("new password") }
    if unsetPassword { changes.append("password removed") }
    if let newKeyFilePath { changes.append("key file \(newKeyFilePath)") }
    if unsetKeyFile { changes.append("key file removed") }
    if changesSettings { changes.append(CreateCommand.describe(settings)) }
    Terminal.out("Changed \(vault.path): \(changes.joined(separator: "; ")).\n")
  }

  /// The new password: typed twice with echo off on a terminal, otherwise the next two lines of standard input;
  /// both must match, and it must not be empty (`--unset-password` removes the password).
  static func readNewPassword(for path: String) throws(CLIError) -> String {
    let missing = "no new password given (pipe it twice on standard input, after the current password)"
    let first = try VaultAccess.readPassword(prompt: "Enter the new password for \(path): ", missing: missing)
    let second = try VaultAccess.readPassword(prompt: "Repeat the new password: ", missing: missing)
    guard ConstantTime.equals(Array(first.utf8), Array(second.utf8)) else {
      throw .failure("the two new passwords differ; nothing was changed")
    }
    guard !first.isEmpty else {
      throw .failure("the new password is empty; use --unset-password to open with the key file alone")
    }
    return first
  }
}
