import KDBXBase

/// A small JSON builder (RFC 8259) for the CLI's `--json` output, `kdbx export --format json` and the WebAssembly
/// module, which all write the same text through it. Keys keep the order they are written in.
package enum JSONValue {
  case string(String)
  case number(Int)
  case double(Double)
  case bool(Bool)
  case null
  case array([JSONValue])
  case object([(String, JSONValue)])

  /// The value as JSON text, indented by two spaces per level (`pretty`) or compact.
  package func rendered(pretty: Bool = true) -> String {
    var out = ""
    render(into: &out, indent: pretty ? 0 : -1)
    return out
  }

  private func render(into out: inout String, indent: Int) {
    let pretty = indent >= 0
    func newline(_ level: Int) {
      guard pretty else { return }
      out += "\n" + String(repeating: "  ", count: level)
    }
    switch self {
    case .string(let text): out += JSONValue.quoted(text)
    case .number(let number): out += String(number)
    case .double(let number): out += number.isFinite ? String(number) : "null"
    case .bool(let flag): out += flag ? "true" : "false"
    case .null: out += "null"
    case .array(let items):
      if items.isEmpty {
        out += "[]"
        return
      }
      out += "["
      for (index, item) in items.enumerated() {
        if index > 0 { out += "," }
        newline(indent + 1)
        item.render(into: &out, indent: pretty ? indent + 1 : -1)
      }
      newline(indent)
      out += "]"
    case .object(let members):
      if members.isEmpty {
        out += "{}"
        return
      }
      out += "{"
      for (index, member) in members.enumerated() {
        if index > 0 { out += "," }
        newline(indent + 1)
        out += JSONValue.quoted(member.0) + (pretty ? ": " : ":")
        member.1.render(into: &out, indent: pretty ? indent + 1 : -1)
      }
      newline(indent)
      out += "}"
    }
  }

  /// `text` as a JSON string literal (RFC 8259 §7), escaping quotes, backslashes and control characters. Besides
  /// C0 (which JSON requires), DEL, C1, the bidi controls the CLI's `TerminalText` escapes and U+2028/U+2029 are
  /// written as `\uXXXX` too: the decoded value is the same, and JSON printed to a terminal cannot drive it.
  package static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if escapesAsUnicode(scalar) {
          out += "\\u" + Hex.encode(UInt64(scalar.value), minimumDigits: 4)
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// The characters ``quoted(_:)`` writes as `\uXXXX`: C0, DEL, C1, the bidirectional embedding, override and
  /// isolate controls (U+202A-U+202E, U+2066-U+2069), and the line and paragraph separators U+2028, U+2029.
  static func escapesAsUnicode(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F, 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
    default: return false
    }
  }
}
