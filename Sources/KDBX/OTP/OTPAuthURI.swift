import KDBXBase

/// The `otpauth://` URI that authenticator apps scan from QR codes and that KeePassXC, KeePassDX, Strongbox and
/// KeePassium keep in an entry's `otp` field (Google Authenticator "Key Uri Format"; RFC 3986 for the URI syntax).
///
/// ```text
/// otpauth://totp/ACME%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME%20Co&digits=8&period=30
/// otpauth://hotp/Example:bob?secret=JBSWY3DPEHPK3PXP&counter=5
/// otpauth://totp/Steam:bob?secret=...&encoder=steam          (KeePassXC's Steam Guard extension)
/// ```
///
/// Reading is lenient where real vaults are: scheme and type in any case, Base32 in any case with or without
/// spaces and padding, percent-escapes anywhere (also inside the secret, as KeePassXC writes `%3D` padding),
/// algorithm names such as `SHA256`, `sha-256` or `HMAC-SHA-256`. Defaults follow the Key Uri Format: SHA-1,
/// 6 digits, 30 s period, HOTP counter 0. Unknown parameters are ignored; an unknown algorithm is an error.
///
/// ```swift
/// let configuration = try OTPAuthURI.parse(scannedText)  // a scanned QR code
/// let uri = OTPAuthURI.format(configuration)             // for an export QR code
/// ```
public enum OTPAuthURI {
  static let scheme = Array("otpauth://".utf8)

  /// Parses an `otpauth://totp` or `otpauth://hotp` URI.
  public static func parse(_ text: String) throws(OTPFormatError) -> OTPConfiguration {
    let bytes = Array(text.trimmingASCIIWhitespace().utf8)
    guard bytes.count >= scheme.count,
      zip(bytes[0..<scheme.count], scheme).allSatisfy({ OTPText.lowercase($0) == $1 })
    else { throw .notAnOTPAuthURI }
    var rest = bytes[scheme.count...]
    // Drop a fragment (RFC 3986 §3.5).
    if let hash = rest.firstIndex(of: 0x23) { rest = rest[rest.startIndex..<hash] }
    let queryStart = rest.firstIndex(of: 0x3F)
    let beforeQuery = rest[rest.startIndex..<(queryStart ?? rest.endIndex)]
    let query = queryStart.map { rest[($0 + 1)...] } ?? []
    let slash = beforeQuery.firstIndex(of: 0x2F)
    let typeBytes = beforeQuery[beforeQuery.startIndex..<(slash ?? beforeQuery.endIndex)]
    let labelBytes = slash.map { beforeQuery[($0 + 1)...] } ?? []
    let type = String(decoding: typeBytes.map(OTPText.lowercase), as: UTF8.self)
    guard type == "totp" || type == "hotp" else { throw .unsupportedType(type) }

    let items = try OTPText.queryItems(query)
    guard let secretText = OTPText.value("secret", in: items) else { throw .missingSecret }
    let secret = try OTPText.base32Secret(secretText)
    var algorithm = OneTimePassword.Algorithm.sha1
    if let name = OTPText.value("algorithm", in: items) {
      algorithm = try OTPText.algorithm(name, parameter: "algorithm")
    }
    var encoding = OneTimePassword.Encoding.decimal(digits: 6)
    if let digits = OTPText.value("digits", in: items) {
      encoding = .decimal(digits: try OTPText.intParameter("digits", digits))
    }
    if let encoder = OTPText.value("encoder", in: items), !encoder.isEmpty {
      guard OTPText.equalsIgnoringCase(encoder, "steam") else {
        throw .invalidParameter(name: "encoder", value: encoder)
      }
      encoding = .steam
    }
    let kind: OneTimePassword.Kind
    if type == "totp" {
      var period = 30
      if let text = OTPText.value("period", in: items) { period = try OTPText.intParameter("period", text) }
      kind = .totp(period: period)
    } else {
      var counter: UInt64 = 0
      if let text = OTPText.value("counter", in: items) {
        guard let value = OTPText.decimal(text) else { throw .invalidParameter(name: "counter", value: text) }
        counter = value
      }
      kind = .hotp(counter: counter)
    }
    let generator = try OTPText.make(secret: secret, algorithm: algorithm, encoding: encoding, kind: kind)

    // Label: "issuer:account" or "account"; the colon may be literal or %3A. When the issuer parameter is
    // present and the label starts with it and a colon, that split wins (an issuer may itself contain a colon).
    let label = try OTPText.percentDecode(labelBytes)
    let issuerParameter = OTPText.value("issuer", in: items).flatMap { $0.isEmpty ? nil : $0 }
    var labelIssuer: String?
    var account: String?
    let labelUTF8 = Array(label.utf8)
    if let issuerParameter, labelUTF8.starts(with: Array(issuerParameter.utf8) + [0x3A]) {
      labelIssuer = issuerParameter
      account = String(decoding: labelUTF8[(issuerParameter.utf8.count + 1)...], as: UTF8.self)
        .trimmingASCIIWhitespace()
    } else if let colon = labelUTF8.firstIndex(of: 0x3A) {
      labelIssuer = String(decoding: labelUTF8[..<colon], as: UTF8.self)
      account = String(decoding: labelUTF8[(colon + 1)...], as: UTF8.self).trimmingASCIIWhitespace()
    } else if !label.isEmpty {
      account = label
    }
    let issuer = issuerParameter ?? labelIssuer.flatMap { $0.isEmpty ? nil : $0 }
    if account?.isEmpty == true { account = nil }
    return OTPConfiguration(generator: generator, issuer: issuer, account: account)
  }

  /// Writes a URI that Google Authenticator, KeePassXC and pyotp read back to the same generator.
  ///
  /// The label is `issuer:account` (or whichever is present), percent-encoded; the secret is unpadded Base32;
  /// `period`, `digits` and `issuer` are always written, `algorithm` only when it is not SHA-1, and Steam Guard
  /// generators get `encoder=steam` (KeePassXC's extension) with `digits=5`.
  public static func format(_ configuration: OTPConfiguration) -> String {
    let generator = configuration.generator
    var label = ""
    // An issuer-only label keeps its colon ("ACME:") so that it is not read back as an account.
    if let issuer = configuration.issuer, !issuer.isEmpty { label = OTPText.percentEncode(issuer) + ":" }
    if let account = configuration.account, !account.isEmpty { label += OTPText.percentEncode(account) }
    var text = "otpauth://"
    switch generator.kind {
    case .totp: text += "totp/"
    case .hotp: text += "hotp/"
    }
    text += label + "?secret=" + Base32.encode(generator.secret, padding: false)
    switch generator.kind {
    case .totp(let period): text += "&period=" + String(period)
    case .hotp(let counter): text += "&counter=" + String(counter)
    }
    switch generator.encoding {
    case .decimal(let digits): text += "&digits=" + String(digits)
    case .steam: text += "&digits=5"
    }
    if let issuer = configuration.issuer, !issuer.isEmpty { text += "&issuer=" + OTPText.percentEncode(issuer) }
    if case .steam = generator.encoding { text += "&encoder=steam" }
    if generator.algorithm != .sha1 { text += "&algorithm=" + OTPText.name(of: generator.algorithm) }
    return text
  }
}
