/// Command-line arguments: positionals, `--flag`, `--option VALUE` and `--option=VALUE`.
///
/// The options come from the command's entry in the command table (``Command/options``): an option that is not
/// there is refused here, and in debug builds asking for one that is not there stops the program, as does
/// ``finish(maxPositionals:)`` when the command never asked for one it declares. So the table, which `--help`, the
/// completions and the manual page show, is exactly what the command accepts. `--` ends option parsing.
struct Arguments {
  var positionals: [String] = []
  private var flags: [String] = []
  private var values: [(name: String, value: String)] = []
  private var used: Set<String> = []
  /// Every option name the command declares.
  private let declared: Set<String>
  /// The words as given.
  private let words: [String]

  init(_ raw: [String], options: [OptionSpec]) throws(CLIError) {
    words = raw
    declared = Set(options.flatMap { $0.names })
    let valueOptions = Set(options.filter { $0.value != nil }.flatMap { $0.names })
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
        guard declared.contains(name) else { throw .usage("unknown option \(name)") }
        guard valueOptions.contains(name) else { throw .usage("option \(name) does not take a value") }
        values.append((name, String(argument[argument.index(after: equals)...])))
      } else if valueOptions.contains(argument) {
        guard index < raw.count else { throw .usage("option \(argument) needs a value") }
        values.append((argument, raw[index]))
        index += 1
      } else {
        guard declared.contains(argument) else { throw .usage("unknown option \(argument)") }
        flags.append(argument)
      }
    }
  }

  /// Whether any word as given is one of `names`, alone or before `=` (read as text: a value or a positional that
  /// looks like one counts too).
  func mentions(_ names: Set<String>) -> Bool {
    words.contains { word in names.contains(word.split(separator: "=", maxSplits: 1).first.map(String.init) ?? word) }
  }

  /// Whether the command declares the option `name`.
  func declares(_ name: String) -> Bool { declared.contains(name) }

  /// Marks `names` as asked for; each must be declared in the command table.
  private mutating func ask(_ names: [String]) {
    for name in names {
      assert(declared.contains(name), "option \(name) is read but not declared in the command table")
      used.insert(name)
    }
  }

  /// Marks `options`, which the caller knows were not given, as read (a command that reads them only when some
  /// were given).
  mutating func notGiven(_ options: [OptionSpec]) {
    ask(options.flatMap { $0.names })
  }

  /// Whether any of `names` was given as a flag.
  mutating func flag(_ names: String...) -> Bool {
    ask(names)
    return flags.contains { names.contains($0) }
  }

  /// The last value given for any of `names`.
  mutating func value(_ names: String...) -> String? {
    value(names)
  }

  /// The last value given for any of `names`.
  mutating func value(_ names: [String]) -> String? {
    ask(names)
    return values.last { names.contains($0.name) }?.value
  }

  /// Every value given for any of `names`, in order.
  mutating func values(_ names: String...) -> [String] {
    ask(names)
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
    assert(
      declared.isSubset(of: used),
      "declared in the command table but never read: \(declared.subtracting(used).sorted())")
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
