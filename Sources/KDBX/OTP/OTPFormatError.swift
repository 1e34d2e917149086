/// Why a stored one-time-password setting could not be read or written.
///
/// Secrets never appear in an error: a bad secret is reported by its encoding only.
///
/// ```swift
/// do {
///   let configuration = try OTPAuthURI.parse(scannedText)
///   var random = SystemRandomNumberGenerator()
///   try entry.setOneTimePassword(configuration, random: &random)
/// } catch {
///   switch error {
///   case .notAnOTPAuthURI: show("QR code", "This is not a one-time password code.")
///   default: show("QR code", error.description)  // never contains the secret
///   }
/// }
/// ```
public enum OTPFormatError: Error, Equatable, Sendable {
  /// The text does not start with `otpauth://` (Key Uri Format, "Scheme").
  case notAnOTPAuthURI
  /// The URI type is neither `totp` nor `hotp`.
  case unsupportedType(String)
  /// No secret was found (`secret=`, `key=`, `TOTP Seed`, `TimeOtp-Secret*`, `HmacOtp-Secret*`).
  case missingSecret
  /// The secret is not valid in the named encoding (`base32`, `hex` or `base64`).
  case invalidSecret(encoding: String)
  /// A non-secret parameter could not be understood (for example `digits=abc` or `algorithm=MD5`).
  case invalidParameter(name: String, value: String)
  /// A `%` escape is not followed by two hex digits, or the decoded bytes are not UTF-8 (RFC 3986 §2.1).
  case invalidPercentEncoding
  /// The values were read but are outside what RFC 4226/6238 allow.
  case parameters(OneTimePassword.ParameterError)
  /// Writing: the storage format cannot express this generator (for example Steam codes in KeePass's
  /// `TimeOtp-*` fields, or HOTP in KeePassXC's `TOTP Settings`).
  case unrepresentable(OTPStorageFormat)
}

/// A place where KeePass-family applications keep one-time-password settings in an entry's string fields.
///
/// ```swift
/// var random = SystemRandomNumberGenerator()
/// do {
///   try entry.setOneTimePassword(configuration, formats: .keePassFields, random: &random)
/// } catch .unrepresentable(let format) {
///   show("One-time password", "KeePass 2 cannot store this code (\(format))")
/// }
/// ```
public enum OTPStorageFormat: Sendable, Equatable, Hashable, CaseIterable {
  /// `otp` = `otpauth://totp/...` or `otpauth://hotp/...` (Google Key Uri Format; KeePassXC 2.6+, KeePassDX,
  /// Strongbox, KeePassium).
  case otpauthURI
  /// `otp` = `key=...&step=...&size=...&otpHashMode=...` (the KeeOTP plugin for KeePass 2).
  case keeOTP
  /// `TOTP Seed` + `TOTP Settings` = `period;digits` or `period;S` (KeePassXC before 2.6, "legacy").
  case keePassXCLegacy
  /// `TimeOtp-Secret*`, `TimeOtp-Length`, `TimeOtp-Period`, `TimeOtp-Algorithm` (KeePass 2.47+ TOTP).
  case keePassTimeOTP
  /// `HmacOtp-Secret*`, `HmacOtp-Counter` (KeePass 2.x HOTP, `{HMACOTP}`).
  case keePassHmacOTP
}

/// A generator read from storage, with the label parts an authenticator app shows.
///
/// ```swift
/// if let otp = entry.oneTimePassword() {
///   show(otp.issuer ?? entry.title, otp.account ?? entry.userName)
///   copyToPasteboard(otp.generator.code(at: unixTime))
/// }
/// ```
public struct OTPConfiguration: Sendable, Equatable {
  public var generator: OneTimePassword
  /// The service name (`issuer=` or the part of the URI label before `:`).
  public var issuer: String?
  /// The account name (the URI label after `:`).
  public var account: String?

  public init(generator: OneTimePassword, issuer: String? = nil, account: String? = nil) {
    self.generator = generator
    self.issuer = issuer
    self.account = account
  }
}

extension OTPFormatError: CustomStringConvertible {
  /// What is wrong, in words, naming the parameter and its (non-secret) value; never the secret.
  public var description: String {
    switch self {
    case .notAnOTPAuthURI: return "not an otpauth:// URI"
    case .unsupportedType(let type): return "unsupported OTP type '\(type)' (totp or hotp)"
    case .missingSecret: return "no secret"
    case .invalidSecret(let encoding): return "the secret is not valid \(encoding)"
    case .invalidParameter(let name, let value): return "\(name) '\(value)' is not understood"
    case .invalidPercentEncoding: return "a %-escape is malformed or does not decode to UTF-8"
    case .parameters(let error): return error.description
    case .unrepresentable(let format): return "cannot be stored in \(format.fieldsDescription)"
    }
  }
}

extension OneTimePassword.ParameterError: CustomStringConvertible {
  /// The parameter, its value and the range RFC 4226/6238 (as this library applies them) allow.
  public var description: String {
    switch self {
    case .emptySecret: return "the secret is empty"
    case .digitsOutOfRange(let digits): return "\(digits) digits (must be 6-10)"
    case .periodOutOfRange(let period): return "period \(period) s (must be 1-86400)"
    }
  }
}

extension OTPStorageFormat {
  /// The fields this format uses, as a user sees them in an entry ("the 'TimeOtp-*' fields"), for messages.
  package var fieldsDescription: String {
    switch self {
    case .otpauthURI: return "the 'otp' field"
    case .keeOTP: return "the 'otp' field (KeeOTP)"
    case .keePassXCLegacy: return "the 'TOTP Seed' and 'TOTP Settings' fields"
    case .keePassTimeOTP: return "the 'TimeOtp-*' fields"
    case .keePassHmacOTP: return "the 'HmacOtp-*' fields"
    }
  }
}
