/// Registrable domains ("eTLD+1") from Public Suffix List rules.
///
/// The algorithm is the one the Public Suffix List defines (publicsuffix.org/list, "Formal algorithm"):
/// normal rules (`co.uk`), wildcard rules (`*.ck`) and exception rules (`!www.ck`); the longest matching rule
/// wins, an exception beats a wildcard, and when nothing matches the rule `*` applies (the last label is the
/// suffix). ``builtIn`` carries a compact table of the common multi-label suffixes, enough to keep
/// `example.co.uk` apart from `other.co.uk`. Apps that need exact answers for every suffix load the full list
/// with ``init(parsing:)``.
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

  /// A compact built-in table: generic top-level domains are covered by the implicit `*` rule, so the table
  /// lists the multi-label public suffixes people meet most (country second-level domains and popular hosting
  /// suffixes where unrelated sites share a parent).
  public static let builtIn = PublicSuffixList(rules: [
    // United Kingdom, Australia, New Zealand, Japan, Brazil, India, South Africa, and other ccSLDs.
    "co.uk", "org.uk", "me.uk", "ltd.uk", "plc.uk", "net.uk", "ac.uk", "gov.uk", "nhs.uk", "police.uk", "sch.uk",
    "com.au", "net.au", "org.au", "edu.au", "gov.au", "asn.au", "id.au",
    "co.nz", "net.nz", "org.nz", "govt.nz", "ac.nz", "geek.nz",
    "co.jp", "ne.jp", "or.jp", "ac.jp", "go.jp", "gr.jp", "ed.jp", "lg.jp",
    "com.br", "net.br", "org.br", "gov.br", "edu.br",
    "co.in", "net.in", "org.in", "firm.in", "gen.in", "ind.in", "ac.in", "gov.in",
    "co.za", "org.za", "gov.za", "ac.za", "net.za", "web.za",
    "com.cn", "net.cn", "org.cn", "gov.cn", "edu.cn", "com.hk", "org.hk", "net.hk", "edu.hk", "gov.hk",
    "com.tw", "org.tw", "net.tw", "edu.tw", "gov.tw", "com.sg", "org.sg", "net.sg", "edu.sg", "gov.sg",
    "co.kr", "or.kr", "ne.kr", "ac.kr", "go.kr", "com.my", "net.my", "org.my", "gov.my", "edu.my",
    "com.mx", "org.mx", "gob.mx", "edu.mx", "net.mx", "com.ar", "org.ar", "gob.ar", "net.ar", "edu.ar",
    "com.co", "org.co", "net.co", "gov.co", "edu.co", "com.tr", "org.tr", "net.tr", "gov.tr", "edu.tr",
    "co.il", "org.il", "net.il", "ac.il", "gov.il", "co.id", "or.id", "ac.id", "go.id", "web.id",
    "com.ph", "org.ph", "net.ph", "gov.ph", "edu.ph", "com.vn", "net.vn", "org.vn", "gov.vn", "edu.vn",
    "com.pk", "org.pk", "net.pk", "gov.pk", "edu.pk", "com.eg", "org.eg", "gov.eg", "edu.eg",
    "com.ng", "org.ng", "gov.ng", "edu.ng", "co.ke", "or.ke", "go.ke", "ac.ke",
    "com.pl", "net.pl", "org.pl", "gov.pl", "edu.pl", "co.at", "or.at", "gv.at", "ac.at",
    "com.ua", "org.ua", "net.ua", "gov.ua", "edu.ua", "com.ru", "org.ru", "net.ru",
    "com.es", "org.es", "gob.es", "edu.es", "com.pt", "org.pt", "gov.pt", "edu.pt",
    "com.gr", "org.gr", "gov.gr", "edu.gr", "co.th", "or.th", "ac.th", "go.th", "in.th",
    "com.sa", "org.sa", "gov.sa", "edu.sa", "com.pe", "org.pe", "gob.pe", "com.ve", "co.ve",
    "com.uy", "com.ec", "com.bo", "com.py", "co.cr", "com.gt", "com.do", "com.pr",
    "us.com", "uk.com", "eu.com", "de.com", "gb.net", "eu.org",
    // Shared hosting suffixes where unrelated sites share a parent domain.
    "github.io", "gitlab.io", "herokuapp.com", "azurewebsites.net", "cloudfront.net", "appspot.com",
    "blogspot.com", "netlify.app", "vercel.app", "pages.dev", "workers.dev", "web.app", "firebaseapp.com",
    "s3.amazonaws.com", "elasticbeanstalk.com", "fly.dev", "onrender.com", "glitch.me", "repl.co",
    "wordpress.com", "tumblr.com", "myshopify.com", "duckdns.org", "dyndns.org", "no-ip.org", "ddns.net",
    // Wildcard examples from the list itself.
    "*.ck", "!www.ck", "*.bd", "*.np", "*.kh", "*.er", "*.fk", "*.mm",
  ])
}
