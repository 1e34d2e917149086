import KDBXBase

/// Readers and writers for the field-based OTP formats: KeeOTP's query string, KeePassXC's legacy
/// `TOTP Seed`/`TOTP Settings` pair, and KeePass 2.47+'s `TimeOtp-*` and `HmacOtp-*` fields.
///
/// Field names and value syntax are those the applications write (KeePass 2.47 help "One-Time Passwords";
/// KeePassXC `Totp::parseSettings`; KeeOTP's `key=` string).
package enum OTPFieldNames {
  /// `otp`: an `otpauth://` URI or a KeeOTP string.
  package static let otp = "otp"
  /// KeePassXC legacy: the Base32 secret.
  package static let totpSeed = "TOTP Seed"
  /// KeePassXC legacy: `period;digits` or `period;S` (Steam).
  package static let totpSettings = "TOTP Settings"
  /// KeePass TOTP secret fields, in the order KeePass tries them: UTF-8 text, hex, Base32, Base64.
  package static let timeOTPSecrets = [
    "TimeOtp-Secret", "TimeOtp-Secret-Hex", "TimeOtp-Secret-Base32", "TimeOtp-Secret-Base64",
  ]
  package static let timeOTPLength = "TimeOtp-Length"
  package static let timeOTPPeriod = "TimeOtp-Period"
  package static let timeOTPAlgorithm = "TimeOtp-Algorithm"
  /// KeePass HOTP secret fields, in the order KeePass tries them.
  package static let hmacOTPSecrets = [
    "HmacOtp-Secret", "HmacOtp-Secret-Hex", "HmacOtp-Secret-Base32", "HmacOtp-Secret-Base64",
  ]
  package static let hmacOTPCounter = "HmacOtp-Counter"

  /// Every field name any of the formats uses.
  package static let all: [String] =
    [otp, totpSeed, totpSettings] + timeOTPSecrets + [timeOTPLength, timeOTPPeriod, timeOTPAlgorithm]
    + hmacOTPSecrets + [hmacOTPCounter]
}

/// KeeOTP's `key=BASE32&step=30&size=6&otpHashMode=Sha256` string (also `type=hotp&counter=N`).
package enum KeeOTPString {
  /// Whether `text` looks like a KeeOTP string (it has a `key=` item).
  package static func matches(_ text: String) -> Bool {
    guard let items = try? OTPText.queryItems(Array(text.trimmingASCIIWhitespace().utf8)[...]) else { return false }
    return OTPText.value("key", in: items) != nil
  }

  /// Parses the string. Defaults: 30 s, 6 digits, SHA-1, TOTP.
  package static func parse(_ text: String) throws(OTPFormatError) -> OTPConfiguration {
    let items = try OTPText.queryItems(Array(text.trimmingASCIIWhitespace().utf8)[...])
    guard let key = OTPText.value("key", in: items) else { throw .missingSecret }
    let secret = try OTPText.base32Secret(key)
    var digits = 6
    if let size = OTPText.value("size", in: items) { digits = try OTPText.intParameter("size", size) }
    var algorithm = OneTimePassword.Algorithm.sha1
    if let mode = OTPText.value("otpHashMode", in: items) {
      algorithm = try OTPText.algorithm(mode, parameter: "otpHashMode")
    }
    let kind: OneTimePassword.Kind
    if let type = OTPText.value("type", in: items), OTPText.equalsIgnoringCase(type, "hotp") {
      var counter: UInt64 = 0
      if let text = OTPText.value("counter", in: items) {
        guard let value = OTPText.decimal(text) else { throw .invalidParameter(name: "counter", value: text) }
        counter = value
      }
      kind = .hotp(counter: counter)
    } else {
      var step = 30
      if let text = OTPText.value("step", in: items) { step = try OTPText.intParameter("step", text) }
      kind = .totp(period: step)
    }
    return OTPConfiguration(
      generator: try OTPText.make(secret: secret, algorithm: algorithm, encoding: .decimal(digits: digits), kind: kind))
  }
}

/// KeePassXC's legacy pair: `TOTP Seed` (Base32) and `TOTP Settings` (`30;6`, `30;8`, `30;S`).
///
/// KeePassXC reads only two `;`-separated parts and always uses SHA-1 here. A third part naming an algorithm
/// (`30;6;SHA256`, written by some other tools) is accepted; KeePassXC ignores it, so ``format(_:)`` refuses
/// non-SHA-1 generators rather than write a pair KeePassXC would turn into wrong codes.
package enum KeePassXCLegacyOTP {
  /// Parses the pair. A missing `TOTP Settings` means `30;6`. A seed holding an `otpauth://` URI is read as one.
  package static func parse(seed: String, settings: String?) throws(OTPFormatError) -> OTPConfiguration {
    if seed.trimmingASCIIWhitespace().utf8.starts(with: OTPAuthURI.scheme) { return try OTPAuthURI.parse(seed) }
    let secret = try OTPText.base32Secret(seed)
    var period = 30
    var encoding = OneTimePassword.Encoding.decimal(digits: 6)
    var algorithm = OneTimePassword.Algorithm.sha1
    if let settings, !settings.trimmingASCIIWhitespace().isEmpty {
      let parts = Array(settings.utf8).split(separator: 0x3B, omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self).trimmingASCIIWhitespace()
      }
      guard parts.count >= 2, parts.count <= 3 else {
        throw .invalidParameter(name: OTPFieldNames.totpSettings, value: settings)
      }
      period = try OTPText.intParameter("period", parts[0])
      if parts[1] == "S" {
        encoding = .steam
      } else {
        encoding = .decimal(digits: try OTPText.intParameter("digits", parts[1]))
      }
      if parts.count == 3 { algorithm = try OTPText.algorithm(parts[2], parameter: "algorithm") }
    }
    return OTPConfiguration(
      generator: try OTPText.make(secret: secret, algorithm: algorithm, encoding: encoding, kind: .totp(period: period))
    )
  }

  /// The `(seed, settings)` values: unpadded Base32 and `period;digits` or `period;S`.
  package static func format(_ generator: OneTimePassword) throws(OTPFormatError) -> (seed: String, settings: String) {
    guard case .totp(let period) = generator.kind, generator.algorithm == .sha1 else {
      throw .unrepresentable(.keePassXCLegacy)
    }
    let seed = Base32.encode(generator.secret, padding: false)
    switch generator.encoding {
    case .decimal(let digits): return (seed, String(period) + ";" + String(digits))
    case .steam: return (seed, String(period) + ";S")
    }
  }
}

/// KeePass 2.47+'s built-in OTP fields (`TimeOtp-*` for TOTP, `HmacOtp-*` for HOTP).
///
/// The secret is taken from the first present field of `-Secret` (UTF-8 text), `-Secret-Hex`, `-Secret-Base32`,
/// `-Secret-Base64`. TOTP defaults: length 6, period 30, `HMAC-SHA-1`; algorithms are `HMAC-SHA-1`,
/// `HMAC-SHA-256`, `HMAC-SHA-512`. HOTP codes have 6 digits (KeePass's `{HMACOTP}`), counter default 0.
package enum KeePassOTPFields {
  /// Reads the secret from the first present secret field of `names`.
  static func secret(_ names: [String], _ field: (String) -> String?) throws(OTPFormatError) -> [UInt8]? {
    for (index, name) in names.enumerated() {
      guard let text = field(name) else { continue }
      let bytes: [UInt8]?
      switch index {
      case 0: bytes = Array(text.utf8)
      case 1:
        bytes = Hex.decode(utf8: Array(text.utf8).filter { !ASCII.isWhitespace($0) })
        if bytes == nil { throw .invalidSecret(encoding: "hex") }
      case 2: bytes = try OTPText.base32Secret(text)
      default:
        bytes = Base64.decode(text, options: .lenient)
        if bytes == nil { throw .invalidSecret(encoding: "base64") }
      }
      guard let bytes, !bytes.isEmpty else { throw .missingSecret }
      return bytes
    }
    return nil
  }

  /// Whether any `TimeOtp-Secret*` field is present.
  package static func hasTimeOTP(_ field: (String) -> String?) -> Bool {
    OTPFieldNames.timeOTPSecrets.contains { field($0) != nil }
  }

  /// Whether any `HmacOtp-Secret*` field is present.
  package static func hasHmacOTP(_ field: (String) -> String?) -> Bool {
    OTPFieldNames.hmacOTPSecrets.contains { field($0) != nil }
  }

  /// Parses the `TimeOtp-*` fields given a field lookup.
  package static func parseTimeOTP(_ field: (String) -> String?) throws(OTPFormatError) -> OTPConfiguration {
    guard let secret = try secret(OTPFieldNames.timeOTPSecrets, field) else { throw .missingSecret }
    var digits = 6
    if let text = field(OTPFieldNames.timeOTPLength) {
      digits = try OTPText.intParameter(OTPFieldNames.timeOTPLength, text)
    }
    var period = 30
    if let text = field(OTPFieldNames.timeOTPPeriod) {
      period = try OTPText.intParameter(OTPFieldNames.timeOTPPeriod, text)
    }
    var algorithm = OneTimePassword.Algorithm.sha1
    if let text = field(OTPFieldNames.timeOTPAlgorithm) {
      algorithm = try OTPText.algorithm(text, parameter: OTPFieldNames.timeOTPAlgorithm)
    }
    return OTPConfiguration(
      generator: try OTPText.make(
        secret: secret, algorithm: algorithm, encoding: .decimal(digits: digits), kind: .totp(period: period)))
  }

  /// Parses the `HmacOtp-*` fields given a field lookup.
  package static func parseHmacOTP(_ field: (String) -> String?) throws(OTPFormatError) -> OTPConfiguration {
    guard let secret = try secret(OTPFieldNames.hmacOTPSecrets, field) else { throw .missingSecret }
    var counter: UInt64 = 0
    if let text = field(OTPFieldNames.hmacOTPCounter) {
      guard let value = OTPText.decimal(text) else {
        throw .invalidParameter(name: OTPFieldNames.hmacOTPCounter, value: text)
      }
      counter = value
    }
    return OTPConfiguration(
      generator: try OTPText.make(
        secret: secret, algorithm: .sha1, encoding: .decimal(digits: 6), kind: .hotp(counter: counter)))
  }

  /// The fields KeePass reads for `generator`, secret first (to be stored protected): `TimeOtp-Secret-Base32`,
  /// `-Length`, `-Period`, `-Algorithm`, or `HmacOtp-Secret-Base32` and `HmacOtp-Counter`. Steam codes, and HOTP
  /// with other than 6 digits or SHA-1, are not expressible.
  package static func format(_ generator: OneTimePassword) throws(OTPFormatError) -> [(key: String, value: String)] {
    let secret = Base32.encode(generator.secret, padding: false)
    switch (generator.kind, generator.encoding) {
    case (.totp(let period), .decimal(let digits)):
      let algorithm: String
      switch generator.algorithm {
      case .sha1: algorithm = "HMAC-SHA-1"
      case .sha256: algorithm = "HMAC-SHA-256"
      case .sha512: algorithm = "HMAC-SHA-512"
      }
      return [
        (OTPFieldNames.timeOTPSecrets[2], secret), (OTPFieldNames.timeOTPLength, String(digits)),
        (OTPFieldNames.timeOTPPeriod, String(period)), (OTPFieldNames.timeOTPAlgorithm, algorithm),
      ]
    case (.hotp(let counter), .decimal(6)) where generator.algorithm == .sha1:
      return [(OTPFieldNames.hmacOTPSecrets[2], secret), (OTPFieldNames.hmacOTPCounter, String(counter))]
    case (.hotp, _):
      throw .unrepresentable(.keePassHmacOTP)
    case (.totp, .steam):
      throw .unrepresentable(.keePassTimeOTP)
    }
  }
}
