import KDBX
import KDBXFileIO

/// `kdbx open FILE`: unlocks the vault once, then runs commands typed at a prompt (or piped, one a line after the
/// password) against the vault in memory, with the one-shot commands' own code and options; `save` writes it.
/// Locks (drops the key and the database) on `exit`, at the end of input, or after `--timeout` idle seconds.
enum OpenCommand {
  static let command = Command(
    name: "open", arguments: "FILE",
    summary:
      "Unlock once, then run ls, show, search, totp, clip, add, edit, rm, mv, mkdir, rmdir and save at a prompt (or piped after the password); locks on exit or after --timeout S idle.",
    section: .reading,
    details: """
      Unlocks FILE once and reads commands, one a line, with the options of the one-shot commands and without
      FILE: ls, show, search, totp, clip, add, edit, rm, mv, mkdir, rmdir; 'save' writes the changes (atomically,
      refusing if another program saved the vault meanwhile), 'help' lists the commands, 'exit' (or 'quit', or
      the end of input) locks and ends. Words are split as a shell does ('single' and "double" quotes, \\).
      Changes stay in memory until 'save'. On a terminal, 'exit' with unsaved changes warns once ('exit' again
      discards them); piped, unsaved changes are discarded with a message and exit status 1 (so does any
      command that failed). --timeout locks and ends after SECONDS without a command (default 600; 0: never).
      Piped: the first line is the password, then the commands; 'add -p' reads the entry's password from the
      line after the command.
      """,
    options: [
      OptionSpec(
        ["--timeout"], value: "SECONDS", "Lock and end after SECONDS without a command (default 600; 0: never).")
    ] + CommandTable.readingVault,
    run: run)

  /// The commands a session takes; each runs with the session's vault as FILE.
  static let sessionCommands = [
    "ls", "show", "search", "totp", "clip", "add", "edit", "rm", "mv", "mkdir", "rmdir",
  ]

  static func run(_ arguments: inout Arguments) throws(CLIError) {
    let timeout = try arguments.integer("--timeout", in: 0...86_400) ?? 600
    let session = InteractiveSession(vault: try VaultAccess.open(&arguments, maxPositionals: 1))
    let path = session.path
    InteractiveSession.current = session
    defer {
      session.lock()
      InteractiveSession.current = nil
    }
    let interactive = Terminal.standardInputIsTerminal
    let commands = CommandTable.all().filter { sessionCommands.contains($0.name) }
    var failures = 0
    var warnedUnsaved = false
    if interactive { Terminal.error("Unlocked \(path). Type 'help' for the commands, 'exit' to lock.\n") }
    while true {
      if interactive { Terminal.error((session.unsaved ? "* " : "") + "kdbx> ") }
      guard let line = readCommandLine(timeout: timeout) else {
        if timeout > 0 && session.timedOut {
          Terminal.error("\nLocked after \(timeout) s without a command.\n")
        }
        break
      }
      let words: [String]
      do throws(CLIError) {
        words = try split(line)
      } catch {
        Terminal.error("kdbx open: \(TerminalText.line(error.message))\n")
        failures += 1
        continue
      }
      guard let name = words.first else { continue }
      let rest = Array(words.dropFirst())
      switch name {
      case "exit", "quit":
        if session.unsaved && interactive && !warnedUnsaved {
          Terminal.error("There are unsaved changes: 'save' writes them; 'exit' again discards them.\n")
          warnedUnsaved = true
          continue
        }
      case "save":
        do throws(CLIError) {
          guard rest.isEmpty else { throw .usage("save takes no arguments") }
          try session.save()
          Terminal.out("Saved \(path).\n")
        } catch {
          Terminal.error("kdbx save: \(TerminalText.line(error.message))\n")
          failures += 1
        }
        continue
      case "help", "?":
        Terminal.out(
          "Commands: \(sessionCommands.joined(separator: ", ")), save, exit. "
            + "'COMMAND --help' shows a command's options (without FILE).\n")
        continue
      default:
        guard let command = commands.first(where: { $0.name == name }) else {
          // The name as typed, on one line and cut to 40 characters: a line of input is not echoed whole.
          let shown = TerminalText.line(String(name.prefix(40))) + (name.count > 40 ? "..." : "")
          Terminal.error("kdbx open: unknown command '\(shown)' (type 'help')\n")
          failures += 1
          continue
        }
        if rest.contains("--help") || rest.contains("-h") {
          Terminal.out(command.help + "\n")
          continue
        }
        do throws(CLIError) {
          try command.run([path] + rest)
        } catch {
          Terminal.error("kdbx \(name): \(TerminalText.line(error.message))\n")
          failures += 1
        }
        continue
      }
      break
    }
    if session.unsaved {
      // On a terminal the user was warned and typed 'exit' again; piped, the exit status says so.
      guard interactive else {
        throw .failure("unsaved changes to \(path) were discarded (use 'save' before 'exit')")
      }
      Terminal.error("Unsaved changes discarded.\n")
    }
    if failures > 0 && !interactive {
      throw .failure("\(failures) command\(failures == 1 ? "" : "s") failed")
    }
  }

  /// The next line of standard input, or `nil` at its end or after `timeout` seconds without one (0: no limit).
  static func readCommandLine(timeout: Int) -> String? {
    if timeout > 0 && !StandardInput.shared.waitForInput(seconds: timeout) {
      InteractiveSession.current?.timedOut = true
      return nil
    }
    return Terminal.readLine()
  }

  /// Splits a command line into words as a shell does: spaces separate, 'single quotes' keep everything, "double
  /// quotes" keep everything but `\"` and `\\`, and a backslash outside quotes keeps the next character.
  static func split(_ line: String) throws(CLIError) -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character? = nil
    var escaped = false
    for character in line {
      if escaped {
        word.append(character)
        escaped = false
        continue
      }
      switch (quote, character) {
      case (nil, "\\"), ("\"", "\\"):
        escaped = true
        inWord = true
      case (nil, "'"), (nil, "\""):
        quote = character
        inWord = true
      case ("'", "'"), ("\"", "\""):
        quote = nil
      case (nil, " "), (nil, "\t"):
        if inWord { words.append(word) }
        word = ""
        inWord = false
      default:
        word.append(character)
        inWord = true
      }
    }
    if quote != nil { throw .usage("a quote is not closed") }
    if escaped { throw .usage("a backslash ends the line") }
    if inWord { words.append(word) }
    return words
  }
}

/// The unlocked vault of a `kdbx open` session. While one is current, ``VaultAccess/open(_:forChange:)`` hands out
/// its vault instead of reading FILE, and ``VaultAccess/save(key:settings:)`` keeps the changed database here
/// instead of writing it, until the session's `save`. The CLI is single-threaded: this is used on the main thread
/// only.
final class InteractiveSession {
  // SAFETY: nonisolated(unsafe) is sound because `kdbx open` reads commands and runs them on the main thread, one
  // after another; no other thread reads or writes `current` (the idle timeout is a poll on that same thread).
  nonisolated(unsafe) static var current: InteractiveSession?

  private(set) var vault: VaultAccess?
  let path: String
  private(set) var unsaved = false
  var timedOut = false
  /// Set while the session's own `save` runs, so that the write reaches the file.
  private(set) var saving = false

  init(vault: VaultAccess) {
    self.vault = vault
    path = vault.path
  }

  /// The session's vault for a command, whose options for opening a vault are accepted and not needed.
  func access(_ arguments: inout Arguments) throws(CLIError) -> VaultAccess {
    _ = arguments.value("--key-file", "-k")
    _ = arguments.flag("--no-password")
    _ = arguments.flag(VaultAccess.allowLargeKeyFileFlag)
    if arguments.declares("--lock-timeout") { _ = arguments.value("--lock-timeout") }
    _ = arguments.value("--max-kdf-seconds")
    guard let vault else { throw .failure("the vault is locked") }
    return vault
  }

  /// Keeps a command's changed database; `true` when it was kept (the session is not saving).
  func keep(_ database: Database) -> Bool {
    guard !saving, vault != nil else { return false }
    vault?.database = database
    unsaved = true
    return true
  }

  /// Writes the vault under its lock (``VaultAccess/save(key:settings:)``: verified, atomic, refused if another
  /// program saved it since it was read), then takes the written file's version for the next save.
  func save() throws(CLIError) {
    guard var vault else { throw .failure("the vault is locked") }
    let lock = try VaultAccess.acquireLock(vault.path, timeout: VaultAccess.defaultLockTimeoutSeconds)
    defer { lock?.release() }
    vault.lock = lock
    saving = true
    defer { saving = false }
    try vault.save()
    vault.version = try VaultAccess.readFileAndVersion(vault.path).version
    vault.lock = nil
    self.vault = vault
    unsaved = false
  }

  /// Drops the key and the database.
  func lock() {
    vault = nil
  }
}
