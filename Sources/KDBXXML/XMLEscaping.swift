// The escaping kernel of XMLWriter: copies the UTF-8 of names, text and attribute values into the output,
// replacing what must be escaped (W3C XML 1.0 §2.4, §3.1, §4.1) and refusing (or stripping) what XML 1.0 cannot
// carry (§2.2). Runs of bytes that need nothing are copied in one `append(contentsOf:)`.

/// Escaping contexts.
enum XMLEscapeContext {
  /// Character data: `&`, `<`, `>` (which also covers `]]>`) and `\r` are escaped.
  case text
  /// A double-quoted attribute value: also `"`, and `\t`, `\n`, `\r` as character references so that attribute
  /// value normalization (§3.3.3) gives them back.
  case attribute
  /// Comments, CDATA sections and processing instructions: nothing can be escaped, characters are only checked.
  case raw
}

/// Writer byte classes: 0 = copy, 1 = escape in text and attributes, 2 = escape in attributes only,
/// 3 = forbidden C0 control, 4 = `0xEF` (may start U+FFFE or U+FFFF).
enum XMLEscapeTable {
  // Written once during lazy initialization, read-only afterwards.
  // SAFETY: nonisolated(unsafe) because UnsafePointer is not Sendable: the table is filled inside the lazy
  // initializer, which Swift runs once (swift_once) before any reader sees the pointer, and is never written or
  // freed afterwards (256 entries: every UInt8 value is an index within it).
  nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
      let value: UInt8
      switch byte {
      case 0x26, 0x3C, 0x3E, 0x0D: value = 1
      case 0x22, 0x09, 0x0A: value = 2
      case 0x00...0x1F: value = 3
      case 0xEF: value = 4
      default: value = 0
      }
      // SAFETY: byte is in 0..<256, the allocated capacity.
      table[byte] = value
    }
    return UnsafePointer(table)
  }()

  static let amp: [UInt8] = Array("&amp;".utf8)
  static let lt: [UInt8] = Array("&lt;".utf8)
  static let gt: [UInt8] = Array("&gt;".utf8)
  static let quot: [UInt8] = Array("&quot;".utf8)
  static let tab: [UInt8] = Array("&#x9;".utf8)
  static let lineFeed: [UInt8] = Array("&#xA;".utf8)
  static let carriageReturn: [UInt8] = Array("&#xD;".utf8)
}

extension XMLStreamWriter {
  /// Appends `value` escaped for `context`.
  mutating func appendEscaped(_ value: String, _ context: XMLEscapeContext) throws(XMLError) {
    let failure: UInt32?
    // SAFETY: the string's own UTF-8 (or a local copy's, through withUTF8), read inside the closure only.
    if let result = value.utf8.withContiguousStorageIfAvailable({ bytes in appendEscaped(bytes, context) }) {
      failure = result
    } else {
      var string = value
      failure = string.withUTF8 { bytes in appendEscaped(bytes, context) }
    }
    if let failure { throw XMLError(.unrepresentableCharacter(failure), line: 0, column: 0) }
  }

  /// Returns the first character that cannot be written (when the policy is to throw), or `nil`.
  // SAFETY: `bytes` is lent for the call; reads are at index < count (index + 8 <= count for word loads,
  // unaligned), and the runs flushed are 0 <= runStart <= index <= count.
  private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, _ context: XMLEscapeContext) -> UInt32? {
    let table = escapeClasses
    let count = bytes.count
    let strips = options.invalidCharacters == .strip
    var index = 0
    var runStart = 0
    while index < count {
      // Eight bytes at a time while none needs a look (SWAR tests).
      if let base = bytes.baseAddress {
        while index + 8 <= count {
          // SAFETY: index + 8 <= count.
          let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
          if Self.needsLook(word) { break }
          index += 8
        }
      }
      guard index < count else { break }
      // SAFETY: index < count (guard above); table has 256 entries.
      let byte = bytes[index]
      let byteClass = table[Int(byte)]
      if byteClass == 0 {
        index += 1
        continue
      }
      if byteClass == 4 {
        // U+FFFE is EF BF BE and U+FFFF is EF BF BF; the string is valid UTF-8, so index + 2 < count here.
        // SAFETY: a valid 3-byte sequence starting at index lies within bytes.
        if index + 2 < count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE {
          if !strips { return bytes[index + 2] == 0xBE ? 0xFFFE : 0xFFFF }
          flush(bytes, runStart, index)
          index += 3
          runStart = index
        } else {
          index += 1
        }
        continue
      }
      if byteClass == 3 {
        if !strips { return UInt32(byte) }
        flush(bytes, runStart, index)
        index += 1
        runStart = index
        continue
      }
      if context == .raw || (byteClass == 2 && context == .text) {
        index += 1
        continue
      }
      flush(bytes, runStart, index)
      switch byte {
      case 0x26: buffer.append(XMLEscapeTable.amp)  // &amp;
      case 0x3C: buffer.append(XMLEscapeTable.lt)  // &lt;
      case 0x3E: buffer.append(XMLEscapeTable.gt)  // &gt;
      case 0x22: buffer.append(XMLEscapeTable.quot)  // &quot;
      case 0x09: buffer.append(XMLEscapeTable.tab)  // &#x9;
      case 0x0A: buffer.append(XMLEscapeTable.lineFeed)  // &#xA;
      default: buffer.append(XMLEscapeTable.carriageReturn)  // &#xD;
      }
      index += 1
      runStart = index
    }
    flush(bytes, runStart, count)
    return nil
  }

  /// Whether any byte of `word` is below 0x20, `&`, `<`, `>`, `"` or 0xEF (may start U+FFFE or U+FFFF).
  @inline(__always)
  static func needsLook(_ word: UInt64) -> Bool {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    // Bytes >= 0x80 are excluded from the "below 0x20" test by `~word`.
    let below = (word &- ones &* 0x20) & ~word & highs
    let special =
      below | hasZero(word ^ (ones &* 0x26)) | hasZero(word ^ (ones &* 0x3C)) | hasZero(word ^ (ones &* 0x3E))
      | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0xEF))
    return special != 0
  }

  // SAFETY: the rebased slice start..<end lies in `bytes` (see below) and is copied into the output at once.
  private mutating func flush(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
    if start < end {
      // SAFETY: callers pass 0 <= start <= end <= bytes.count.
      buffer.append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
    }
  }

  /// Appends `name` after checking that it matches the `Name` production (§2.3).
  mutating func appendName(_ name: String) throws(XMLError) {
    let valid: Bool
    // SAFETY: the name's own UTF-8 (or a local copy's), read inside the closure only.
    if let result = name.utf8.withContiguousStorageIfAvailable({ bytes in appendName(bytes, name) }) {
      valid = result
    } else {
      var string = name
      valid = string.withUTF8 { bytes in appendName(bytes, name) }
    }
    if !valid { throw XMLError(.unwritable("the invalid name '\(name)'"), line: 0, column: 0) }
  }

  /// Appends `bytes` (the UTF-8 of `name`) when they form a `Name`; returns whether they did.
  // SAFETY: `bytes` is lent for the call and only iterated (for-in, `first`), then copied into the output.
  private mutating func appendName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
    let table = nameClasses
    guard let first = bytes.first else { return false }
    // SAFETY: table has 256 entries.
    if table[Int(first)] & 1 == 0 && first < 0x80 { return false }
    var ascii = true
    for byte in bytes {
      // SAFETY: table has 256 entries.
      let nameClass = table[Int(byte)]
      if nameClass == 4 {
        ascii = false
      } else if nameClass & 2 == 0 {
        return false
      }
    }
    if !ascii && !XMLCharacters.isName(name) { return false }
    buffer.append(bytes)
    return true
  }
}
