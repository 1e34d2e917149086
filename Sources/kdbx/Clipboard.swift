import KDBXFileIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system clipboard through the usual command-line tools: `wl-copy`/`wl-paste` (Wayland), `xclip` or `xsel`
/// (X11), `pbcopy`/`pbpaste` (macOS). Values go to the tool on its standard input, never in its arguments.
struct Clipboard {
  var name: String
  var copy: [String]
  var paste: [String]
  /// The arguments that empty the clipboard (`nil`: copy an empty value).
  var clear: [String]?

  /// Waits `seconds` before the clipboard is checked and cleared (Ctrl-C ends the wait, and the process).
  static func wait(seconds: Int) {
    sleep(UInt32(clamping: seconds))
  }

  /// The first tool that fits the session: Wayland tools under `WAYLAND_DISPLAY`, X11 tools under `DISPLAY`,
  /// macOS tools anywhere; `nil` when none is installed.
  static func find() -> Clipboard? {
    let wayland = getenv("WAYLAND_DISPLAY") != nil
    let x11 = getenv("DISPLAY") != nil
    var candidates: [Clipboard] = []
    if wayland {
      candidates.append(
        Clipboard(name: "wl-copy", copy: ["wl-copy"], paste: ["wl-paste", "-n"], clear: ["wl-copy", "--clear"]))
    }
    if x11 {
      candidates.append(
        Clipboard(
          name: "xclip", copy: ["xclip", "-selection", "clipboard", "-in"],
          paste: ["xclip", "-selection", "clipboard", "-out"], clear: nil))
      candidates.append(
        Clipboard(
          name: "xsel", copy: ["xsel", "--clipboard", "--input"], paste: ["xsel", "--clipboard", "--output"],
          clear: ["xsel", "--clipboard", "--delete"]))
    }
    candidates.append(Clipboard(name: "pbcopy", copy: ["pbcopy"], paste: ["pbpaste"], clear: nil))
    return candidates.first { executable($0.copy[0]) != nil && executable($0.paste[0]) != nil }
  }

  /// The path of `command` found on `PATH`, or `nil`.
  static func executable(_ command: String) -> String? {
    guard let path = getenv("PATH").map({ String(cString: $0) }) else { return nil }
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = directory + "/" + command
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }

  /// Puts `text` on the clipboard.
  func set(_ text: String) throws(CLIError) {
    let status = Clipboard.run(copy, input: Array(text.utf8), capture: false).status
    guard status == 0 else { throw .failure("\(name) failed (exit status \(status)); the clipboard was not set") }
  }

  /// What the clipboard holds, or `nil` when it cannot be read.
  func get() -> [UInt8]? {
    let result = Clipboard.run(paste, input: [], capture: true)
    return result.status == 0 ? result.output : nil
  }

  /// Empties the clipboard.
  func empty() -> Bool {
    if let clear { return Clipboard.run(clear, input: [], capture: false).status == 0 }
    return Clipboard.run(copy, input: [], capture: false).status == 0
  }

  /// Runs `arguments` (found on PATH) with `input` on its standard input; its standard output is read when
  /// `capture` (at most 16 MiB) and discarded otherwise, so that a tool that stays in the background to serve the
  /// selection (xclip, xsel) does not hold our pipe open.
  static func run(_ arguments: [String], input: [UInt8], capture: Bool) -> (status: Int32, output: [UInt8]) {
    guard let path = executable(arguments[0]) else { return (127, []) }
    var inputPipe: [Int32] = [0, 0]
    var outputPipe: [Int32] = [0, 0]
    guard pipe(&inputPipe) == 0 else { return (126, []) }
    guard pipe(&outputPipe) == 0 else {
      close(inputPipe[0])
      close(inputPipe[1])
      return (126, [])
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
    if capture {
      posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    } else {
      posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    for descriptor in inputPipe + outputPipe { posix_spawn_file_actions_addclose(&actions, descriptor) }
    // SAFETY: each pointer is a `strdup` copy owned here, the array ends with nil as posix_spawn requires, and all
    // are freed after the call (posix_spawn copies what it needs into the child).
    var cArguments: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in cArguments { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, &cArguments, environ)
    close(inputPipe[0])
    close(outputPipe[1])
    guard spawned == 0 else {
      close(inputPipe[1])
      close(outputPipe[0])
      return (127, [])
    }
    signal(SIGPIPE, SIG_IGN)
    Terminal.writeBytes(input, to: inputPipe[1])
    close(inputPipe[1])
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while capture {
      // SAFETY: `read` writes at most `$0.count` bytes into the chunk's own storage, inside the closure.
      let count = chunk.withUnsafeMutableBytes { read(outputPipe[0], $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 || output.count > 16 << 20 { break }
      output.append(contentsOf: chunk[0..<count])
    }
    close(outputPipe[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exited = (status & 0x7f) == 0
    return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), output)
  }
}
