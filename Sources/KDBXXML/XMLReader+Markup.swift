// The markup part of the XMLReader kernel: the document state machine (§2.1 `document`, `prolog`, `Misc`),
// tags (§3.1), comments (§2.5), CDATA sections (§2.7), processing instructions (§2.6), the XML declaration
// (§2.8) and the document type declaration, which is refused or skipped unread. Reads of `p` are guarded by
// `has(_:at:)`/`matches` or by explicit `< p.count` tests.

extension XMLReader {
  /// Reads up to the next event; `nil` at the end of the document.
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // each read below names its guard (`position < count`, `position + k < count`, or `matches`).
  mutating func scan(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent? {
    if pendingEnd {
      pendingEnd = false
      return closeElement()
    }
    let count = p.count
    while true {
      switch phase {
      case .content:
        guard position < count else {
          throw ScanFailure(.unclosedTag(openElements.last?.name ?? ""), count)
        }
        // SAFETY: position < count (guard above).
        if p[position] != XMLReader.lessThan {
          if let event = try text(p) { return event }
          continue
        }
        guard position + 1 < count else { throw ScanFailure(.unexpectedEndOfInput, count) }
        // SAFETY: position + 1 < count (guard above).
        switch p[position + 1] {
        case XMLReader.slash: return try endTag(p)
        case 0x3F: return try processingInstruction(p)
        case 0x21:
          if matches(p, "<!--") { return try comment(p) }
          if matches(p, "<![CDATA[") { return try cdata(p) }
          throw ScanFailure(.malformed("expected a comment or a CDATA section after '<!'"), position)
        default: return try startTag(p)
        }
      case .start:
        if matches(p, "\u{FEFF}") { position += 3 }
        if matches(p, "<?xml") && position + 5 < count {
          // SAFETY: position + 5 < count (checked above).
          let after = p[position + 5]
          if after == 0x20 || after == 0x09 || after == 0x0A || after == 0x0D || after == 0x3F {
            try declaration(p)
          }
        }
        phase = .prolog
      case .prolog, .epilog:
        skipSpaces(p)
        guard position < count else {
          if phase == .prolog { throw ScanFailure(.missingRoot, count) }
          phase = .finished
          return nil
        }
        // SAFETY: position < count (guard above).
        guard p[position] == XMLReader.lessThan else { throw ScanFailure(.textOutsideRoot, position) }
        if matches(p, "<?") { return try processingInstruction(p) }
        if matches(p, "<!--") { return try comment(p) }
        if matches(p, "<!DOCTYPE") && phase == .prolog {
          try doctype(p)
          continue
        }
        if matches(p, "<!") { throw ScanFailure(.malformed("unexpected '<!'"), position) }
        if phase == .epilog { throw ScanFailure(.multipleRootElements, position) }
        return try startTag(p)
      case .finished:
        return nil
      }
    }
  }

  /// Whether the bytes at `position` spell `literal` (ASCII or UTF-8).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads only after position + length <= p.count.
  func matches(_ p: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
    let length = literal.utf8CodeUnitCount
    guard position + length <= p.count else { return false }
    return literal.withUTF8Buffer { bytes in
      // SAFETY: position + length <= p.count (guard above) and index < length = bytes.count.
      for index in 0..<length where p[position + index] != bytes[index] { return false }
      return true
    }
  }

  @inline(__always)
  private mutating func closeElement() -> XMLEvent {
    precondition(!openElements.isEmpty)
    let element = openElements.removeLast()
    if openElements.isEmpty { phase = .epilog }
    justStarted = false
    return .endElement(name: element.name)
  }

  /// A start tag or empty-element tag (§3.1) at `position` (`<`).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // each read below is after a `position < count` (or `+ 1 < count`) guard, as its note says.
  mutating func startTag(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent {
    let count = p.count
    let tagStart = position
    position += 1
    let nameStart = position
    try scanName(p)
    let nameEnd = position
    let name = names.name(p, from: nameStart, to: nameEnd)
    var attributes: [XMLAttribute] = []
    var isEmpty = false
    if !attributeNameSpans.isEmpty { attributeNameSpans.removeAll(keepingCapacity: true) }
    while true {
      let hadSpace = skipSpaces(p)
      guard position < count else { throw ScanFailure(.unexpectedEndOfInput, count) }
      // SAFETY: position < count (guard above).
      let byte = p[position]
      if byte == XMLReader.greaterThan {
        position += 1
        break
      }
      if byte == XMLReader.slash {
        // SAFETY: position + 1 < count is checked before the read.
        guard position + 1 < count, p[position + 1] == XMLReader.greaterThan else {
          throw ScanFailure(.malformed("expected '>' after '/'"), position)
        }
        position += 2
        isEmpty = true
        break
      }
      guard hadSpace else { throw ScanFailure(.malformed("expected white space before an attribute"), position) }
      let attributeStart = position
      try scanName(p)
      let attributeEnd = position
      skipSpaces(p)
      // SAFETY: position < count is checked before the read.
      guard position < count, p[position] == 0x3D else {
        throw ScanFailure(.malformed("expected '=' after an attribute name"), position)
      }
      position += 1
      skipSpaces(p)
      // SAFETY: position < count is checked before the read.
      guard position < count, p[position] == 0x22 || p[position] == 0x27 else {
        throw ScanFailure(.malformed("expected a quoted attribute value"), position)
      }
      let value = try attributeValue(p)
      if attributes.count >= options.limits.maximumAttributeCount {
        throw ScanFailure(.limitExceeded(.attributeCount), attributeStart)
      }
      let length = attributeEnd - attributeStart
      for span in attributeNameSpans where span.count == length {
        // SAFETY: both spans lie within p (they were scanned from it) and have `length` bytes.
        var same = true
        for offset in 0..<length where p[span.lowerBound + offset] != p[attributeStart + offset] {
          same = false
          break
        }
        if same {
          throw ScanFailure(.duplicateAttribute(string(p, from: attributeStart, to: attributeEnd)), attributeStart)
        }
      }
      attributeNameSpans.append(attributeStart..<attributeEnd)
      attributes.append(XMLAttribute(name: names.name(p, from: attributeStart, to: attributeEnd), value: value))
    }
    if openElements.count >= options.limits.maximumDepth { throw ScanFailure(.limitExceeded(.depth), tagStart) }
    openElements.append(OpenElement(name: name, nameStart: nameStart, nameEnd: nameEnd))
    phase = .content
    pendingEnd = isEmpty
    justStarted = !isEmpty
    return .startElement(name: name, attributes: attributes)
  }

  /// An end tag (§3.1) at `position` (`</`).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // the name comparison reads nameStart..<nameStart + length only after `nameStart + length < p.count`.
  @inline(__always)
  mutating func endTag(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent {
    let tagStart = position
    guard let open = openElements.last else { throw ScanFailure(.malformed("end tag without start tag"), tagStart) }
    let nameStart = position + 2
    let length = open.nameEnd - open.nameStart
    // Fast path: the open element's name followed by '>'. A name cannot contain '>', so the names are equal.
    if nameStart + length < p.count, let base = p.baseAddress {
      // SAFETY: nameStart + length < p.count (checked above), and the open element's name lies within p.
      if p[nameStart + length] == XMLReader.greaterThan
        && (length == 0 || memoryEqual(base + nameStart, base + open.nameStart, length))
      {
        position = nameStart + length + 1
        return closeElement()
      }
    }
    position = nameStart
    try scanName(p)
    let nameEnd = position
    skipSpaces(p)
    // SAFETY: position < p.count is checked before the read.
    guard position < p.count, p[position] == XMLReader.greaterThan else {
      throw ScanFailure(.malformed("expected '>' at the end of an end tag"), position)
    }
    position += 1
    var same = nameEnd - nameStart == length
    if same {
      // SAFETY: both names lie within p and have `length` bytes.
      for offset in 0..<length where p[open.nameStart + offset] != p[nameStart + offset] {
        same = false
        break
      }
    }
    guard same else {
      throw ScanFailure(.mismatchedTag(expected: open.name, found: string(p, from: nameStart, to: nameEnd)), tagStart)
    }
    return closeElement()
  }

  /// Whether `length` bytes at `a` and `b` are equal (both ranges must be readable).
  // SAFETY: callers pass two ranges of `length` readable bytes of the same buffer (endTag checks both end
  // inside p.count); only reads.
  @inline(__always)
  private func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ length: Int) -> Bool {
    var offset = 0
    while offset + 8 <= length {
      // SAFETY: offset + 8 <= length, within both ranges.
      let x = UnsafeRawPointer(a + offset).loadUnaligned(as: UInt64.self)
      let y = UnsafeRawPointer(b + offset).loadUnaligned(as: UInt64.self)
      if x != y { return false }
      offset += 8
    }
    while offset < length {
      // SAFETY: offset < length, within both ranges.
      if a[offset] != b[offset] { return false }
      offset += 1
    }
    return true
  }

  /// Finds `terminator` from `start`, checking that every character before it is a `Char` in valid UTF-8.
  /// Returns the terminator's index and whether a `\r` was seen.
  private func scanDelimited(_ p: UnsafeBufferPointer<UInt8>, from start: Int, until terminator: StaticString)
    throws(ScanFailure) -> (end: Int, hasCarriageReturn: Bool)
  {
    let count = p.count
    let first = terminator.utf8Start.pointee
    let length = terminator.utf8CodeUnitCount
    let table = byteClasses
    var index = start
    var hasCarriageReturn = false
    while index < count {
      // SAFETY: index < count (loop condition).
      let byte = p[index]
      if byte == first && index + length <= count {
        var found = true
        // SAFETY: index + length <= count (checked above); offset < length.
        for offset in 1..<length where p[index + offset] != terminator.utf8Start[offset] {
          found = false
          break
        }
        if found {
          if index - start > options.limits.maximumTokenLength {
            throw ScanFailure(.limitExceeded(.tokenLength), start)
          }
          return (index, hasCarriageReturn)
        }
      }
      switch table[Int(byte)] {
      case ByteClass.forbidden: throw ScanFailure(.invalidCharacter(UInt32(byte)), index)
      case ByteClass.nonASCII: index = try validateUTF8(p, at: index)
      case ByteClass.carriageReturn:
        hasCarriageReturn = true
        index += 1
      default: index += 1
      }
    }
    throw ScanFailure(.unexpectedEndOfInput, count)
  }

  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads are guarded by `matches` or `< count` tests, as the notes inside say.
  private mutating func characters(_ p: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ decodes: Bool)
    throws(ScanFailure) -> String
  {
    decodes ? try decode(p, from: start, to: end, references: false, attribute: false) : string(p, from: start, to: end)
  }

  /// A comment (§2.5) at `position` (`<!--`).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads are guarded by `matches` or `< count` tests, as the notes inside say.
  mutating func comment(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent {
    let start = position + 4
    let (end, hasCarriageReturn) = try scanDelimited(p, from: start, until: "--")
    // SAFETY: end + 2 < p.count is checked before the read.
    guard end + 2 < p.count, p[end + 2] == XMLReader.greaterThan else {
      throw ScanFailure(.malformed("'--' inside a comment"), end)
    }
    position = end + 3
    justStarted = false
    return .comment(try characters(p, start, end, hasCarriageReturn))
  }

  /// A CDATA section (§2.7) at `position` (`<![CDATA[`).
  mutating func cdata(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent {
    let start = position + 9
    let (end, hasCarriageReturn) = try scanDelimited(p, from: start, until: "]]>")
    position = end + 3
    justStarted = false
    return .cdata(try characters(p, start, end, hasCarriageReturn))
  }

  /// A processing instruction (§2.6) at `position` (`<?`).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads are guarded by `matches` or `< count` tests, as the notes inside say.
  mutating func processingInstruction(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) -> XMLEvent {
    let piStart = position
    position += 2
    let targetStart = position
    try scanName(p)
    let targetEnd = position
    if targetEnd - targetStart == 3 {
      // SAFETY: targetStart + 2 < targetEnd <= p.count.
      let lowered = (p[targetStart] | 0x20, p[targetStart + 1] | 0x20, p[targetStart + 2] | 0x20)
      if lowered == (0x78, 0x6D, 0x6C) { throw ScanFailure(.invalidXMLDeclaration, piStart) }
    }
    let target = string(p, from: targetStart, to: targetEnd)
    let hadSpace = skipSpaces(p)
    let dataStart = position
    let (end, hasCarriageReturn) = try scanDelimited(p, from: dataStart, until: "?>")
    guard hadSpace || end == dataStart else {
      throw ScanFailure(.malformed("expected white space after a processing instruction target"), dataStart)
    }
    position = end + 2
    justStarted = false
    return .processingInstruction(target: target, data: try characters(p, dataStart, end, hasCarriageReturn))
  }

  /// Checks and skips the XML declaration (§2.8 `XMLDecl`) at `position` (`<?xml`).
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads are guarded by `matches` or `< count` tests, as the notes inside say.
  mutating func declaration(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) {
    let declarationStart = position
    position += 5
    var seen = 0
    while true {
      let hadSpace = skipSpaces(p)
      if matches(p, "?>") {
        position += 2
        break
      }
      guard hadSpace, position < p.count else { throw ScanFailure(.invalidXMLDeclaration, position) }
      let nameStart = position
      let order: Int
      if matches(p, "version") {
        order = 1
      } else if matches(p, "encoding") {
        order = 2
      } else if matches(p, "standalone") {
        order = 3
      } else {
        throw ScanFailure(.invalidXMLDeclaration, position)
      }
      guard order > seen, order == 1 || seen >= 1 else { throw ScanFailure(.invalidXMLDeclaration, nameStart) }
      seen = order
      position += order == 1 ? 7 : order == 2 ? 8 : 10
      skipSpaces(p)
      guard matches(p, "=") else { throw ScanFailure(.invalidXMLDeclaration, position) }
      position += 1
      skipSpaces(p)
      guard matches(p, "\"") || matches(p, "'") else { throw ScanFailure(.invalidXMLDeclaration, position) }
      let valueStart = position
      let value = try attributeValue(p)
      let bytes = Array(value.utf8)
      switch order {
      case 1:
        // VersionNum ::= '1.' [0-9]+
        let digits = bytes.dropFirst(2)
        guard bytes.starts(with: [0x31, 0x2E]), !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
        else { throw ScanFailure(.invalidXMLDeclaration, valueStart) }
      case 2:
        let lowered = bytes.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        guard lowered == Array("utf-8".utf8) || lowered == Array("utf8".utf8) else {
          throw ScanFailure(.unsupportedEncoding(value), valueStart)
        }
      default:
        guard value == "yes" || value == "no" else { throw ScanFailure(.invalidXMLDeclaration, valueStart) }
      }
    }
    if seen < 1 { throw ScanFailure(.invalidXMLDeclaration, declarationStart) }
  }

  /// Refuses, or skips unread, a document type declaration (§2.8 `doctypedecl`) at `position`.
  // SAFETY: `p` is the document's bytes, lent by next() or withBorrowedInput for the call only (nothing keeps it);
  // reads are guarded by `matches` or `< count` tests, as the notes inside say.
  mutating func doctype(_ p: UnsafeBufferPointer<UInt8>) throws(ScanFailure) {
    guard options.allowsDoctype else { throw ScanFailure(.doctypeNotAllowed, position) }
    let count = p.count
    var index = position + 9
    var quote: UInt8 = 0
    var brackets = 0
    let table = byteClasses
    while index < count {
      // SAFETY: index < count (loop condition).
      let byte = p[index]
      if quote != 0 {
        if byte == quote { quote = 0 }
      } else if byte == 0x22 || byte == 0x27 {
        quote = byte
      } else if byte == 0x5B {
        brackets += 1
      } else if byte == 0x5D {
        brackets -= 1
      } else if byte == XMLReader.greaterThan && brackets <= 0 {
        position = index + 1
        phase = .prolog
        return
      }
      switch table[Int(byte)] {
      case ByteClass.forbidden: throw ScanFailure(.invalidCharacter(UInt32(byte)), index)
      case ByteClass.nonASCII: index = try validateUTF8(p, at: index)
      default: index += 1
      }
    }
    throw ScanFailure(.unexpectedEndOfInput, count)
  }
}
