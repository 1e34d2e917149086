/// Small ASCII helpers for parsing text fields with the standard library only.
package enum ASCII {
  /// Space, tab, line feed or carriage return (XML whitespace, XML 1.0 §2.3).
  @inlinable
  package static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
  }

  /// Whether `needle` occurs in `haystack` (a simple scan; inputs are small).
  package static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
    for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
      if haystack[start..<start + needle.count].elementsEqual(needle) { return true }
    }
    return false
  }
}

extension String {
  /// The string without leading and trailing XML whitespace.
  package func trimmingASCIIWhitespace() -> String {
    // Fast path: nothing to trim (the common case for values in KeePass XML), no allocation.
    guard let first = utf8.first, let last = utf8.last, ASCII.isWhitespace(first) || ASCII.isWhitespace(last) else {
      return self
    }
    let bytes = Array(utf8)
    var start = 0
    var end = bytes.count
    while start < end, ASCII.isWhitespace(bytes[start]) { start += 1 }
    while end > start, ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
    if start == 0 && end == bytes.count { return self }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }
}
