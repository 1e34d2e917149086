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

  /// An array or object being written, and the index of its next item or member.
  private enum Container {
    case array([JSONValue])
    case object([(String, JSONValue)])

    var count: Int {
      switch self {
      case .array(let items): return items.count
      case .object(let members): return members.count
      }
    }
  }

  /// Writes the value with an explicit stack of the arrays and objects being written, not by recursion: a value
  /// nested as deep as the group tree it lists (`kdbx ls -R --json`) takes no more call stack than a flat one.
  /// `indent` is the level of the value (-1: compact).
  private func render(into out: inout String, indent: Int) {
    let pretty = indent >= 0
    func newline(_ level: Int) {
      guard pretty else { return }
      out += "\n" + String(repeating: "  ", count: level)
    }
    var open: [(container: Container, next: Int, indent: Int)] = []
    var pending: (value: JSONValue, indent: Int)? = (self, indent)
    while true {
      if let (value, level) = pending {
        pending = nil
        switch value {
        case .string(let text): out += JSONValue.quoted(text)
        case .number(let number): out += String(number)
        case .double(let number): out += number.isFinite ? String(number) : "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
          out += items.isEmpty ? "[]" : "["
          if !items.isEmpty { open.append((.array(items), 0, level)) }
        case .object(let members):
          out += members.isEmpty ? "{}" : "{"
          if !members.isEmpty { open.append((.object(members), 0, level)) }
        }
      }
      guard let top = open.indices.last else { return }
      let (container, index, level) = open[top]
      if index == container.count {
        open.removeLast()
        newline(level)
        if case .array = container { out += "]" } else { out += "}" }
        continue
      }
      open[top].next = index + 1
      if index > 0 { out += "," }
      newline(level + 1)
      let inner = pretty ? level + 1 : -1
      switch container {
      case .array(let items): pending = (items[index], inner)
      case .object(let members):
        out += JSONValue.quoted(members[index].0) + (pretty ? ": " : ":")
        pending = (members[index].1, inner)
      }
    }
  }

  /// Takes `value` apart one array or object at a time and leaves `.null`: releasing a deeply nested value at once
  /// would free it recursively (each array frees its values, whose arrays free theirs).
  package static func release(_ value: inout JSONValue) {
    var pending = [value]
    value = .null
    while let next = pending.popLast() {
      switch next {
      case .array(let items): pending.append(contentsOf: items)
      case .object(let members): for member in members { pending.append(member.1) }
      default: continue
      }
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
