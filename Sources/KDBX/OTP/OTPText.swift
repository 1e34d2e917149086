import KDBXBase

/// Text helpers shared by the OTP storage formats: percent-decoding (RFC 3986 §2.1), query strings, decimal
/// numbers and algorithm names. Everything works on UTF-8 bytes and never traps on input.
enum OTPText {
  /// RFC 3986 §2.3 unreserved characters, which percent-encoding leaves as they are.
  static func isUnreserved(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
      || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
  }

  /// Decodes `%XX` escapes (RFC 3986 §2.1). `+` stays a plus sign, as in Qt's `QUrlQuery` that KeePassXC uses.
  static func percentDecode(_ bytes: ArraySlice<UInt8>) throws(OTPFormatError) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == 0x25 {
        guard index + 2 < bytes.endIndex, let high = Hex.value(of: bytes[index + 1]),
          let low = Hex.value(of: bytes[index + 2])
        else { throw .invalidPercentEncoding }
        out.append(high << 4 | low)
        index += 3
      } else {
        out.append(byte)
        index += 1
      }
    }
    guard let text = String(validating: out, as: UTF8.self) else { throw .invalidPercentEncoding }
    return text
  }

  /// Percent-encodes every byte that is not unreserved (RFC 3986 §2.1, uppercase hex digits).
  static func percentEncode(_ text: String) -> String {
    var out = [UInt8]()
    for byte in text.utf8 {
      if isUnreserved(byte) {
        out.append(byte)
      } else {
        out.append(0x25)
        Hex.append(byte, to: &out, uppercase: true)
      }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Splits `name=value&name=value` and percent-decodes both sides. Empty items are skipped; a later duplicate
  /// name does not replace an earlier one (first wins, as `QUrlQuery.queryItemValue` does).
  static func queryItems(_ bytes: ArraySlice<UInt8>) throws(OTPFormatError) -> [(name: String, value: String)] {
    var items: [(name: String, value: String)] = []
    for part in bytes.split(separator: 0x26, omittingEmptySubsequences: true) {
      let name: String
      let value: String
      if let equals = part.firstIndex(of: 0x3D) {
        name = try percentDecode(part[part.startIndex..<equals])
        value = try percentDecode(part[(equals + 1)...])
      } else {
        name = try percentDecode(part)
        value = ""
      }
      items.append((name, value))
    }
    return items
  }

  /// The value of the first item named `name` (ASCII case-insensitive).
  static func value(_ name: String, in items: [(name: String, value: String)]) -> String? {
    items.first { equalsIgnoringCase($0.name, name) }?.value
  }

  /// ASCII case-insensitive equality.
  static func equalsIgnoringCase(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf8.elementsEqual(rhs.utf8) { lowercase($0) == lowercase($1) }
  }

  @inline(__always)
  static func lowercase(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

  /// A non-negative decimal with at most 18 digits, surrounding whitespace ignored; `nil` otherwise.
  static func decimal(_ text: String) -> UInt64? {
    let bytes = Array(text.trimmingASCIIWhitespace().utf8)
    guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
    var value: UInt64 = 0
    for byte in bytes {
      guard byte >= 0x30 && byte <= 0x39 else { return nil }
      value = value * 10 + UInt64(byte - 0x30)
    }
    return value
  }

  /// A decimal parameter that must fit an `Int`, or a typed error naming it.
  static func intParameter(_ name: String, _ text: String) throws(OTPFormatError) -> Int {
    guard let value = decimal(text), value <= UInt64(Int32.max) else {
      throw .invalidParameter(name: name, value: text)
    }
    return Int(value)
  }

  /// Reads an HMAC algorithm name in any spelling used by these formats: `SHA1`, `sha256`, `SHA-512`,
  /// `HMAC-SHA-256` (KeePass), `HMACSHA1`, `Sha512` (KeeOTP). Unknown names are an error rather than a silent
  /// SHA-1, so that a wrong code is never shown.
  static func algorithm(_ name: String, parameter: String) throws(OTPFormatError) -> OneTimePassword.Algorithm {
    var normalized = [UInt8]()
    for byte in name.trimmingASCIIWhitespace().utf8 where byte != 0x2D && byte != 0x5F {
      normalized.append(lowercase(byte))
    }
    if normalized.starts(with: Array("hmac".utf8)) { normalized.removeFirst(4) }
    switch String(decoding: normalized, as: UTF8.self) {
    case "sha1": return .sha1
    case "sha256": return .sha256
    case "sha512": return .sha512
    default: throw .invalidParameter(name: parameter, value: name)
    }
  }

  /// Decodes a Base32 secret leniently (case, spaces, hyphens, padding; see ``Base32/decodeLenient(_:)``).
  static func base32Secret(_ text: String) throws(OTPFormatError) -> [UInt8] {
    guard let secret = Base32.decodeLenient(text) else { throw .invalidSecret(encoding: "base32") }
    guard !secret.isEmpty else { throw .missingSecret }
    return secret
  }

  /// Builds the generator, mapping parameter errors.
  static func make(
    secret: [UInt8], algorithm: OneTimePassword.Algorithm, encoding: OneTimePassword.Encoding,
    kind: OneTimePassword.Kind
  ) throws(OTPFormatError) -> OneTimePassword {
    do {
      return try OneTimePassword(secret: secret, algorithm: algorithm, encoding: encoding, kind: kind)
    } catch {
      throw .parameters(error)
    }
  }

  /// The name these formats use for an algorithm (`SHA1`, `SHA256`, `SHA512`).
  static func name(of algorithm: OneTimePassword.Algorithm) -> String {
    switch algorithm {
    case .sha1: return "SHA1"
    case .sha256: return "SHA256"
    case .sha512: return "SHA512"
    }
  }
}
