/// PEM text (RFC 7468): one `-----BEGIN label-----` ... `-----END label-----` block around Base64 (RFC 4648 §4)
/// of DER bytes.
///
/// Reading follows RFC 7468 §3's strict-but-liberal rules: text before the block is ignored, whitespace and line
/// breaks inside the Base64 are ignored, the END label must equal the BEGIN label, and the Base64 must be
/// canonical (only the alphabet, padding only at the end). Writing uses 64-character lines (§2).
public enum PEM {
  /// The largest PEM text read (1 MiB): keys are a few hundred bytes.
  public static let maximumByteCount = 1 << 20

  /// Finds the first PEM block in `text` and returns its label and its decoded bytes.
  public static func decode(_ text: String) throws(PublicKeyError) -> (label: String, der: [UInt8]) {
    let bytes = Array(text.utf8)
    guard bytes.count <= maximumByteCount else { throw .malformedPEM(reason: "longer than \(maximumByteCount) bytes") }
    let begin = Array("-----BEGIN ".utf8)
    let dashes = Array("-----".utf8)
    guard let beginStart = find(begin, in: bytes, from: 0) else { throw .malformedPEM(reason: "no BEGIN line") }
    let labelStart = beginStart + begin.count
    guard let labelEnd = find(dashes, in: bytes, from: labelStart) else {
      throw .malformedPEM(reason: "unterminated BEGIN line")
    }
    let label = Array(bytes[labelStart..<labelEnd])
    guard label.allSatisfy({ $0 >= 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "-") }) else {
      throw .malformedPEM(reason: "bad label")
    }
    let end = Array("-----END ".utf8) + label + dashes
    let bodyStart = labelEnd + dashes.count
    guard let bodyEnd = find(end, in: bytes, from: bodyStart) else {
      throw .malformedPEM(reason: "no END line for \(String(decoding: label, as: UTF8.self))")
    }
    let der = try base64Decode(bytes[bodyStart..<bodyEnd])
    return (String(decoding: label, as: UTF8.self), der)
  }

  /// Wraps `der` as PEM with `label`, 64 Base64 characters a line, ending with a line break (RFC 7468 §2).
  public static func encode(label: String, der: [UInt8]) -> String {
    let encoded = base64Encode(der)
    var text = "-----BEGIN \(label)-----\n"
    var index = 0
    while index < encoded.count {
      let end = min(index + 64, encoded.count)
      text += String(decoding: encoded[index..<end], as: UTF8.self) + "\n"
      index = end
    }
    return text + "-----END \(label)-----\n"
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
    var index = start
    while index <= haystack.count - needle.count {
      if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }

  static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

  /// Base64 (RFC 4648 §4) with padding.
  static func base64Encode(_ bytes: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index < bytes.count {
      let count = min(3, bytes.count - index)
      let b0 = UInt32(bytes[index])
      let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
      let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
      let group = b0 << 16 | b1 << 8 | b2
      out.append(alphabet[Int((group >> 18) & 63)])
      out.append(alphabet[Int((group >> 12) & 63)])
      out.append(count > 1 ? alphabet[Int((group >> 6) & 63)] : UInt8(ascii: "="))
      out.append(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
      index += 3
    }
    return out
  }

  static func base64Value(_ character: UInt8) -> UInt32? {
    switch character {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"): return UInt32(character - UInt8(ascii: "A"))
    case UInt8(ascii: "a")...UInt8(ascii: "z"): return UInt32(character - UInt8(ascii: "a")) + 26
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(character - UInt8(ascii: "0")) + 52
    case UInt8(ascii: "+"): return 62
    case UInt8(ascii: "/"): return 63
    default: return nil
    }
  }

  /// Strict Base64 decoding; spaces, tabs and line breaks are skipped (RFC 7468 §3).
  static func base64Decode(_ text: ArraySlice<UInt8>) throws(PublicKeyError) -> [UInt8] {
    var symbols: [UInt8] = []
    symbols.reserveCapacity(text.count)
    defer { SecureBytes.wipe(&symbols) }  // the Base64 of a private key is as secret as the key
    for character in text where !(character == 0x20 || character == 0x09 || character == 0x0a || character == 0x0d) {
      symbols.append(character)
    }
    guard symbols.count % 4 == 0 else { throw .malformedPEM(reason: "Base64 length is not a multiple of 4") }
    var out: [UInt8] = []
    out.reserveCapacity(symbols.count / 4 * 3)
    var index = 0
    while index < symbols.count {
      let isLast = index + 4 == symbols.count
      var group: UInt32 = 0
      var padding = 0
      for offset in 0..<4 {
        let character = symbols[index + offset]
        if character == UInt8(ascii: "=") {
          guard isLast, offset >= 2 else { throw .malformedPEM(reason: "misplaced Base64 padding") }
          padding += 1
          group <<= 6
        } else {
          guard padding == 0, let value = base64Value(character) else {
            throw .malformedPEM(reason: "character outside the Base64 alphabet")
          }
          group = group << 6 | value
        }
      }
      // Canonical encoding: the bits under the padding are zero (RFC 4648 §3.5).
      if padding == 2, group & 0xffff != 0 { throw .malformedPEM(reason: "non-canonical Base64") }
      if padding == 1, group & 0xff != 0 { throw .malformedPEM(reason: "non-canonical Base64") }
      out.append(UInt8(truncatingIfNeeded: group >> 16))
      if padding < 2 { out.append(UInt8(truncatingIfNeeded: group >> 8)) }
      if padding < 1 { out.append(UInt8(truncatingIfNeeded: group)) }
      index += 4
    }
    return out
  }
}
