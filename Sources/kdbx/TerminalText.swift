/// Text from a vault made safe for a terminal.
///
/// A vault is untrusted input: a title holding `ESC ] 0 ; ... BEL` retitles the terminal window, `ESC [ 2 J` clears
/// it, a bare carriage return overwrites the start of the line, and some terminals read the C1 characters
/// U+0080-U+009F as escape sequences too. Everything the CLI prints as plain text therefore shows these characters
/// escaped, whether or not standard output is a terminal (a pipe into `less -R` or a log viewer ends in one too):
///
/// - C0 controls and DEL: `\t`, `\n`, `\r`, else `\x1b` style (two lowercase hex digits);
/// - C1 controls (U+0080-U+009F) and the bidirectional embedding, override and isolate controls (U+202A-U+202E,
///   U+2066-U+2069, which can show `moc.knab` as `bank.com`): `\u{9b}` style. The invisible marks U+200E, U+200F
///   and U+061C stay, as right-to-left text uses them.
///
/// ``line(_:)`` escapes line feeds and tabs too, for names, titles and paths, so that one value cannot pose as
/// several lines of output. ``multiline(_:)`` keeps them, for values printed on purpose over several lines (Notes
/// and custom fields in `show`); `Terminal.out` and `Terminal.error` apply it to everything they write, as a safety
/// net. A backslash is printed as it is (passwords and Windows paths hold them), so `\x1b` in the output can also
/// be those four characters in the vault: `--json` output is exact (JSON escapes the same characters as `\u001b`),
/// and so are `export` and `attachment-export`, which write data formats, not terminal text.
enum TerminalText {
  /// `text` for a single line of output: every control character escaped, line feeds and tabs included.
  static func line(_ text: String) -> String {
    escaped(text, keepingLineBreaks: false)
  }

  /// `text` that may span lines: line feeds and tabs kept, every other control character escaped.
  static func multiline(_ text: String) -> String {
    escaped(text, keepingLineBreaks: true)
  }

  /// Whether a terminal could act on `scalar` instead of showing it.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: return false
    }
  }

  static func escaped(_ text: String, keepingLineBreaks: Bool) -> String {
    guard needsEscaping(text, keepingLineBreaks: keepingLineBreaks) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 16)
    for scalar in text.unicodeScalars {
      guard isControl(scalar) else {
        out.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n" where keepingLineBreaks, "\t" where keepingLineBreaks: out.unicodeScalars.append(scalar)
      case "\n": out += "\\n"
      case "\t": out += "\\t"
      case "\r": out += "\\r"
      default:
        let hex = String(scalar.value, radix: 16)
        if scalar.value < 0x80 {
          out += scalar.value < 0x10 ? "\\x0" + hex : "\\x" + hex
        } else {
          out += "\\u{" + hex + "}"
        }
      }
    }
    return out
  }

  /// A quick scan of the UTF-8 bytes: C0 and DEL are single bytes, C1 controls start with 0xC2 and the bidi
  /// controls with 0xE2, so text without those bytes (nearly all text) is returned without a copy.
  static func needsEscaping(_ text: String, keepingLineBreaks: Bool) -> Bool {
    for byte in text.utf8 {
      switch byte {
      case 0x0A, 0x09: if !keepingLineBreaks { return true }
      case 0x00..<0x20, 0x7F, 0xC2, 0xE2: return true
      default: continue
      }
    }
    return false
  }
}
