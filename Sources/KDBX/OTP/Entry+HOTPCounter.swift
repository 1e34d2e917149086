extension Entry {
  /// Moves every stored HOTP counter of the entry one step on, after a code was used (RFC 4226 §7.2: the
  /// counter advances with each generated value; KeePass does the same for `{HMACOTP}`).
  ///
  /// `HmacOtp-Counter` is incremented; an `otpauth://hotp` URI in `otp` is rewritten with `counter` + 1 (unknown
  /// URI parameters are not kept). Fields keep their protection. Returns whether any counter moved; TOTP-only
  /// and unreadable settings are left alone.
  @discardableResult
  public mutating func advanceHOTPCounter(random: inout some RandomNumberGenerator) -> Bool {
    var advanced = false
    for reading in oneTimePasswordReadings() {
      guard case .success(var configuration) = reading.result,
        case .hotp(let counter) = configuration.generator.kind, counter < UInt64.max
      else { continue }
      configuration.generator.kind = .hotp(counter: counter + 1)
      let key: String
      let value: String
      switch reading.format {
      case .keePassHmacOTP:
        key = OTPFieldNames.hmacOTPCounter
        value = String(counter + 1)
      case .otpauthURI:
        key = OTPFieldNames.otp
        value = OTPAuthURI.format(configuration)
      default:
        continue
      }
      let isProtected = self[field: key]?.isProtected ?? false
      self[field: key] = isProtected ? .protected(ProtectedValue(value, using: &random)) : .plain(value)
      advanced = true
    }
    return advanced
  }
}
