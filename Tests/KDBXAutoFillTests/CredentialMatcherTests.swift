import KDBX
import KDBXAutoFill
import Testing

@Suite("Credential matching")
struct CredentialMatcherTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var entry: String
    var request: String
    var reason: MatchReason?
    var score: Int?
    var testDescription: String { "\(entry) ~ \(request)" }
  }

  static let cases: [Case] = [
    Case(
      entry: "https://github.com/login", request: "https://github.com/login?return=1", reason: .exactURL, score: 100),
    Case(entry: "https://github.com/login", request: "https://github.com/", reason: .exactHost, score: 90),
    Case(entry: "github.com", request: "https://github.com/settings", reason: .exactHost, score: 90),
    Case(entry: "https://example.com", request: "https://login.example.com/", reason: .parentDomain, score: 70),
    Case(entry: "https://login.example.com", request: "https://example.com/", reason: .subdomain, score: 60),
    Case(
      entry: "https://mail.example.com", request: "https://login.example.com/", reason: .sameRegistrableDomain,
      score: 50),
    // False friends: label boundaries and public suffixes.
    Case(entry: "https://box.com", request: "https://dropbox.com/", reason: nil, score: nil),
    Case(entry: "https://dropbox.com", request: "https://box.com/", reason: nil, score: nil),
    Case(entry: "https://a.co.uk", request: "https://b.co.uk/", reason: nil, score: nil),
    Case(entry: "https://shop.a.co.uk", request: "https://a.co.uk/", reason: .subdomain, score: 60),
    Case(entry: "https://alice.github.io", request: "https://bob.github.io/", reason: nil, score: nil),
    Case(entry: "https://co.uk", request: "https://a.co.uk/", reason: nil, score: nil),
    // IP addresses match only exactly.
    Case(entry: "http://192.168.1.1/", request: "http://192.168.1.1/admin", reason: .exactHost, score: 90),
    Case(entry: "http://192.168.1.1/", request: "http://192.168.1.10/", reason: nil, score: nil),
    Case(entry: "http://[fe80::1]:8080/", request: "http://[fe80::1]:8080/x", reason: .exactHost, score: 90),
    // Ports and schemes.
    Case(entry: "https://a.com:8443", request: "https://a.com/", reason: nil, score: nil),
    Case(entry: "https://a.com:443", request: "https://a.com/", reason: .exactHost, score: 90),
    Case(entry: "http://a.com", request: "https://a.com/", reason: .exactHost, score: 80),
    Case(entry: "ftp://a.com", request: "https://a.com/", reason: nil, score: nil),
    Case(entry: "https://user:pw@a.com/", request: "https://a.com/", reason: .exactHost, score: 90),
    Case(entry: "HTTPS://A.COM./", request: "https://a.com/", reason: .exactHost, score: 90),
  ]

  /// The matcher with sibling matching on (off by default): the table shows every rule.
  static var loose: CredentialMatcher {
    var options = CredentialMatcher.Options()
    options.allowsSameRegistrableDomain = true
    return CredentialMatcher(options: options)
  }

  @Test("URL table", arguments: cases)
  func table(_ item: Case) {
    let matcher = Self.loose
    guard let service = ServiceIdentifier(item.request) else {
      Issue.record("request did not parse")
      return
    }
    let result = matcher.match(service, in: [MatchCandidate(id: 1, url: item.entry)])
    #expect(result.matches.first?.reason == item.reason)
    #expect(result.matches.first?.score == item.score)
  }

  @Test func entriesWithoutURLComeBackSeparately() {
    let candidates = [
      MatchCandidate(id: "no-url", url: ""), MatchCandidate(id: "blank", url: "  "),
      MatchCandidate(id: "match", url: "https://a.com"),
    ]
    let result = CredentialMatcher().match(.domain("a.com"), in: candidates)
    #expect(result.matches.map(\.id) == ["match"])
    #expect(result.withoutURL == ["no-url", "blank"])
  }

  @Test func additionalURLsMatchWithLowerScore() throws {
    let candidates = [
      MatchCandidate(id: 1, url: "https://other.org", additionalURLs: ["https://a.com"]),
      MatchCandidate(id: 2, url: "", additionalURLs: ["https://a.com/login"]),
    ]
    let result = CredentialMatcher().match(try #require(ServiceIdentifier("https://a.com/login")), in: candidates)
    #expect(result.matches.map(\.id) == [2, 1])
    #expect(result.matches.map(\.score) == [95, 85])
    #expect(result.matches.allSatisfy { $0.viaAdditionalURL })
    #expect(result.withoutURL.isEmpty)
  }

  @Test func resultsAreRankedBestFirstAndStable() {
    let candidates = [
      MatchCandidate(id: "sibling", url: "https://mail.example.com"),
      MatchCandidate(id: "parent", url: "https://example.com"),
      MatchCandidate(id: "exact", url: "https://login.example.com/"),
      MatchCandidate(id: "parent-2", url: "example.com"),
    ]
    let result = Self.loose.match(.domain("login.example.com"), in: candidates)
    #expect(result.matches.map(\.id) == ["exact", "parent", "parent-2", "sibling"])
    let strict = CredentialMatcher().match(.domain("login.example.com"), in: candidates)
    #expect(strict.matches.map(\.id) == ["exact", "parent", "parent-2"], "no siblings by default")
  }

  @Test func androidAppsMatchByPackage() {
    let candidates = [
      MatchCandidate(id: 1, url: "androidapp://com.example.app"),
      MatchCandidate(id: 2, url: "https://example.com", additionalURLs: ["androidapp://com.example.app"]),
      MatchCandidate(id: 3, url: "androidapp://com.example.other"),
    ]
    guard let service = ServiceIdentifier("androidapp://com.example.app") else {
      Issue.record("androidapp identifier did not parse")
      return
    }
    #expect(service == .application("com.example.app"))
    let result = CredentialMatcher().match(service, in: candidates)
    #expect(result.matches.map(\.id) == [1, 2])
    #expect(result.matches.map(\.reason) == [.application, .application])
  }

  @Test func iOSBundleIdentifiersMatchScopedEntries() {
    let result = CredentialMatcher().match(
      .application("com.example.ios"),
      in: [MatchCandidate(id: 1, url: "com.example.ios"), MatchCandidate(id: 2, url: "https://example.com")])
    #expect(result.matches.map(\.id) == [1])
  }

  @Test func optionsTurnOffLooseMatches() throws {
    var options = CredentialMatcher.Options()
    options.allowsSubdomains = false
    options.allowsSameRegistrableDomain = false
    options.allowsSchemeDowngrade = false
    let matcher = CredentialMatcher(options: options)
    let candidates = [
      MatchCandidate(id: 1, url: "https://example.com"), MatchCandidate(id: 2, url: "http://login.example.com"),
      MatchCandidate(id: 3, url: "https://login.example.com"),
    ]
    let result = matcher.match(try #require(ServiceIdentifier("https://login.example.com/")), in: candidates)
    #expect(result.matches.map(\.id) == [3])
  }
}

@Suite("Public suffix list")
struct PublicSuffixListTests {
  @Test func builtInTableKnowsCommonMultiLabelSuffixes() {
    let list = PublicSuffixList.builtIn
    #expect(list.registrableDomain(of: "www.example.co.uk") == "example.co.uk")
    #expect(list.registrableDomain(of: "shop.example.com.au") == "example.com.au")
    #expect(list.registrableDomain(of: "a.b.example.com") == "example.com")
    #expect(list.registrableDomain(of: "co.uk") == nil)
    #expect(list.registrableDomain(of: "com") == nil)
    #expect(list.registrableDomain(of: "alice.github.io") == "alice.github.io")
  }

  @Test func wildcardAndExceptionRulesFollowTheFormalAlgorithm() {
    // Rules and expectations from the Public Suffix List's test data (publicsuffix.org "test_psl.txt").
    let list = PublicSuffixList(parsing: "// comment\n*.ck\n!www.ck\njp\n*.kawasaki.jp\n!city.kawasaki.jp\n")
    #expect(list.registrableDomain(of: "c.ck") == nil)
    #expect(list.registrableDomain(of: "b.c.ck") == "b.c.ck")
    #expect(list.registrableDomain(of: "a.b.c.ck") == "b.c.ck")
    #expect(list.registrableDomain(of: "www.ck") == "www.ck")
    #expect(list.registrableDomain(of: "www.www.ck") == "www.ck")
    #expect(list.registrableDomain(of: "c.kawasaki.jp") == nil)
    #expect(list.registrableDomain(of: "b.c.kawasaki.jp") == "b.c.kawasaki.jp")
    #expect(list.registrableDomain(of: "city.kawasaki.jp") == "city.kawasaki.jp")
    #expect(list.registrableDomain(of: "b.city.kawasaki.jp") == "city.kawasaki.jp")
  }
}

@Suite("Web addresses")
struct WebAddressTests {
  @Test func partsAreParsed() {
    let address = WebAddress("HTTPS://User@Login.Example.COM:8443/path/x?q=1#f")
    #expect(address?.scheme == "https")
    #expect(address?.host == "login.example.com")
    #expect(address?.port == 8443)
    #expect(address?.path == "/path/x")
    #expect(WebAddress("example.com")?.scheme == nil)
    #expect(WebAddress("example.com:99999") == nil)
    #expect(WebAddress("https://") == nil)
    #expect(WebAddress("http://[::1]/")?.host == "::1")
    #expect(WebAddress("http://10.0.0.1")?.hostIsIPAddress == true)
    #expect(WebAddress("http://10.0.0.300")?.hostIsIPAddress == false)
  }
}
