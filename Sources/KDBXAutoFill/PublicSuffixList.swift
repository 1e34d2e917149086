import KDBX
import KDBXBase

/// Registrable domains ("eTLD+1") from Public Suffix List rules.
///
/// The algorithm is the one the Public Suffix List defines (publicsuffix.org/list, "Formal algorithm"):
/// normal rules (`co.uk`), wildcard rules (`*.ck`) and exception rules (`!www.ck`); the longest matching rule
/// wins, an exception beats a wildcard, and when nothing matches the rule `*` applies (the last label is the
/// suffix). ``builtIn`` is the full list (its version is ``builtInVersion``); an app that updates the list on its
/// own loads it with ``init(parsing:)``.
public struct PublicSuffixList: Sendable {
  private var normal: Set<String> = []
  private var wildcard: Set<String> = []
  private var exception: Set<String> = []

  /// Builds a list from rules in the Public Suffix List file format: one rule per line, `//` comments,
  /// blank lines ignored, only the first whitespace-separated word of a line counts.
  public init(parsing text: String) {
    for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
      let line = rawLine.trimmingASCIIWhitespace()
      if line.isEmpty || line.hasPrefix("//") { continue }
      let rule = String(line.split(separator: " ").first ?? "").lowercased()
      add(rule: rule)
    }
  }

  /// Builds a list from rules such as `co.uk`, `*.ck` and `!www.ck`.
  public init(rules: [String]) {
    for rule in rules { add(rule: rule.lowercased()) }
  }

  private mutating func add(rule: String) {
    if rule.hasPrefix("!") {
      exception.insert(String(rule.dropFirst()))
    } else if rule.hasPrefix("*.") {
      wildcard.insert(String(rule.dropFirst(2)))
    } else if !rule.isEmpty {
      normal.insert(rule)
    }
  }

  /// The public suffix of `host`, for example `co.uk` for `www.example.co.uk`.
  public func publicSuffix(of host: String) -> String {
    let labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    guard !labels.isEmpty else { return host }
    var suffixLabelCount = 1  // the implicit "*" rule
    for start in 0..<labels.count {
      let candidate = labels[start...].joined(separator: ".")
      let count = labels.count - start
      if exception.contains(candidate) {
        // An exception rule's suffix is the rule minus its leftmost label; it always wins.
        suffixLabelCount = count - 1
        break
      }
      if normal.contains(candidate) { suffixLabelCount = max(suffixLabelCount, count) }
      if start + 1 < labels.count {
        let parent = labels[(start + 1)...].joined(separator: ".")
        if wildcard.contains(parent) { suffixLabelCount = max(suffixLabelCount, count) }
      }
    }
    return labels.suffix(suffixLabelCount).joined(separator: ".")
  }

  /// The registrable domain of `host` (its public suffix plus one label), or `nil` when `host` is itself a
  /// public suffix or an IP address.
  public func registrableDomain(of host: String) -> String? {
    let lowered = host.lowercased()
    let suffix = publicSuffix(of: lowered)
    guard lowered.count > suffix.count else { return nil }
    let labels = lowered.split(separator: ".", omittingEmptySubsequences: false)
    let suffixCount = suffix.split(separator: ".", omittingEmptySubsequences: false).count
    guard labels.count > suffixCount else { return nil }
    return labels.suffix(suffixCount + 1).joined(separator: ".")
  }

  /// The full Public Suffix List (ICANN and private sections), compiled in from the version named in
  /// ``builtInVersion`` by `Vectors/tools/public_suffix_table.py`, and parsed on first use. It names the
  /// shared-hosting suffixes (`github.io`, `blogspot.com`, `herokuapp.com`, ...) under which unrelated sites
  /// share a parent domain.
  public static let builtIn = PublicSuffixList(parsing: builtInRules)
}
