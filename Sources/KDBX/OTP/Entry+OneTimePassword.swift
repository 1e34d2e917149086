import KDBXBase

/// One OTP setting found in an entry: where it was stored and what reading it gave.
package struct OTPReading: Sendable, Equatable {
  package var format: OTPStorageFormat
  package var result: Result<OTPConfiguration, OTPFormatError>

  package init(format: OTPStorageFormat, result: Result<OTPConfiguration, OTPFormatError>) {
    self.format = format
    self.result = result
  }
}

/// Where ``Entry/setOneTimePassword(_:formats:random:)`` writes.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// try entry.setOneTimePassword(configuration, formats: .otpauthURI, random: &random)  // the `otp` field only
/// ```
public struct OTPStorageTargets: OptionSet, Sendable {
  public let rawValue: UInt8
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `otp` = `otpauth://...` (KeePassXC 2.6+, KeePassDX, Strongbox, KeePassium, mobile apps).
  public static let otpauthURI = OTPStorageTargets(rawValue: 1)
  /// `TimeOtp-*` or `HmacOtp-*` (KeePass 2.47+).
  public static let keePassFields = OTPStorageTargets(rawValue: 2)
  /// `TOTP Seed` + `TOTP Settings` (KeePassXC before 2.6).
  public static let keePassXCLegacy = OTPStorageTargets(rawValue: 4)
  /// The URI and the KeePass fields, so that KeePass, KeePassXC and mobile apps all show the code.
  public static let interoperable: OTPStorageTargets = [.otpauthURI, .keePassFields]
}

extension Entry {
  /// Every OTP setting stored in the entry, in precedence order, each parsed or with the reason it failed.
  ///
  /// Precedence (first wins in ``oneTimePassword()``):
  /// 1. `otp` (an `otpauth://` URI, else a KeeOTP `key=` string, else a bare Base32 secret with the defaults
  ///    30 s, 6 digits, SHA-1, reported as ``OTPStorageFormat/otpauthURI``);
  /// 2. `TOTP Seed` (+ `TOTP Settings`);
  /// 3. `TimeOtp-Secret*` with `TimeOtp-*`;
  /// 4. `HmacOtp-Secret*` with `HmacOtp-Counter`.
  ///
  /// The `otp` field comes first because it is the only one that carries the algorithm, issuer, account and HOTP
  /// in one place, and it is what current KeePassXC and the mobile apps write. (KeePassXC itself checks
  /// `TOTP Settings` before `otp`; it never writes both, so the order only matters for entries edited by several
  /// applications, where the URI is the most recently written one in practice.) A format that is present but
  /// malformed does not hide a valid one further down.
  package func oneTimePasswordReadings() -> [OTPReading] {
    let lookup: (String) -> String? = { self[field: $0]?.reveal() }
    var readings: [OTPReading] = []
    if let otp = lookup(OTPFieldNames.otp), !otp.trimmingASCIIWhitespace().isEmpty {
      if otp.trimmingASCIIWhitespace().utf8.starts(with: OTPAuthURI.scheme)
        || OTPText.equalsIgnoringCase(String(otp.trimmingASCIIWhitespace().prefix(10)), "otpauth://")
      {
        readings.append(
          OTPReading(format: .otpauthURI, result: Result { () throws(OTPFormatError) in try OTPAuthURI.parse(otp) }))
      } else if KeeOTPString.matches(otp) {
        readings.append(
          OTPReading(format: .keeOTP, result: Result { () throws(OTPFormatError) in try KeeOTPString.parse(otp) }))
      } else {
        readings.append(
          OTPReading(
            format: .otpauthURI,
            result: Result { () throws(OTPFormatError) in
              try KeePassXCLegacyOTP.parse(seed: otp, settings: nil)
            }))
      }
    }
    if let seed = lookup(OTPFieldNames.totpSeed) {
      let settings = lookup(OTPFieldNames.totpSettings)
      readings.append(
        OTPReading(
          format: .keePassXCLegacy,
          result: Result { () throws(OTPFormatError) in try KeePassXCLegacyOTP.parse(seed: seed, settings: settings) }))
    }
    if KeePassOTPFields.hasTimeOTP(lookup) {
      readings.append(
        OTPReading(
          format: .keePassTimeOTP,
          result: Result { () throws(OTPFormatError) in try KeePassOTPFields.parseTimeOTP(lookup) }))
    }
    if KeePassOTPFields.hasHmacOTP(lookup) {
      readings.append(
        OTPReading(
          format: .keePassHmacOTP,
          result: Result { () throws(OTPFormatError) in try KeePassOTPFields.parseHmacOTP(lookup) }))
    }
    return readings
  }

  /// The entry's one-time password: the first valid OTP setting in precedence order (`otp`, KeePassXC's
  /// `TOTP Seed`/`TOTP Settings`, KeePass 2's `TimeOtp-*`, then `HmacOtp-*`), with issuer and account where the
  /// format stores them, or `nil` when the entry has none (or none that parses).
  ///
  /// ```swift
  /// if let otp = entry.oneTimePassword() {
  ///   let code = otp.generator.code(at: unixTime)
  /// }
  /// ```
  public func oneTimePassword() -> OTPConfiguration? {
    for reading in oneTimePasswordReadings() {
      if case .success(let configuration) = reading.result { return configuration }
    }
    return nil
  }

  /// Removes every OTP field of every format.
  public mutating func removeOneTimePassword() {
    fields.removeAll { OTPFieldNames.all.contains($0.key) }
  }

  /// Replaces the entry's OTP settings: every OTP field of every format is removed, then `configuration` is
  /// written to each of `targets`. Secrets (`otp`, `TOTP Seed`, `*-Secret-Base32`) are stored protected; the
  /// other settings plain. A missing issuer or account in the URI label is filled from `Title`/`UserName`.
  ///
  /// Throws ``OTPFormatError/unrepresentable(_:)`` (and changes nothing) when a target cannot express the
  /// generator, for example Steam codes in KeePass's `TimeOtp-*` fields; the URI can express every generator.
  public mutating func setOneTimePassword(
    _ configuration: OTPConfiguration, formats targets: OTPStorageTargets = .interoperable,
    random: inout some RandomNumberGenerator
  ) throws(OTPFormatError) {
    var written: [(key: String, value: String, protected: Bool)] = []
    if targets.contains(.otpauthURI) {
      var labelled = configuration
      if labelled.issuer == nil, let title = self[field: Entry.titleField]?.reveal(), !title.isEmpty {
        labelled.issuer = title
      }
      if labelled.account == nil, let user = self[field: Entry.userNameField]?.reveal(), !user.isEmpty {
        labelled.account = user
      }
      written.append((OTPFieldNames.otp, OTPAuthURI.format(labelled), true))
    }
    if targets.contains(.keePassFields) {
      for (index, field) in try KeePassOTPFields.format(configuration.generator).enumerated() {
        written.append((field.key, field.value, index == 0))
      }
    }
    if targets.contains(.keePassXCLegacy) {
      let pair = try KeePassXCLegacyOTP.format(configuration.generator)
      written.append((OTPFieldNames.totpSeed, pair.seed, true))
      written.append((OTPFieldNames.totpSettings, pair.settings, false))
    }
    removeOneTimePassword()
    for field in written {
      self[field: field.key] =
        field.protected ? .protected(ProtectedValue(field.value, using: &random)) : .plain(field.value)
    }
  }
}
