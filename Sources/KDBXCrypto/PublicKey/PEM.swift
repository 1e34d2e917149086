import KDBXBase

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
    let encoded = Array(Base64.encode(der).utf8)
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

  /// Base64 (RFC 4648 §4), canonical, with spaces, tabs and line breaks skipped (RFC 7468 §3): the shared decoder
  /// (`KDBXBase.Base64`), which reads the text in one pass without a copy of it (the Base64 of a private key is as
  /// secret as the key).
  static func base64Decode(_ text: ArraySlice<UInt8>) throws(PublicKeyError) -> [UInt8] {
    guard let der = Base64.decode(utf8: text, options: Base64.Options(ignoresWhitespace: true)) else {
      throw .malformedPEM(reason: "not canonical Base64 (RFC 4648 §4: the alphabet, padding only at the end)")
    }
    return der
  }
}
