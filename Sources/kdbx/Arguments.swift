/// Command-line arguments: positionals, `--flag`, `--option VALUE` and `--option=VALUE`.
///
/// Each command declares which options take a value; anything else starting with `-` is a flag. `--` ends
/// option parsing. Unknown options are reported by ``Arguments/finish()``.
struct Arguments {
  var positionals: [String] = []
  private var flags: [String] = []
  private var values: [(name: String, value: String)] = []
  private var used: Set<String> = []

  init(_ raw: [String], valueOptions: Set<String>) throws(CLIError) {
    var index = 0
    var onlyPositionals = false
    while index < raw.count {
      let argument = raw[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      if let equals = argument.firstIndex(of: "=") {
        let name = String(argument[..<equals])
        guard valueOptions.contains(name) else { throw .usage("option \(name) does not take a value") }
        values.append((name, String(argument[argument.index(after: equals)...])))
      } else if valueOptions.contains(argument) {
        guard index < raw.count else { throw .usage("option \(argument) needs a value") }
        values.append((argument, raw[index]))
        index += 1
      } else {
        flags.append(argument)
      }
    }
  }

  /// Whether any of `names` was given as a flag.
  mutating func flag(_ names: String...) -> Bool {
    for name in names { used.insert(name) }
    return flags.contains { names.contains($0) }
  }

  /// The last value given for any of `names`.
  mutating func value(_ names: String...) -> String? {
    for name in names { used.insert(name) }
    return values.last { names.contains($0.name) }?.value
  }

  /// Every value given for any of `names`, in order.
  mutating func values(_ names: String...) -> [String] {
    for name in names { used.insert(name) }
    return values.filter { names.contains($0.name) }.map { $0.value }
  }

  /// An integer option within `range`.
  mutating func integer(_ name: String, in range: ClosedRange<Int>) throws(CLIError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw .usage("\(name) needs a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
    }
    return number
  }

  /// Positional `index`, or a usage error naming it.
  func positional(_ index: Int, _ name: String) throws(CLIError) -> String {
    guard index < positionals.count else { throw .usage("missing \(name)") }
    return positionals[index]
  }

  /// Fails on options the command did not ask about, and on extra positionals.
  func finish(maxPositionals: Int) throws(CLIError) {
    if let unknown = flags.first(where: { !used.contains($0) })
      ?? values.first(where: { !used.contains($0.name) })?.name
    {
      throw .usage("unknown option \(unknown)")
    }
    if positionals.count > maxPositionals {
      throw .usage("unexpected argument '\(positionals[maxPositionals])'")
    }
  }
}
