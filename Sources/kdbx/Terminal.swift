import KDBXFileIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Bionic)
  import Bionic
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard streams and the terminal: writing output, and reading a password with echo off.
enum Terminal {
  /// Writes plain-text output to standard output, control characters other than line feeds and tabs escaped
  /// (``TerminalText``): nothing from a vault reaches the terminal raw.
  static func out(_ text: String) {
    write(TerminalText.multiline(text), to: 1)
  }

  /// Writes plain-text output to standard error, escaped as ``out(_:)`` does.
  static func error(_ text: String) {
    write(TerminalText.multiline(text), to: 2)
  }

  /// Writes `text` exactly: for data formats (`export`) and the progress bar's carriage returns.
  static func write(_ text: String, to descriptor: Int32) {
    _ = writeBytes(Array(text.utf8), to: descriptor)
  }

  /// Writes all of `bytes` to `descriptor`; `false` on an error.
  @discardableResult
  static func writeBytes(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
    var offset = 0
    while offset < bytes.count {
      // SAFETY: `write` reads at most `$0.count` bytes of the slice's storage, inside the closure.
      let count = bytes[offset...].withUnsafeBytes { descriptorWrite(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return false }
      offset += count
    }
    return true
  }

  /// Creates the new file `path` (mode 0600; an existing file is refused) holding `contents`.
  static func createFile(_ path: String, contents: [UInt8]) throws(CLIError) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .failure("cannot create \(path): \(FileIO.describe(errno: errno))") }
    let written = writeBytes(contents, to: descriptor)
    let writeError = errno
    let closed = close(descriptor) == 0
    guard written && closed else {
      let reason = FileIO.describe(errno: written ? errno : writeError)
      unlink(path)
      throw .failure("cannot write \(path): \(reason)")
    }
  }

  static var standardInputIsTerminal: Bool { isatty(0) == 1 }
  static var standardErrorIsTerminal: Bool { isatty(2) == 1 }

  /// Reads one line from standard input, without its line ending; `nil` at end of input. Standard input is read
  /// in blocks (``StandardInput``), not a byte per system call: `kdbx open` fed a script of a megabyte spent about
  /// a second in `read` calls.
  static func readLine() -> String? {
    StandardInput.shared.readLine()
  }

  /// Asks for a secret: on a terminal, prompts on standard error with echo off; otherwise reads the first line
  /// of standard input, as keepassxc-cli does, so scripts can pipe a password in.
  static func readSecret(prompt: String) -> String? {
    guard standardInputIsTerminal else { return readLine() }
    error(prompt)
    var saved = termios()
    let haveTerminal = tcgetattr(0, &saved) == 0
    if haveTerminal {
      var quiet = saved
      quiet.c_lflag &= ~tcflag_t(ECHO)
      tcsetattr(0, TCSAFLUSH, &quiet)
    }
    let line = readLine()
    if haveTerminal {
      tcsetattr(0, TCSAFLUSH, &saved)
      error("\n")
    }
    return line
  }
}
