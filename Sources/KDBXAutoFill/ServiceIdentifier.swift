import KDBX
import KDBXBase

/// What an AutoFill request asks credentials for: a web address, a bare domain, or an app.
///
/// On iOS, `ASCredentialServiceIdentifier` gives either a URL or a domain; an app's bundle identifier comes
/// from the requesting process. Android apps appear in KeePass entries as `androidapp://<package>` URLs
/// (KeePass2Android and KeePassDX convention).
public enum ServiceIdentifier: Equatable, Sendable {
  /// A full web address such as `https://login.example.com/path`.
  case url(WebAddress)
  /// A bare domain such as `example.com`.
  case domain(String)
  /// An app identified by its iOS bundle identifier or Android package name (`com.example.app`).
  case application(String)

  /// Reads `text` as an `androidapp://` app, a URL (anything with `://`), or else a bare domain.
  public init?(_ text: String) {
    let trimmed = text.trimmingASCIIWhitespace()
    let lowered = trimmed.lowercased()
    if lowered.hasPrefix(ServiceIdentifier.androidAppScheme) {
      let package = String(lowered.dropFirst(ServiceIdentifier.androidAppScheme.count))
      guard !package.isEmpty else { return nil }
      self = .application(package)
    } else if WebAddress.hasScheme(lowered) {
      guard let address = WebAddress(trimmed) else { return nil }
      self = .url(address)
    } else {
      guard let address = WebAddress(trimmed) else { return nil }
      self = .domain(address.host)
    }
  }

  /// The requested host (lowercase), or `nil` for an app.
  public var host: String? {
    switch self {
    case .url(let address): return address.host
    case .domain(let host): return host.lowercased()
    case .application: return nil
    }
  }

  /// The URL scheme KeePass2Android uses to store an Android package in an entry.
  public static let androidAppScheme = "androidapp://"
}
