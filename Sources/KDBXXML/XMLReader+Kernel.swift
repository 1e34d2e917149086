// The byte-scanning kernel of XMLReader: character data, attribute values, names, UTF-8 validation and
// references. Every function takes the whole input as `p` and an index; every read `p[i]` is preceded by a
// check `i < p.count` (SAFETY comments mark the places where this is not on the same line).

extension XMLReader {
  // ASCII bytes used by the kernel.
  static let lessThan: UInt8 = 0x3C
  static let greaterThan: UInt8 = 0x3E
  static let slash: UInt8 = 0x2F
  static let ampersand: UInt8 = 0x26
  static let semicolon: UInt8 = 0x3B
  static let hash: UInt8 = 0x23
  static let carriageReturn: UInt8 = 0x0D
  static let lineFeed: UInt8 = 0x0A
  static let space: UInt8 = 0x20
  static let tab: UInt8 = 0x09
  static let closeBracket: UInt8 = 0x5D

  /// Character data from `position` up to the next `<` (§2.4). Returns `nil` for white space that
  /// ``Options/keepsWhitespaceText`` says to skip.
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // every read below is at an index checked against `count` first (index + 8 <= count for the word loads).
  @inline(__always)
  mutating func text(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent? {
    let start = position
    let count = p.count
    let table = byteClasses
    var index = start
    var needsDecoding = false
    var nonSpace = false
    // Indentation (line feeds, tabs, spaces) is the most common text of all: skip it eight bytes at a time, then
    // byte by byte, without the table.
    // SAFETY: `base` is p's start; the loads below are unaligned and inside `count` (index + 8 <= count).
    if let base = p.baseAddress {
      while index + 8 <= count {
        // SAFETY: index + 8 <= count.
        let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
        let other = XMLReader.nonIndentationBytes(word)
        if other != 0 {
          index += other.trailingZeroBitCount >> 3
          break
        }
        index += 8
      }
    }
    while index < count {
      // SAFETY: index < count (loop condition).
      let byte = p[index]
      guard byte == 0x0A || byte == 0x09 || byte == 0x20 else { break }
      index += 1
    }
    // SAFETY: index < count is checked before the read.
    let onlyIndentation = index < count && p[index] == XMLReader.lessThan
    scanning: while index < count && !onlyIndentation {
      // Eight bytes at a time while none is a control, '<', '&', ']' or non-ASCII (SWAR tests); the first special
      // byte of a word is found from its mask, and the bytes before it are plain or spaces.
      if let base = p.baseAddress {
        while index + 8 <= count {
          // SAFETY: index + 8 <= count.
          let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
          let special = XMLReader.specialTextBytes(word)
          if special != 0 {
            let prefixBits = special.trailingZeroBitCount & ~7
            if prefixBits != 0 && XMLReader.nonSpaceBytes(word) & ((1 << prefixBits) &- 1) != 0 { nonSpace = true }
            index += prefixBits >> 3
            break
          }
          if word != 0x2020_2020_2020_2020 { nonSpace = true }
          index += 8
        }
      }
      guard index < count else { break }
      // SAFETY: index < count (guard above); table has 256 entries.
      let byte = p[index]
      let byteClass = table[Int(byte)]
      if byteClass == ByteClass.plain {
        nonSpace = true
        index += 1
        continue
      }
      switch byteClass {
      case ByteClass.space:
        index += 1
      case ByteClass.lessThan:
        break scanning
      case ByteClass.ampersand:
        needsDecoding = true
        nonSpace = true
        index += 1
      case ByteClass.carriageReturn:
        needsDecoding = true
        index += 1
      case ByteClass.bracket:
        // SAFETY: both reads are guarded by index + 2 < count.
        if index + 2 < count && p[index + 1] == XMLReader.closeBracket && p[index + 2] == XMLReader.greaterThan {
          throw ScanFailure(.cdataEndInText, index)
        }
        nonSpace = true
        index += 1
      case ByteClass.forbidden:
        throw ScanFailure(.invalidCharacter(UInt32(byte)), index)
      case ByteClass.nonASCII:
        index = try validateUTF8(p, at: index)
        nonSpace = true
      default:
        nonSpace = true
        index += 1
      }
    }
    position = index
    if index - start > options.limits.maximumTokenLength { throw ScanFailure(.limitExceeded(.tokenLength), start) }
    if !nonSpace && !options.keepsWhitespaceText {
      // SAFETY: both reads are guarded by index + 1 < count.
      let endTagFollows = index + 1 < count && p[index] == XMLReader.lessThan && p[index + 1] == XMLReader.slash
      if !(justStarted && endTagFollows) { return nil }
    }
    justStarted = false
    if discardsText {
      // References still have to be checked; text that has any is rare in a KeePass file.
      if needsDecoding { _ = try decode(p, from: start, to: index, references: true, attribute: false) }
      discardedTextCount &+= 1
      return nil
    }
    if needsDecoding { return .text(try decode(p, from: start, to: index, references: true, attribute: false)) }
    return .text(string(p, from: start, to: index))
  }

  /// The high bit of each byte of `word` (little-endian: byte 0 is the first) that is below 0x20, at least 0x80,
  /// `<`, `&` or `]`. Bits above the first such byte may be set for bytes that are not (borrows of the
  /// subtraction); the lowest set bit is always exact.
  @inline(__always)
  static func specialTextBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    @inline(__always) func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
    let below = (word &- ones &* 0x20) & ~word & highs
    return below | (word & highs) | hasZero(word ^ (ones &* 0x3C)) | hasZero(word ^ (ones &* 0x26))
      | hasZero(word ^ (ones &* 0x5D))
  }

  /// The high bit of each byte of `word` that is zero, exactly (no borrow between bytes).
  @inline(__always)
  static func zeroBytes(_ word: UInt64) -> UInt64 {
    let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    return ~(((word & lows) &+ lows) | word | lows)
  }

  /// The high bit of each byte of `word` that is not a space (0x20), exactly.
  @inline(__always)
  static func nonSpaceBytes(_ word: UInt64) -> UInt64 {
    ~zeroBytes(word ^ 0x2020_2020_2020_2020) & 0x8080_8080_8080_8080
  }

  /// The high bit of each byte of `word` that is not a line feed, a tab or a space, exactly.
  @inline(__always)
  static func nonIndentationBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let indentation =
      zeroBytes(word ^ (ones &* 0x0A)) | zeroBytes(word ^ (ones &* 0x09)) | zeroBytes(word ^ (ones &* 0x20))
    return ~indentation & 0x8080_8080_8080_8080
  }

  /// An attribute value; `position` is at its opening quote (§3.1 `AttValue`). Leaves `position` after the closing
  /// quote. The value is normalized as for CDATA attributes (§3.3.3).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // position < count is a precondition (the caller saw the quote), and each later read is guarded `< count`.
  mutating func attributeValue(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> String {
    let count = p.count
    precondition(position < count)
    let quote = p[position]
    let start = position + 1
    let table = byteClasses
    var index = start
    var needsDecoding = false
    while true {
      guard index < count else { throw ScanFailure(.unexpectedEndOfInput, count) }
      // SAFETY: index < count (guard above); table has 256 entries.
      let byte = p[index]
      let byteClass = table[Int(byte)]
      if byteClass == ByteClass.plain {
        index += 1
        continue
      }
      if byte == quote { break }
      switch byteClass {
      case ByteClass.space:
        if byte != XMLReader.space { needsDecoding = true }
        index += 1
      case ByteClass.lessThan:
        throw ScanFailure(.lessThanInAttributeValue, index)
      case ByteClass.ampersand, ByteClass.carriageReturn:
        needsDecoding = true
        index += 1
      case ByteClass.forbidden:
        throw ScanFailure(.invalidCharacter(UInt32(byte)), index)
      case ByteClass.nonASCII:
        index = try validateUTF8(p, at: index)
      default:
        index += 1
      }
    }
    position = index + 1
    if index - start > options.limits.maximumTokenLength { throw ScanFailure(.limitExceeded(.tokenLength), start) }
    if needsDecoding { return try decode(p, from: start, to: index, references: true, attribute: true) }
    return string(p, from: start, to: index)
  }

  /// Scans a `Name` (§2.3) at `position` and leaves `position` after it.
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads are at `start < count` (guard) and `index < count` (loop); the 256-entry table takes any byte.
  mutating func scanName(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) {
    let count = p.count
    let start = position
    guard start < count else { throw ScanFailure(.unexpectedEndOfInput, count) }
    let table = nameClasses
    var index = start
    // SAFETY: index = start < count (guard above); table has 256 entries.
    let first = table[Int(p[index])]
    if first & 1 != 0 {
      index += 1
    } else if first == 4 {
      let (scalar, length) = try decodeScalar(p, at: index)
      guard XMLCharacters.isNameStart(scalar) else { throw ScanFailure(.invalidName, index) }
      index += length
    } else {
      throw ScanFailure(.invalidName, index)
    }
    while index < count {
      // SAFETY: index < count (loop condition).
      let nameClass = table[Int(p[index])]
      if nameClass & 2 != 0 {
        index += 1
      } else if nameClass == 4 {
        let (scalar, length) = try decodeScalar(p, at: index)
        guard XMLCharacters.isNameChar(scalar) else { break }
        index += length
      } else {
        break
      }
    }
    if index - start > options.limits.maximumNameLength { throw ScanFailure(.limitExceeded(.nameLength), start) }
    position = index
  }

  /// Skips `S` (§2.3) at `position`; returns whether there was any.
  @discardableResult
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads only while index < p.count.
  mutating func skipSpaces(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    let start = position
    var index = position
    while index < p.count {
      // SAFETY: index < p.count (loop condition).
      let byte = p[index]
      guard byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D else { break }
      index += 1
    }
    position = index
    return index != start
  }

  /// Checks the UTF-8 sequence (RFC 3629 §4) and `Char` (§2.2) at `index` (a byte `>= 0x80`); returns the index
  /// after it.
  @inline(__always)
  func validateUTF8(_ p: UnsafeBufferPointer<UInt8>, at index: Int) throws(ScanFailure) -> Int {
    let (_, length) = try decodeScalar(p, at: index)
    return index + length
  }

  /// Decodes and checks the UTF-8 sequence at `index` (a byte `>= 0x80`): no overlongs, surrogates, values above
  /// U+10FFFF or truncation (RFC 3629 §4), and a `Char` (§2.2).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // index < count is a precondition, and each continuation byte is read after its `index + k < count` guard.
  func decodeScalar(_ p: UnsafeBufferPointer<UInt8>, at index: Int) throws(ScanFailure) -> (UInt32, Int) {
    let count = p.count
    precondition(index < count)
    let b0 = UInt32(p[index])
    let bad = ScanFailure(.invalidUTF8, index)
    if b0 < 0xC2 || b0 > 0xF4 { throw bad }
    if b0 < 0xE0 {
      guard index + 1 < count else { throw bad }
      // SAFETY: index + 1 < count (guard above).
      let b1 = UInt32(p[index + 1])
      guard b1 & 0xC0 == 0x80 else { throw bad }
      return ((b0 & 0x1F) << 6 | (b1 & 0x3F), 2)
    }
    if b0 < 0xF0 {
      guard index + 2 < count else { throw bad }
      // SAFETY: index + 2 < count (guard above).
      let b1 = UInt32(p[index + 1])
      let b2 = UInt32(p[index + 2])
      let low: UInt32 = b0 == 0xE0 ? 0xA0 : 0x80
      let high: UInt32 = b0 == 0xED ? 0x9F : 0xBF
      guard b1 >= low && b1 <= high && b2 & 0xC0 == 0x80 else { throw bad }
      let scalar = (b0 & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F)
      if scalar >= 0xFFFE { throw ScanFailure(.invalidCharacter(scalar), index) }
      return (scalar, 3)
    }
    guard index + 3 < count else { throw bad }
    // SAFETY: index + 3 < count (guard above).
    let b1 = UInt32(p[index + 1])
    let b2 = UInt32(p[index + 2])
    let b3 = UInt32(p[index + 3])
    let low: UInt32 = b0 == 0xF0 ? 0x90 : 0x80
    let high: UInt32 = b0 == 0xF4 ? 0x8F : 0xBF
    guard b1 >= low && b1 <= high && b2 & 0xC0 == 0x80 && b3 & 0xC0 == 0x80 else { throw bad }
    return ((b0 & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F), 4)
  }

  /// `p[start..<end]` as a `String` (already validated).
  func string(_ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
    precondition(start >= 0 && start <= end && end <= p.count)
    // SAFETY: start...end lies within p (checked above).
    return String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
  }

  /// `p[start..<end]` (already validated) with line endings normalized (§2.11), references decoded (§4.1, §4.6)
  /// when `references` is set, and, for attribute values, white space replaced by spaces (§3.3.3).
  mutating func decode(
    _ p: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, references: Bool, attribute: Bool
  ) throws(ScanFailure) -> String {
    precondition(start >= 0 && start <= end && end <= p.count)
    scratch.removeAll(keepingCapacity: true)
    var index = start
    var runStart = start
    while index < end {
      // SAFETY: index < end <= p.count.
      let byte = p[index]
      if byte == XMLReader.ampersand && references {
        appendRun(p, runStart, index)
        index = try reference(p, at: index, end: end)
        runStart = index
      } else if byte == XMLReader.carriageReturn {
        appendRun(p, runStart, index)
        scratch.append(attribute ? XMLReader.space : XMLReader.lineFeed)
        // SAFETY: index + 1 < end is checked before the read.
        index += index + 1 < end && p[index + 1] == XMLReader.lineFeed ? 2 : 1
        runStart = index
      } else if attribute && (byte == XMLReader.lineFeed || byte == XMLReader.tab) {
        appendRun(p, runStart, index)
        scratch.append(XMLReader.space)
        index += 1
        runStart = index
      } else {
        index += 1
      }
    }
    appendRun(p, runStart, end)
    return String(decoding: scratch, as: UTF8.self)
  }

  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // the rebased slice start..<end is inside it (callers pass start <= end <= p.count) and is copied at once.
  private mutating func appendRun(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) {
    if start < end {
      // SAFETY: callers pass start <= end <= p.count.
      scratch.append(contentsOf: UnsafeBufferPointer(rebasing: p[start..<end]))
    }
  }

  /// Decodes the reference at `index` (`&`) into `scratch`; returns the index after its `;`.
  private mutating func reference(_ p: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) throws(ScanFailure)
    -> Int
  {
    var cursor = index + 1
    guard cursor < end else { throw ScanFailure(.malformed("'&' must start a reference"), index) }
    // SAFETY: cursor < end <= p.count (guard above).
    if p[cursor] == XMLReader.hash {
      cursor += 1
      var radix: UInt32 = 10
      // SAFETY: cursor < end is checked before the read.
      if cursor < end && p[cursor] == 0x78 {
        radix = 16
        cursor += 1
      }
      var value: UInt32 = 0
      let digitsStart = cursor
      while cursor < end {
        // SAFETY: cursor < end (loop condition).
        let byte = p[cursor]
        let digit: UInt32
        switch byte {
        case 0x30...0x39: digit = UInt32(byte - 0x30)
        case 0x61...0x66 where radix == 16: digit = UInt32(byte - 0x61 + 10)
        case 0x41...0x46 where radix == 16: digit = UInt32(byte - 0x41 + 10)
        default: digit = 0xFF
        }
        if digit == 0xFF { break }
        value = min(value * radix + digit, 0x11_0000)
        cursor += 1
      }
      // SAFETY: cursor < end is checked before the read.
      guard cursor > digitsStart, cursor < end, p[cursor] == XMLReader.semicolon, XMLCharacters.isChar(value) else {
        throw ScanFailure(.invalidCharacterReference, index)
      }
      appendUTF8(value)
      return cursor + 1
    }
    let nameStart = cursor
    let saved = position
    position = cursor
    try scanName(p)
    cursor = position
    position = saved
    // SAFETY: cursor < end is checked before the read.
    guard cursor < end, p[cursor] == XMLReader.semicolon else {
      throw ScanFailure(.malformed("expected ';' after an entity name"), index)
    }
    let length = cursor - nameStart
    // SAFETY: nameStart..<cursor lies within p; each read is guarded by the length test before it.
    let n0 = p[nameStart]
    let n1 = length > 1 ? p[nameStart + 1] : 0
    let n2 = length > 2 ? p[nameStart + 2] : 0
    let n3 = length > 3 ? p[nameStart + 3] : 0
    let replacement: UInt8
    switch (length, n0, n1, n2, n3) {
    case (2, 0x6C, 0x74, _, _): replacement = 0x3C  // lt
    case (2, 0x67, 0x74, _, _): replacement = 0x3E  // gt
    case (3, 0x61, 0x6D, 0x70, _): replacement = 0x26  // amp
    case (4, 0x61, 0x70, 0x6F, 0x73): replacement = 0x27  // apos
    case (4, 0x71, 0x75, 0x6F, 0x74): replacement = 0x22  // quot
    default: throw ScanFailure(.undefinedEntity(string(p, from: nameStart, to: cursor)), index)
    }
    scratch.append(replacement)
    return cursor + 1
  }

  private mutating func appendUTF8(_ value: UInt32) {
    if value < 0x80 {
      scratch.append(UInt8(value))
    } else if value < 0x800 {
      scratch.append(UInt8(0xC0 | value >> 6))
      scratch.append(UInt8(0x80 | value & 0x3F))
    } else if value < 0x10000 {
      scratch.append(UInt8(0xE0 | value >> 12))
      scratch.append(UInt8(0x80 | (value >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    } else {
      scratch.append(UInt8(0xF0 | value >> 18))
      scratch.append(UInt8(0x80 | (value >> 12) & 0x3F))
      scratch.append(UInt8(0x80 | (value >> 6) & 0x3F))
      scratch.append(UInt8(0x80 | value & 0x3F))
    }
  }
}
