import KDBXCrypto

/// Errors of passkey storage and the WebAuthn authenticator operations. No case carries a secret: a private key
/// problem is described by the key's structure, never its bytes.
public enum PasskeyError: Error, Equatable, Sendable {
  /// The entry has passkey attributes, but not the one named (KeePassXC needs the relying party, the credential
  /// ID and the private key to sign).
  case missingAttribute(String)
  /// An attribute that must be base64url (RFC 4648 §5, as KeePassXC writes credential IDs and user handles) is not.
  case notBase64URL(attribute: String)
  /// The relying party ID is empty, or not a valid domain (WebAuthn Level 3 §5.1.3 step 8, "RP ID").
  case invalidRelyingParty(String)
  /// The user handle is empty or longer than 64 bytes (WebAuthn Level 3 §5.4.3, `user.id`).
  case invalidUserHandle(byteCount: Int)
  /// The credential ID is empty or longer than 1,023 bytes (WebAuthn Level 3 §6.5.1, `credentialIdLength`).
  case invalidCredentialID(byteCount: Int)
  /// The challenge is shorter than 16 or longer than ``WebAuthnClientData/maximumChallengeByteCount`` bytes
  /// (WebAuthn Level 3 §13.4.3 asks for at least 16 random bytes).
  case invalidChallenge(byteCount: Int)
  /// The origin is not `https://host[:port]` (or `http://localhost`), or its host is not the relying party ID or
  /// a subdomain of it (WebAuthn Level 3 §5.1.3 step 8, §13.4.9).
  case originMismatch(origin: String, relyingParty: String)
  /// The private key could not be read or cannot sign (malformed PEM or DER, another curve, an RSA key).
  case key(PublicKeyError)
  /// A COSE key that is not an ES256 EC2 or EdDSA OKP key of RFC 9053.
  case malformedCOSEKey(String)
  /// CBOR that the strict decoder refused.
  case cbor(CBORError)
  /// The algorithm cannot be used for this operation (for example RS256, which this library does not sign with).
  case unsupportedAlgorithm(PasskeyAlgorithm)
}

extension PasskeyError: CustomStringConvertible {
  /// A one-line description.
  public var description: String {
    switch self {
    case .missingAttribute(let name): return "the passkey has no \(name) attribute"
    case .notBase64URL(let name): return "\(name) is not base64url (RFC 4648 §5)"
    case .invalidRelyingParty(let rp):
      return rp.isEmpty ? "the relying party ID is empty" : "'\(rp)' is not a valid relying party ID"
    case .invalidUserHandle(let count): return "a user handle has 1 to 64 bytes, not \(count)"
    case .invalidCredentialID(let count): return "a credential ID has 1 to 1023 bytes, not \(count)"
    case .invalidChallenge(let count):
      return "a challenge has 16 to \(WebAuthnClientData.maximumChallengeByteCount) bytes, not \(count)"
    case .originMismatch(let origin, let rp):
      return "the origin '\(origin)' is not an https origin on the relying party '\(rp)'"
    case .key(let error): return "passkey private key: \(error)"
    case .malformedCOSEKey(let reason): return "malformed COSE key: \(reason)"
    case .cbor(let error): return error.description
    case .unsupportedAlgorithm(let algorithm):
      return "\(algorithm) keys are kept, but this library does not sign with them"
    }
  }
}

/// Base64url without padding (RFC 4648 §5), as WebAuthn (§5.1.3) and KeePassXC
/// (`BrowserMessageBuilder::getBase64FromArray`) write it.
public enum Base64URL {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

  /// The unpadded base64url text of `bytes`.
  public static func encode(_ bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count / 3 * 4 + 4)
    var index = 0
    while index + 3 <= bytes.count {
      let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] { out.append(alphabet[Int(word >> UInt32(shift) & 63)]) }
      index += 3
    }
    let rest = bytes.count - index
    if rest == 1 {
      let word = UInt32(bytes[index]) << 16
      for shift in [18, 12] { out.append(alphabet[Int(word >> UInt32(shift) & 63)]) }
    } else if rest == 2 {
      let word = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
      for shift in [18, 12, 6] { out.append(alphabet[Int(word >> UInt32(shift) & 63)]) }
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Decodes base64url, with or without `=` padding; `nil` for any other character, a length of 1 mod 4, or
  /// non-zero bits after the last byte (the canonical form only, RFC 4648 §3.5). Standard Base64's `+` and `/`
  /// are accepted too, as KeePassXC's reader (`QByteArray::fromBase64`) accepts both alphabets.
  public static func decode(_ text: String) -> [UInt8]? {
    var symbols = Array(text.utf8)
    while symbols.last == UInt8(ascii: "=") { symbols.removeLast() }
    guard symbols.count % 4 != 1, text.utf8.count - symbols.count <= 2 else { return nil }
    var out: [UInt8] = []
    out.reserveCapacity(symbols.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for symbol in symbols {
      let value: UInt32
      switch symbol {
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(symbol - UInt8(ascii: "A"))
      case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(symbol - UInt8(ascii: "a")) + 26
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(symbol - UInt8(ascii: "0")) + 52
      case UInt8(ascii: "-"), UInt8(ascii: "+"): value = 62
      case UInt8(ascii: "_"), UInt8(ascii: "/"): value = 63
      default: return nil
      }
      accumulator = (accumulator << 6 | value) & 0xFFFFFF
      bits += 6
      if bits >= 8 {
        bits -= 8
        out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
      }
    }
    guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
    return out
  }
}
