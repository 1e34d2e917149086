import KDBX
import KDBXBase

/// Ranks password entries for an AutoFill request.
///
/// Each entry offers its URL plus any additional URLs (`KP2A_URL`, `KP2A_URL_1`, ... as KeePass2Android and
/// KeePassXC store them). The matcher compares them with the requested ``ServiceIdentifier`` by host, then by
/// the registrable domain from a ``PublicSuffixList``, with scheme and port rules:
///
/// | reason | score | example (entry ~ request) |
/// |---|---|---|
/// | ``MatchReason/exactURL`` | 100 | `https://a.com/login` ~ `https://a.com/login?x=1` |
/// | ``MatchReason/application`` | 100 | `androidapp://com.a.app` ~ app `com.a.app` |
/// | ``MatchReason/exactHost`` | 90 | `https://a.com/` ~ `https://a.com/login` |
/// | ``MatchReason/parentDomain`` | 70 | `a.com` ~ `login.a.com` (the entry is for the whole site) |
/// | ``MatchReason/subdomain`` | 60 | `login.a.com` ~ `a.com` |
/// | ``MatchReason/sameRegistrableDomain`` | 50 | `mail.a.com` ~ `login.a.com` |
///
/// A match through an additional URL scores 5 less; an `http` entry offered to an `https` request (or the
/// reverse) scores 10 less, and other scheme differences never match. When both sides give a port (or a scheme
/// that implies one) the ports must be equal. IP addresses match only exactly. Hosts are compared on label
/// boundaries, so `box.com` never matches `dropbox.com`. Entries with no URL at all come back separately.
public struct CredentialMatcher: Sendable {
  /// Which looser kinds of match to allow.
  public struct Options: Equatable, Sendable {
    /// Match a request for `login.a.com` with an entry for `a.com`, and the reverse.
    public var allowsSubdomains: Bool = true
    /// Match siblings in the same registrable domain (`mail.a.com` and `login.a.com`). Off by default, as in
    /// KeePassXC and Bitwarden's default "host" rule: siblings under a shared-hosting domain the suffix list does not
    /// name would be offered each other's credentials. When on, registrable domains come from ``suffixes`` (by
    /// default the full Public Suffix List, ``PublicSuffixList/builtIn``).
    public var allowsSameRegistrableDomain: Bool = false
    /// Match `http` entries to `https` requests and the reverse, with a lower score.
    public var allowsSchemeDowngrade: Bool = true

    public init() {}
  }

  public var suffixes: PublicSuffixList
  public var options: Options

  /// Creates a matcher; the built-in suffix list is the full Public Suffix List.
  public init(suffixes: PublicSuffixList = .builtIn, options: Options = Options()) {
    self.suffixes = suffixes
    self.options = options
  }

  /// Ranks `candidates` for `service`: best score first, ties kept in input order.
  public func match<ID: Hashable & Sendable>(
    _ service: ServiceIdentifier, in candidates: [MatchCandidate<ID>]
  ) -> CredentialMatches<ID> {
    var result = CredentialMatches<ID>(matches: [], withoutURL: [])
    for candidate in candidates {
      if !candidate.deniedHosts.isEmpty, let host = service.host,
        candidate.deniedHosts.contains(where: { $0.trimmingASCIIWhitespace().lowercased() == host })
      {
        continue
      }
      let urls = ([candidate.url] + candidate.additionalURLs).filter { !$0.trimmingASCIIWhitespace().isEmpty }
      if urls.isEmpty {
        result.withoutURL.append(candidate.id)
        continue
      }
      var best: CredentialMatch<ID>? = nil
      for (index, text) in urls.enumerated() {
        guard var found = compare(entryURL: text, with: service) else { continue }
        let additional = index > 0 || candidate.url.trimmingASCIIWhitespace().isEmpty
        if additional { found.score -= 5 }
        if best == nil || found.score > (best?.score ?? 0) {
          best = CredentialMatch(
            id: candidate.id, score: found.score, reason: found.reason, matchedURL: text,
            viaAdditionalURL: additional, schemeDowngraded: found.downgraded)
        }
      }
      if let best { result.matches.append(best) }
    }
    // Stable sort: enumerate to keep input order among equal scores.
    result.matches = result.matches.enumerated().sorted { lhs, rhs in
      lhs.element.score != rhs.element.score ? lhs.element.score > rhs.element.score : lhs.offset < rhs.offset
    }.map { $0.element }
    return result
  }

  private struct Comparison {
    var score: Int
    var reason: MatchReason
    var downgraded: Bool
  }

  private func compare(entryURL text: String, with service: ServiceIdentifier) -> Comparison? {
    let lowered = text.trimmingASCIIWhitespace().lowercased()
    if lowered.hasPrefix(ServiceIdentifier.androidAppScheme) {
      guard case .application(let package) = service else { return nil }
      let stored = String(lowered.dropFirst(ServiceIdentifier.androidAppScheme.count))
      return stored == package.lowercased() ? Comparison(score: 100, reason: .application, downgraded: false) : nil
    }
    guard let entry = WebAddress(text) else { return nil }
    switch service {
    case .application(let bundle):
      // iOS bundle identifiers are reverse-DNS; an entry whose URL is the app scheme-less identifier matches.
      let lowerBundle = bundle.lowercased()
      if entry.scheme == nil, entry.host == lowerBundle {
        return Comparison(score: 100, reason: .application, downgraded: false)
      }
      return nil
    case .domain(let host):
      return compareHosts(entry: entry, requestHost: host.lowercased(), request: nil)
    case .url(let request):
      guard var base = compareHosts(entry: entry, requestHost: request.host, request: request) else { return nil }
      if base.reason == .exactHost, !entry.path.isEmpty, entry.path != "/", request.path.hasPrefix(entry.path) {
        base.reason = .exactURL
        base.score = 100 - (base.downgraded ? 10 : 0)
      }
      return base
    }
  }

  private func compareHosts(entry: WebAddress, requestHost: String, request: WebAddress?) -> Comparison? {
    var downgraded = false
    if let request, let entryScheme = entry.scheme, let requestScheme = request.scheme, entryScheme != requestScheme {
      let web: Set<String> = ["http", "https"]
      guard options.allowsSchemeDowngrade, web.contains(entryScheme), web.contains(requestScheme) else { return nil }
      downgraded = true
    }
    if let request, entry.port != nil || request.port != nil {
      // Compare ports only when at least one side writes one; implied ports fill in the other side.
      let entryPort = entry.effectivePort ?? request.effectivePort
      let requestPort = request.effectivePort ?? entry.effectivePort
      if entryPort != requestPort { return nil }
    }
    let penalty = downgraded ? 10 : 0
    if entry.host == requestHost { return Comparison(score: 90 - penalty, reason: .exactHost, downgraded: downgraded) }
    if entry.hostIsIPAddress || WebAddress(requestHost)?.hostIsIPAddress == true { return nil }
    if options.allowsSubdomains {
      if requestHost.hasSuffix("." + entry.host), suffixes.registrableDomain(of: entry.host) != nil {
        return Comparison(score: 70 - penalty, reason: .parentDomain, downgraded: downgraded)
      }
      if entry.host.hasSuffix("." + requestHost), suffixes.registrableDomain(of: requestHost) != nil {
        return Comparison(score: 60 - penalty, reason: .subdomain, downgraded: downgraded)
      }
    }
    if options.allowsSameRegistrableDomain, let domain = suffixes.registrableDomain(of: entry.host),
      domain == suffixes.registrableDomain(of: requestHost)
    {
      return Comparison(score: 50 - penalty, reason: .sameRegistrableDomain, downgraded: downgraded)
    }
    return nil
  }
}

/// Why an entry matched a request; see ``CredentialMatcher`` for the scores.
public enum MatchReason: Equatable, Sendable {
  case exactURL
  case application
  case exactHost
  /// The entry's host is a parent domain of the requested host.
  case parentDomain
  /// The entry's host is a subdomain of the requested host.
  case subdomain
  case sameRegistrableDomain
}

/// One entry offered to the matcher.
public struct MatchCandidate<ID: Hashable & Sendable>: Sendable {
  public var id: ID
  /// The entry's URL field.
  public var url: String
  /// Additional URLs (`KP2A_URL`, `KP2A_URL_1`, ..., and the hosts KeePassXC's browser settings allow).
  public var additionalURLs: [String]
  /// Hosts the entry must never be offered to (KeePassXC's browser settings `Deny` list).
  public var deniedHosts: [String]

  public init(id: ID, url: String, additionalURLs: [String] = [], deniedHosts: [String] = []) {
    self.id = id
    self.url = url
    self.additionalURLs = additionalURLs
    self.deniedHosts = deniedHosts
  }
}

/// A ranked match with its reason and score.
public struct CredentialMatch<ID: Hashable & Sendable>: Sendable {
  public var id: ID
  public var score: Int
  public var reason: MatchReason
  /// The entry URL that produced the match.
  public var matchedURL: String
  public var viaAdditionalURL: Bool
  /// The entry and the request differ between `http` and `https`.
  public var schemeDowngraded: Bool
}

/// The outcome of ``CredentialMatcher/match(_:in:)``.
public struct CredentialMatches<ID: Hashable & Sendable>: Sendable {
  /// Matching entries, best first.
  public var matches: [CredentialMatch<ID>]
  /// Entries that have no URL at all, in input order (an app may offer them as a fallback).
  public var withoutURL: [ID]
}
