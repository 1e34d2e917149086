/// UTF-8 checks on raw bytes (RFC 3629 §3-§4): no overlong forms, no surrogates (U+D800-U+DFFF), nothing above
/// U+10FFFF.
package enum UTF8Bytes {
  /// Whether `bytes` are valid UTF-8.
  package static func isValid(_ bytes: [UInt8]) -> Bool {
    var index = 0
    while index < bytes.count {
      guard let length = sequenceLength(bytes, at: index) else { return false }
      index += length
    }
    return true
  }

  /// `bytes` as text; each byte that does not start a valid sequence is given to `escape` and decoding goes on
  /// with the next byte.
  package static func decode(_ bytes: [UInt8], escapingInvalidBytes escape: (UInt8) -> String) -> String {
    var out = ""
    var start = 0
    var index = 0
    while index < bytes.count {
      if let length = sequenceLength(bytes, at: index) {
        index += length
        continue
      }
      if start < index { out += String(decoding: bytes[start..<index], as: UTF8.self) }
      out += escape(bytes[index])
      index += 1
      start = index
    }
    if start < bytes.count { out += String(decoding: bytes[start...], as: UTF8.self) }
    return out
  }

  /// The length of the valid sequence at `index`, or `nil` when the bytes there are not one.
  package static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int? {
    let lead = bytes[index]
    if lead < 0x80 { return 1 }
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      upper = 0x9F
    case 0xF0:
      length = 4
      lower = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      upper = 0x8F
    default: return nil
    }
    guard bytes.count - index >= length else { return nil }
    let second = bytes[index + 1]
    guard second >= lower && second <= upper else { return nil }
    for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return nil }
    return length
  }
}
