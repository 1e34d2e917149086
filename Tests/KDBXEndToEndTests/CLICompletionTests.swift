import Foundation
import Testing

/// `kdbx completions SHELL`, `kdbx man` and `kdbx --version`, checked against `--help`: every command and option that
/// `--help` lists is completed by bash, zsh and fish, and nothing else; the manual page names them all.
enum HelpListing {
  /// The commands of `kdbx --help` (the lines of its command sections) and its own options.
  static func topLevel() throws -> (commands: Set<String>, options: Set<String>) {
    try cachedTopLevel.get()
  }

  static let cachedTopLevel = Result { try readTopLevel() }

  static func readTopLevel() throws -> (commands: Set<String>, options: Set<String>) {
    let help = try CLI.run(["--help"]).out
    var commands = Set<String>()
    var options = Set<String>()
    var section = ""
    for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
      if let first = line.first, first.isUppercase {
        section = String(line)
        continue
      }
      if section.hasPrefix("VAULT OPTIONS") || section.hasPrefix("ENTRY") || section.hasPrefix("EXIT") { continue }
      if section.hasPrefix("OPTIONS") {
        options.formUnion(optionNames(line))
      } else if line.hasPrefix("  "), line.dropFirst(2).first?.isLowercase == true,
        let word = line.dropFirst(2).split(separator: " ").first
      {
        commands.insert(String(word))
      }
    }
    return (commands, options)
  }

  /// The options of `kdbx COMMAND --help` (the OPTIONS list), read once per command.
  static func options(of command: String) throws -> Set<String> {
    guard let listed = try cachedOptions.get()[command] else { return try readOptions(of: command) }
    return listed
  }

  static let cachedOptions = Result {
    var all: [String: Set<String>] = [:]
    for command in try topLevel().commands { all[command] = try readOptions(of: command) }
    return all
  }

  static func readOptions(of command: String) throws -> Set<String> {
    let help = try CLI.run([command, "--help"]).out
    guard let start = help.range(of: "\nOPTIONS:\n") else { return [] }
    var names = Set<String>()
    for line in help[start.upperBound...].split(separator: "\n") { names.formUnion(optionNames(line)) }
    return names
  }

  /// `-R, --recursive` at the start of an option line (two spaces in): its names.
  static func optionNames(_ line: Substring) -> [String] {
    guard line.hasPrefix("  -") else { return [] }
    let head = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
    return head.split(separator: ",").compactMap { part in
      part.split(separator: " ").first.map(String.init).flatMap { $0.hasPrefix("-") ? $0 : nil }
    }
  }
}

/// The suites below, one test at a time. The interactive check (bash in tmux, Tab after `kdbx sh`) is in
/// `.ci/release-check.sh`: a tmux server started from this process left `Process` waiting for a child that had
/// exited.
@Suite(.serialized)
struct CompletionAndManualTests {}

extension CompletionAndManualTests {
  @Suite(.enabled(if: CLI.available))
  struct CLICompletionTests {
    @Test func bashCompletesExactlyWhatHelpLists() throws {
      let (commands, globalOptions) = try HelpListing.topLevel()
      #expect(commands.count >= 30, "\(commands.sorted())")
      #expect(commands.contains("completions") && commands.contains("man"))
      let script = try CLI.run(["completions", "bash"]).out
      // The script's own function, run by bash as the shell would run it on Tab.
      var program = script + "\ncomplete_words() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _kdbx; "
      program += "printf '%s\\n' \"${COMPREPLY[@]}\"; echo '--end--'; }\n"
      program += "complete_words kdbx ''\n"
      let names = commands.sorted()
      for command in names { program += "complete_words kdbx \(command) -\n" }
      let result = try CLI.run(["bash", "--norc", "--noprofile", "-c", program], binary: "/usr/bin/env")
      #expect(result.status == 0, "\(result.err)")
      var blocks = result.out.components(separatedBy: "--end--\n").map {
        Set($0.split(separator: "\n").map(String.init))
      }
      #expect(blocks.count == names.count + 2)
      guard blocks.count == names.count + 2 else { return }
      blocks.removeLast()
      #expect(blocks[0] == commands.union(globalOptions), "top level")
      for (command, completed) in zip(names, blocks.dropFirst()) {
        let listed = try HelpListing.options(of: command)
        #expect(!listed.isEmpty)
        #expect(
          completed == listed,
          "\(command): completed but not in --help \(completed.subtracting(listed).sorted()), in --help but not completed \(listed.subtracting(completed).sorted())"
        )
      }
    }

    @Test func bashCompletesValuesOfOptions() throws {
      let script = try CLI.run(["completions", "bash"]).out
      let program =
        script + """

          COMPREPLY=(); COMP_WORDS=(kdbx export vault.kdbx --format j); COMP_CWORD=4; _kdbx; echo "${COMPREPLY[*]}"
          COMPREPLY=(); COMP_WORDS=(kdbx create new.kdbx --cipher ''); COMP_CWORD=4; _kdbx; echo "${COMPREPLY[*]}"
          COMPREPLY=(); COMP_WORDS=(kdbx completions ''); COMP_CWORD=2; _kdbx; echo "${COMPREPLY[*]}"
          COMPREPLY=(); COMP_WORDS=(kdbx generate --length ''); COMP_CWORD=3; _kdbx; echo "[${COMPREPLY[*]}]"
          """
      let result = try CLI.run(["bash", "--norc", "--noprofile", "-c", program], binary: "/usr/bin/env")
      #expect(result.out == "json\naes256 chacha20 twofish\nbash zsh fish\n[]\n", "\(result.err)")
    }

    @Test func zshScriptListsExactlyWhatHelpLists() throws {
      let (commands, globalOptions) = try HelpListing.topLevel()
      let script = try CLI.run(["completions", "zsh"]).out
      #expect(script.hasPrefix("#compdef kdbx\n"))
      // The command list ('name:summary'), the top-level options (compadd) and each command's _arguments block.
      var topLevel = Set<String>()
      var perCommand: [String: Set<String>] = [:]
      var current: String?
      var inCommandList = false
      for line in script.split(separator: "\n") {
        let text = line.trimmingCharacters(in: .whitespaces)
        if text == "commands=(" {
          inCommandList = true
        } else if inCommandList && text == ")" {
          inCommandList = false
        } else if inCommandList, text.hasPrefix("'"), let colon = text.firstIndex(of: ":") {
          topLevel.insert(String(text[text.index(after: text.startIndex)..<colon]))
        } else if text.hasPrefix("compadd -- ") {
          topLevel.insert(String(text.dropFirst("compadd -- ".count)))
        } else if text.hasSuffix(")"), !text.contains(" "), !text.hasPrefix("'") {
          current = String(text.dropLast())
        } else if let current, text.hasPrefix("'-"), let bracket = text.firstIndex(of: "[") {
          perCommand[current, default: []].insert(String(text[text.index(after: text.startIndex)..<bracket]))
        }
      }
      #expect(topLevel == commands.union(globalOptions))
      #expect(Set(perCommand.keys) == commands)
      for command in commands.sorted() {
        #expect(perCommand[command] == (try HelpListing.options(of: command)), "\(command)")
      }
    }

    @Test func unknownShellIsAnErrorThatListsTheShells() throws {
      let result = try CLI.run(["completions", "nosuchshell"])
      #expect(result.status == 1)
      #expect(result.out.isEmpty)
      #expect(result.err.contains("unknown shell 'nosuchshell'"))
      #expect(result.err.contains("bash, zsh, fish"), "\(result.err)")
      #expect(try CLI.run(["completions"]).status == 1)
    }

    @Test func manualPageNamesEveryCommandAndOption() throws {
      let (commands, _) = try HelpListing.topLevel()
      let page = try CLI.run(["man"]).out
      #expect(page.contains(".TH KDBX 1 "))
      for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "\"EXIT STATUS\"", "ENVIRONMENT", "FILES", "EXAMPLES"] {
        #expect(page.contains("\n.SH \(section)\n"), "section \(section)")
      }
      for status in ["0", "1", "2"] { #expect(page.contains(".TP\n.B \(status)\n")) }
      for variable in ["PATH", "DISPLAY", "WAYLAND_DISPLAY"] { #expect(page.contains(".TP\n.B \(variable)\n")) }
      for command in commands.sorted() {
        let escaped = command.replacingOccurrences(of: "-", with: "\\-")
        #expect(page.contains(".SS \"kdbx \(escaped)"), "\(command)")
        for option in try HelpListing.options(of: command) where option != "-h" && option != "--help" {
          #expect(
            page.contains("\\fB" + option.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "\(command) \(option)")
        }
      }
    }

    @Test func versionNamesTheCommitOrSaysItIsUnknown() throws {
      let result = try CLI.run(["--version"])
      #expect(result.status == 0)
      let line = result.out.trimmingCharacters(in: .newlines)
      let known = line.range(
        of: #"^kdbx [0-9]+\.[0-9]+\.[0-9]+\S* \(commit [0-9a-f]{40}(\+modified)?\)$"#, options: .regularExpression)
      #expect(known != nil || line.hasSuffix(" (commit unknown: not a release build)"), "\(line)")
    }
  }

  /// The shells and manual tools themselves: syntax checks and lint, where they are installed.
  enum ShellTools {
    static func installed(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }
    static let fish = installed("/usr/bin/fish")
    static let zsh = installed("/usr/bin/zsh")
    static let groff = installed("/usr/bin/groff")
    static let mandoc = installed("/usr/bin/mandoc")
    static let tmux = installed("/usr/bin/tmux")
    static let bashCompletion = "/usr/share/bash-completion/bash_completion"
    static let interactiveBash = tmux && FileManager.default.fileExists(atPath: bashCompletion)

    /// Writes `text` to a new temporary file and returns its path.
    static func temporaryFile(_ text: String, name: String) throws -> String {
      let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kdbx-shell-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let path = directory.appendingPathComponent(name).path
      try text.write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
  }

  @Suite(.enabled(if: CLI.available && ShellTools.fish))
  struct FishCompletionTests {
    @Test func fishCompletesExactlyWhatHelpLists() throws {
      let (commands, globalOptions) = try HelpListing.topLevel()
      let script = try ShellTools.temporaryFile(try CLI.run(["completions", "fish"]).out, name: "kdbx.fish")
      var program = "source \(script)\ncomplete -C 'kdbx '\necho -- --end--\ncomplete -C 'kdbx -'\necho -- --end--\n"
      let names = commands.sorted()
      for command in names { program += "complete -C 'kdbx \(command) -'\necho -- --end--\n" }
      let result = try CLI.run(["fish", "--no-config", "-c", program], binary: "/usr/bin/env")
      #expect(result.status == 0, "\(result.err)")
      let blocks = result.out.components(separatedBy: "--end--\n").map { block in
        Set(block.split(separator: "\n").compactMap { $0.split(separator: "\t").first.map(String.init) })
      }
      #expect(blocks.count == names.count + 3)
      guard blocks.count == names.count + 3 else { return }
      #expect(blocks[0] == commands, "commands")
      #expect(blocks[1] == globalOptions, "top-level options")
      for (command, completed) in zip(names, blocks.dropFirst(2)) {
        #expect(completed == (try HelpListing.options(of: command)), "\(command)")
      }
    }
  }

  @Suite(.enabled(if: CLI.available && ShellTools.zsh))
  struct ZshScriptSyntaxTests {
    @Test func zshReadsTheScript() throws {
      let script = try ShellTools.temporaryFile(try CLI.run(["completions", "zsh"]).out, name: "_kdbx")
      let result = try CLI.run(["zsh", "-n", script], binary: "/usr/bin/env")
      #expect(result.status == 0 && result.err.isEmpty, "\(result.err)")
    }
  }

  @Suite(.enabled(if: CLI.available && ShellTools.groff))
  struct ManualPageGroffTests {
    @Test func groffFormatsThePageWithoutWarnings() throws {
      let page = try ShellTools.temporaryFile(try CLI.run(["man"]).out, name: "kdbx.1")
      let result = try CLI.run(["groff", "-z", "-ww", "-man", page], binary: "/usr/bin/env")
      #expect(result.status == 0 && result.err.isEmpty, "\(result.err)")
    }
  }

  @Suite(.enabled(if: CLI.available && ShellTools.mandoc))
  struct ManualPageMandocTests {
    /// A development build has no date for the page (it names no commit); every other message fails.
    @Test func mandocLintFindsNothingButTheDevelopmentDate() throws {
      let page = try ShellTools.temporaryFile(try CLI.run(["man"]).out, name: "kdbx.1")
      let result = try CLI.run(["mandoc", "-T", "lint", page], binary: "/usr/bin/env")
      let messages = (result.out + result.err).split(separator: "\n").filter { !$0.contains("missing date") }
      #expect(messages.isEmpty, "\(messages)")
    }
  }

}
