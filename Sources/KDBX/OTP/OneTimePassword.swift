import KDBXCrypto

/// HOTP (RFC 4226) and TOTP (RFC 6238) codes, and Steam Guard's 5-character variant.
///
/// ```swift
/// let secret = Array("12345678901234567890".utf8)  // RFC 6238 appendix B's SHA-1 secret
/// let generator = try OneTimePassword(secret: secret, encoding: .decimal(digits: 8), kind: .totp(period: 30))
/// let code = generator.code(at: 59)                   // "94287082"
/// let remaining = generator.secondsRemaining(at: 59)  // 1: the code changes in one second
/// ```
///
/// From an entry, ``Entry/oneTimePassword()`` reads whichever TOTP fields the entry has (`otp`, KeePassXC's, KeePass
/// 2's). `Tests/KDBXTests/App/DocExampleTests.swift` compiles and runs this example.
public struct OneTimePassword: Equatable, Sendable {
  /// The HMAC hash function (RFC 6238 §1.2 allows SHA-1, SHA-256 and SHA-512).
  ///
  /// ```swift
  /// switch configuration.generator.algorithm {
  /// case .sha1: show("Algorithm", "SHA-1")
  /// case .sha256: show("Algorithm", "SHA-256")
  /// case .sha512: show("Algorithm", "SHA-512")
  /// }
  /// ```
  public enum Algorithm: Equatable, Sendable {
    case sha1
    case sha256
    case sha512
  }

  /// Counter-based or time-based.
  ///
  /// ```swift
  /// switch configuration.generator.kind {
  /// case .totp(let period): show("New code every", "\(period) s")
  /// case .hotp(let counter): show("Counter", "\(counter)")
  /// }
  /// ```
  public enum Kind: Equatable, Sendable {
    /// RFC 4226: the moving factor is a counter the caller keeps.
    case hotp(counter: UInt64)
    /// RFC 6238: the moving factor is `(time - startTime) / period`.
    case totp(period: Int)
  }

  /// How the truncated value becomes text.
  ///
  /// ```swift
  /// let steamGuard = try OneTimePassword(secret: secretBytes, encoding: .steam)
  /// if case .decimal(let digits) = configuration.generator.encoding { show("Digits", "\(digits)") }
  /// ```
  public enum Encoding: Equatable, Sendable {
    /// Decimal digits, 6 to 10 (RFC 4226 §5.3).
    case decimal(digits: Int)
    /// Steam Guard: 5 characters from `23456789BCDFGHJKMNPQRTVWXY`.
    case steam
  }

  /// Why parameters are unusable.
  ///
  /// ```swift
  /// do {
  ///   let generator = try OneTimePassword(secret: secretBytes, encoding: .decimal(digits: 8))
  ///   copyToPasteboard(generator.code(at: unixTime))
  /// } catch {
  ///   show("One-time password", error.description)  // names the parameter, never the secret
  /// }
  /// ```
  public enum ParameterError: Error, Equatable, Sendable {
    case emptySecret
    case digitsOutOfRange(Int)
    case periodOutOfRange(Int)
  }

  /// The shared secret (already decoded from Base32 or hex).
  public var secret: [UInt8]
  public var algorithm: Algorithm
  public var encoding: Encoding
  public var kind: Kind
  /// RFC 6238's T0, in Unix seconds (almost always 0).
  public var startTime: Int64 = 0

  /// Creates a generator after checking the parameters.
  public init(
    secret: [UInt8], algorithm: Algorithm = .sha1, encoding: Encoding = .decimal(digits: 6),
    kind: Kind = .totp(period: 30)
  ) throws(ParameterError) {
    guard !secret.isEmpty else { throw .emptySecret }
    if case .decimal(let digits) = encoding, !(6...10).contains(digits) { throw .digitsOutOfRange(digits) }
    if case .totp(let period) = kind, !(1...86_400).contains(period) { throw .periodOutOfRange(period) }
    self.secret = secret
    self.algorithm = algorithm
    self.encoding = encoding
    self.kind = kind
  }

  /// The TOTP period in seconds, or `nil` for HOTP.
  public var period: Int? {
    if case .totp(let period) = kind { return period }
    return nil
  }

  /// The moving factor at `unixTime`: the HOTP counter, or the TOTP time step.
  package func movingFactor(at unixTime: Int64) -> UInt64 {
    switch kind {
    case .hotp(let counter): return counter
    case .totp(let period):
      let elapsed = elapsedSinceStart(unixTime)
      // Floor division, so that times before T0 do not round toward zero (no overflow: period >= 1).
      var step = elapsed / Int64(period)
      if elapsed % Int64(period) < 0 { step -= 1 }
      return UInt64(bitPattern: step)
    }
  }

  /// The code at `unixTime` (ignored for HOTP, which uses its counter).
  public func code(at unixTime: Int64) -> String {
    code(forMovingFactor: movingFactor(at: unixTime))
  }

  /// The code for an explicit counter or time step (RFC 4226 §5.3).
  package func code(forMovingFactor factor: UInt64) -> String {
    var message = [UInt8](repeating: 0, count: 8)
    for index in 0..<8 { message[index] = UInt8(truncatingIfNeeded: factor >> (56 - 8 * UInt64(index))) }
    let mac: [UInt8]
    switch algorithm {
    case .sha1: mac = HMAC<SHA1>.authenticationCode(for: message, key: secret).bytes
    case .sha256: mac = HMAC<SHA256>.authenticationCode(for: message, key: secret).bytes
    case .sha512: mac = HMAC<SHA512>.authenticationCode(for: message, key: secret).bytes
    }
    // Dynamic truncation: the low nibble of the last byte picks four bytes, top bit cleared.
    let offset = Int(mac[mac.count - 1] & 0x0f)
    let binary =
      UInt32(mac[offset] & 0x7f) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
      | UInt32(mac[offset + 3])
    switch encoding {
    case .decimal(let digits):
      var modulus: UInt64 = 1
      for _ in 0..<digits { modulus *= 10 }
      var text = String(UInt64(binary) % modulus)
      while text.count < digits { text = "0" + text }
      return text
    case .steam:
      let alphabet = Array("23456789BCDFGHJKMNPQRTVWXY")
      var value = Int(binary)
      var text = ""
      for _ in 0..<5 {
        text.append(alphabet[value % alphabet.count])
        value /= alphabet.count
      }
      return text
    }
  }

  /// Seconds until the current TOTP code changes (1...period), for a countdown ring; `nil` for HOTP.
  public func secondsRemaining(at unixTime: Int64) -> Int? {
    guard case .totp(let period) = kind else { return nil }
    let elapsed = elapsedSinceStart(unixTime)
    let intoStep = Int(((elapsed % Int64(period)) + Int64(period)) % Int64(period))
    return period - intoStep
  }

  /// `unixTime - startTime`, saturated at the ends of `Int64` (times that far out have no meaningful code, but must
  /// not trap).
  func elapsedSinceStart(_ unixTime: Int64) -> Int64 {
    let (elapsed, overflow) = unixTime.subtractingReportingOverflow(startTime)
    if !overflow { return elapsed }
    return unixTime < startTime ? Int64.min : Int64.max
  }
}
