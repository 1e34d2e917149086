import KDBXBase

/// The parts of a URL that KeePass's `{URL:...}` placeholders give (KeePass help "Placeholders", URL components;
/// RFC 3986 §3: `scheme://userinfo@host:port/path?query#fragment`).
package struct URLParts: Sendable, Equatable {
  /// The scheme as written (without `:`), or empty.
  package var scheme: String
  /// The URL without its scheme and `://` (KeePass `{URL:RMVSCM}`).
  package var withoutScheme: String
  /// The user information before `@`, or empty.
  package var userInfo: String
  /// The part of ``userInfo`` before the first `:`.
  package var userName: String
  /// The part of ``userInfo`` after the first `:`.
  package var password: String
  /// The lowercased host (see ``WebAddress``), or empty.
  package var host: String
  /// The explicit port, else the scheme's default port (as .NET's `Uri.Port`), or `nil`.
  package var port: Int?
  /// The path; `/` when a URL with a scheme and a host has none (as .NET's `Uri.AbsolutePath`).
  package var path: String
  /// The query with its leading `?` (as .NET's `Uri.Query`), or empty.
  package var query: String
  /// The fragment without `#`, or empty.
  package var fragment: String

  /// Splits `text`. Text that is not a URL gives empty parts (``withoutScheme`` is then the text).
  package init(_ text: String) {
    let trimmed = text.trimmingASCIIWhitespace()
    let bytes = Array(trimmed.utf8)
    func string(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    var start = 0
    scheme = ""
    if let colon = bytes.firstIndex(of: 0x3A), colon > 0,
      bytes[0..<colon].allSatisfy({ byte in
        (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2B
          || byte == 0x2D || byte == 0x2E
      })
    {
      let hasSlashes = colon + 2 < bytes.count && bytes[colon + 1] == 0x2F && bytes[colon + 2] == 0x2F
      // `host:port` without a scheme is not a scheme.
      if hasSlashes || !(bytes[(colon + 1)...].first.map { $0 >= 0x30 && $0 <= 0x39 } ?? false) {
        scheme = string(0..<colon)
        start = hasSlashes ? colon + 3 : colon + 1
      }
    }
    withoutScheme = string(start..<bytes.count)
    let authorityEnd = bytes[start...].firstIndex { $0 == 0x2F || $0 == 0x3F || $0 == 0x23 } ?? bytes.count
    if let at = bytes[start..<authorityEnd].lastIndex(of: 0x40) {
      userInfo = string(start..<at)
    } else {
      userInfo = ""
    }
    if let colon = userInfo.utf8.firstIndex(of: 0x3A) {
      userName = String(userInfo[userInfo.startIndex..<colon])
      password = String(userInfo[userInfo.index(after: colon)...])
    } else {
      userName = userInfo
      password = ""
    }
    let address = WebAddress(trimmed)
    host = address?.host ?? ""
    port = address?.effectivePort
    let queryStart = bytes[authorityEnd...].firstIndex { $0 == 0x3F || $0 == 0x23 } ?? bytes.count
    path = string(authorityEnd..<queryStart)
    if path.isEmpty && !scheme.isEmpty && !host.isEmpty { path = "/" }
    let fragmentStart = bytes[queryStart...].firstIndex(of: 0x23) ?? bytes.count
    query = string(queryStart..<fragmentStart)
    fragment = fragmentStart < bytes.count ? string((fragmentStart + 1)..<bytes.count) : ""
  }
}
