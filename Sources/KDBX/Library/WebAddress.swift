import KDBXBase

/// The parts of a URL that credential matching needs: scheme, host, port and path.
///
/// This is a deliberately small parser for the URLs people store in password entries
/// (RFC 3986 §3 generic syntax): `scheme://[user@]host[:port][/path][?query][#fragment]`.
/// A string without `://` is read as a bare host (`example.com`, `example.com:8443/login`).
/// Hosts are lowercased and a trailing dot is dropped. IPv6 literals keep their brackets off.
///
/// AutoFill matching of an entry's URL against the page's:
///
/// ```swift
/// if let stored = WebAddress(entry.url), let page = WebAddress("https://login.example.com/signin"),
///   stored.host == page.host
/// {
///   copyToPasteboard(entry.userName)
/// }
/// ```
public struct WebAddress: Equatable, Sendable {
  /// The lowercased scheme (`https`), or `nil` for a bare host.
  public var scheme: String?
  /// The lowercased host name or IP literal, without brackets or a trailing dot.
  public var host: String
  /// The explicit port, if the address has one.
  public var port: Int?
  /// The path, starting with `/`, or empty.
  public var path: String

  /// Parses `text`; returns `nil` when it has no usable host.
  public init?(_ text: String) {
    var rest = Substring(text.trimmingASCIIWhitespace())
    if let separator = rest.schemeSeparatorRange() {
      let scheme = rest[rest.startIndex..<separator.lowerBound].lowercased()
      guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCIILetterOrDigit || "+-.".contains($0) }) else { return nil }
      self.scheme = scheme
      rest = rest[separator.upperBound...]
    } else {
      scheme = nil
    }
    // The authority ends at the first '/', '?' or '#'.
    let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var authority = rest[rest.startIndex..<authorityEnd]
    let tail = rest[authorityEnd...]
    if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
    var hostPart: Substring
    var portPart: Substring? = nil
    if authority.first == "[" {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      hostPart = authority[authority.index(after: authority.startIndex)..<close]
      let after = authority[authority.index(after: close)...]
      if after.first == ":" { portPart = after.dropFirst() } else if !after.isEmpty { return nil }
    } else if let colon = authority.lastIndex(of: ":") {
      hostPart = authority[authority.startIndex..<colon]
      portPart = authority[authority.index(after: colon)...]
    } else {
      hostPart = authority
    }
    var host = hostPart.lowercased()
    if host.hasSuffix(".") { host.removeLast() }
    guard !host.isEmpty, !host.contains(" ") else { return nil }
    self.host = host
    if let portPart, !portPart.isEmpty {
      guard portPart.count <= 5, let number = Int(portPart), (0...65535).contains(number) else { return nil }
      port = number
    } else {
      port = nil
    }
    let pathEnd = tail.firstIndex { $0 == "?" || $0 == "#" } ?? tail.endIndex
    path = String(tail[tail.startIndex..<pathEnd])
  }

  /// Whether `text` contains `://`, that is, starts with a scheme.
  package static func hasScheme(_ text: String) -> Bool {
    Substring(text).schemeSeparatorRange() != nil
  }

  /// The port, or the scheme's default port (http 80, https 443, ftp 21, ssh 22) when none is written.
  public var effectivePort: Int? {
    if let port { return port }
    switch scheme {
    case "http": return 80
    case "https": return 443
    case "ftp": return 21
    case "ssh", "sftp": return 22
    default: return nil
    }
  }

  /// Whether the host is an IPv4 or IPv6 literal rather than a domain name.
  public var hostIsIPAddress: Bool {
    if host.contains(":") { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4
      && parts.allSatisfy { part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCIIDigit } && (Int(part) ?? 256) <= 255
      }
  }
}

extension Character {
  var isASCIIDigit: Bool { ("0"..."9").contains(self) }
  var isASCIILetterOrDigit: Bool { isASCIIDigit || ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

extension Substring {
  /// The range of the first `://`, found without Foundation.
  fileprivate func schemeSeparatorRange() -> Range<Index>? {
    var index = startIndex
    while index < endIndex {
      if self[index] == ":" {
        let second = self.index(after: index)
        if second < endIndex, self[second] == "/" {
          let third = self.index(after: second)
          if third < endIndex, self[third] == "/" { return index..<self.index(after: third) }
        }
      }
      index = self.index(after: index)
    }
    return nil
  }
}

extension StringProtocol {
  package func trimmingASCIIWhitespace() -> String {
    var scalars = Substring(self)
    while let first = scalars.first, first == " " || first == "\t" || first == "\n" || first == "\r" {
      scalars = scalars.dropFirst()
    }
    while let last = scalars.last, last == " " || last == "\t" || last == "\n" || last == "\r" {
      scalars = scalars.dropLast()
    }
    return String(scalars)
  }
}
