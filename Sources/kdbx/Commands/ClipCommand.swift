import KDBX
import KDBXCrypto

/// `kdbx clip FILE ENTRY [TIMEOUT] [--attribute NAME] [--totp]`: copies a field to the clipboard and clears it
/// after TIMEOUT seconds if it still holds that value (keepassxc-cli's `clip`).
enum ClipCommand {
  static let command = Command(
    name: "clip", arguments: "FILE ENTRY [TIMEOUT]",
    summary: "Copy the password (-a NAME, --totp) to the clipboard; cleared after TIMEOUT s (10).",
    section: .reading,
    details: """
      Copies ENTRY's password (or the field NAME, or with --totp its current one-time password) to the
      clipboard through wl-copy (Wayland), xclip or xsel (X11) or pbcopy (macOS), whichever is installed,
      then waits TIMEOUT seconds (default 10; 0 does not wait) and clears the clipboard if it still holds
      that value (something copied meanwhile is left alone). Ctrl-C while waiting stops without clearing.
      """,
    options: [
      OptionSpec(["-a", "--attribute"], value: "NAME", "Copy the field NAME instead of the password."),
      OptionSpec(["-t", "--totp"], "Copy the current one-time password."),
    ] + CommandTable.readingVault,
    run: run)

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let attribute = arguments.value("--attribute", "-a")
    let totp = arguments.flag("--totp", "-t")
    if attribute != nil && totp { throw .usage("--attribute and --totp exclude each other") }
    var timeout = 10
    if arguments.positionals.count > 2 {
      guard let seconds = Int(arguments.positionals[2]), (0...86_400).contains(seconds) else {
        throw .usage("TIMEOUT must be a whole number of seconds from 0 to 86400, not '\(arguments.positionals[2])'")
      }
      timeout = seconds
    }
    // Before the password is asked for: without a clipboard tool nothing can be done.
    guard let clipboard = Clipboard.find() else {
      throw .failure(
        "no clipboard tool found: install wl-clipboard (Wayland), xclip or xsel (X11, with DISPLAY set); "
          + "on macOS pbcopy is built in")
    }
    let vault = try VaultAccess.open(&arguments, maxPositionals: 3)
    let reference = try arguments.positional(1, "ENTRY")
    let entry = try vault.entry(reference)
    let value: String
    let what: String
    if totp {
      value = try ShowCommand.currentCode(entry).code
      what = "the one-time password"
    } else {
      let name = attribute ?? "Password"
      guard let field = ShowCommand.field(entry, name) else { throw .failure("the entry has no attribute '\(name)'") }
      value = field.reveal()
      what = attribute.map { "'\($0)'" } ?? "the password"
    }
    try clipboard.set(value)
    let title = TerminalText.line(reference)
    guard timeout > 0 else {
      Terminal.out("Copied \(what) of \(title) to the clipboard (\(clipboard.name)).\n")
      return
    }
    Terminal.out("Copied \(what) of \(title) to the clipboard (\(clipboard.name)); clearing it in \(timeout) s.\n")
    Clipboard.wait(seconds: timeout)
    guard let held = clipboard.get() else {
      throw .failure("cannot read the clipboard back with \(clipboard.name); it was not cleared")
    }
    var ours = Array(value.utf8)
    defer { SecureBytes.wipe(&ours) }
    // Tools may add a line break when reading.
    let matches =
      ConstantTime.equals(held, ours) || (held.last == 0x0A && ConstantTime.equals(Array(held.dropLast()), ours))
    guard matches else {
      Terminal.out("The clipboard holds something else now; left as it is.\n")
      return
    }
    guard clipboard.empty() else { throw .failure("\(clipboard.name) could not clear the clipboard") }
    Terminal.out("Clipboard cleared.\n")
  }
}
