import KDBXBase

/// A JSON value read by ``JSONReader`` (RFC 8259). Object members keep their order; numbers keep their text (a
/// number too large for any integer type is still a valid JSON number, read as text and never overflowed).
///
/// Not `indirect`: arrays and objects already hold their items in a heap buffer, so a value is stored inline
/// (24 bytes) rather than in a box of its own per value, which made a document of many small values cost about
/// twice as much memory.
enum JSON {
  case null
  case bool(Bool)
  case number(String)
  case string(String)
  case array([JSON])
  case object([(key: String, value: JSON)])

  /// The member `key` of an object (the last one when the key repeats, as most readers do), or `nil`.
  subscript(key: String) -> JSON? {
    guard case .object(let members) = self else { return nil }
    return members.last { $0.key == key }?.value
  }

  /// The text of a string value; `nil` for anything else (`null` included).
  var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// A number or a string of digits as an integer, when it is one that fits.
  var integer: Int? {
    switch self {
    case .number(let text), .string(let text): return Int(text)
    default: return nil
    }
  }

  var bool: Bool? {
    if case .bool(let flag) = self { return flag }
    return nil
  }

  /// The items of an array; `nil` for anything else.
  var array: [JSON]? {
    if case .array(let items) = self { return items }
    return nil
  }

  var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// Scalars as text (strings as they are, numbers as written, booleans as `true`/`false`); `nil` for `null`,
  /// arrays and objects.
  var text: String? {
    switch self {
    case .string(let text), .number(let text): return text
    case .bool(let flag): return flag ? "true" : "false"
    default: return nil
    }
  }
}

/// Why a JSON text was refused, and where: the byte offset, line and column (1-based) of the problem.
struct JSONError: Error {
  var offset: Int
  var line: Int
  var column: Int
  var reason: String

  var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
}

/// A bounded JSON reader (RFC 8259) for the imports of other managers' exports: strict grammar, UTF-8 checked,
/// escapes checked (surrogate pairs must pair), and every size limited before it is spent: the input's size, the
/// nesting depth (recursion is bounded by it), each string's and number's length, and the number of values.
struct JSONReader {
  struct Limits {
    var maxInputBytes = 128 << 20
    var maxDepth = 64
    var maxStringBytes = 16 << 20
    var maxNumberLength = 64
    var maxValues = 4_000_000
  }

  private let bytes: [UInt8]
  private let limits: Limits
  private var position = 0
  private var values = 0

  private init(_ bytes: [UInt8], limits: Limits) {
    self.bytes = bytes
    self.limits = limits
  }

  /// The one JSON value that `bytes` hold (a UTF-8 byte order mark and white space around it are allowed).
  static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONError) -> JSON {
    var reader = JSONReader(bytes, limits: limits)
    guard bytes.count <= limits.maxInputBytes else {
      throw reader.error("the text is \(bytes.count) bytes, over the limit of \(limits.maxInputBytes)", at: 0)
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
    reader.skipSpace()
    let value = try reader.value(depth: 0)
    reader.skipSpace()
    guard reader.position == bytes.count else { throw reader.error("text after the end of the JSON value") }
    return value
  }

  private func error(_ reason: String, at offset: Int? = nil) -> JSONError {
    let at = min(offset ?? position, bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<at where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    // Columns count characters, not bytes (UTF-8 continuation bytes are skipped).
    var column = 1
    for index in lineStart..<at where bytes[index] & 0xC0 != 0x80 { column += 1 }
    return JSONError(offset: at, line: line, column: column, reason: reason)
  }

  private mutating func skipSpace() {
    while position < bytes.count {
      switch bytes[position] {
      case 0x20, 0x09, 0x0A, 0x0D: position += 1
      default: return
      }
    }
  }

  private mutating func value(depth: Int) throws(JSONError) -> JSON {
    values += 1
    guard values <= limits.maxValues else { throw error("more than \(limits.maxValues) values") }
    guard position < bytes.count else { throw error("the text ends where a value was expected") }
    switch bytes[position] {
    case 0x7B: return try object(depth: depth + 1)
    case 0x5B: return try array(depth: depth + 1)
    case 0x22: return .string(try string())
    case 0x74: return try literal("true", .bool(true))
    case 0x66: return try literal("false", .bool(false))
    case 0x6E: return try literal("null", .null)
    case 0x2D, 0x30...0x39: return .number(try number())
    default: throw error("unexpected \(describe(bytes[position])) where a value was expected")
    }
  }

  private func describe(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + Hex.encode([byte])
  }

  private mutating func literal(_ word: String, _ result: JSON) throws(JSONError) -> JSON {
    let expected = Array(word.utf8)
    guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected)
    else { throw error("invalid literal (expected \(word))") }
    position += expected.count
    return result
  }

  private mutating func nest(_ depth: Int) throws(JSONError) {
    guard depth <= limits.maxDepth else { throw error("nested more than \(limits.maxDepth) levels deep") }
  }

  private mutating func object(depth: Int) throws(JSONError) -> JSON {
    try nest(depth)
    position += 1
    var members: [(key: String, value: JSON)] = []
    skipSpace()
    if position < bytes.count, bytes[position] == 0x7D {
      position += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard position < bytes.count else { throw error("the text ends inside an object") }
      guard bytes[position] == 0x22 else {
        throw error("unexpected \(describe(bytes[position])) where an object key (a string) was expected")
      }
      let key = try string()
      skipSpace()
      guard position < bytes.count else { throw error("the text ends inside an object") }
      guard bytes[position] == 0x3A else { throw error("expected ':' after the object key \"\(key)\"") }
      position += 1
      skipSpace()
      members.append((key, try value(depth: depth)))
      skipSpace()
      guard position < bytes.count else { throw error("the text ends inside an object") }
      if bytes[position] == 0x2C {
        position += 1
        continue
      }
      guard bytes[position] == 0x7D else { throw error("expected ',' or '}' in an object") }
      position += 1
      return .object(members)
    }
  }

  private mutating func array(depth: Int) throws(JSONError) -> JSON {
    try nest(depth)
    position += 1
    var items: [JSON] = []
    skipSpace()
    if position < bytes.count, bytes[position] == 0x5D {
      position += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value(depth: depth))
      skipSpace()
      guard position < bytes.count else { throw error("the text ends inside an array") }
      if bytes[position] == 0x2C {
        position += 1
        continue
      }
      guard bytes[position] == 0x5D else { throw error("expected ',' or ']' in an array") }
      position += 1
      return .array(items)
    }
  }

  /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, kept as text.
  private mutating func number() throws(JSONError) -> String {
    let start = position
    func digits() -> Int {
      let first = position
      while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
      return position - first
    }
    if bytes[position] == 0x2D { position += 1 }
    let integerStart = position
    guard digits() > 0 else { throw error("a number needs digits", at: integerStart) }
    if bytes[integerStart] == 0x30, position - integerStart > 1 {
      throw error("a number may not start with 0", at: integerStart)
    }
    if position < bytes.count, bytes[position] == 0x2E {
      position += 1
      guard digits() > 0 else { throw error("a number needs digits after '.'") }
    }
    if position < bytes.count, bytes[position] == 0x65 || bytes[position] == 0x45 {
      position += 1
      if position < bytes.count, bytes[position] == 0x2B || bytes[position] == 0x2D { position += 1 }
      guard digits() > 0 else { throw error("a number needs digits in its exponent") }
    }
    guard position - start <= limits.maxNumberLength else {
      throw error("a number of \(position - start) characters, over the limit of \(limits.maxNumberLength)", at: start)
    }
    return String(decoding: bytes[start..<position], as: UTF8.self)
  }

  /// A string: escapes decoded, UTF-8 checked, control characters refused.
  private mutating func string() throws(JSONError) -> String {
    let start = position
    position += 1
    var out: [UInt8] = []
    var plainStart = position
    func checkLength(_ count: Int) throws(JSONError) {
      guard count <= limits.maxStringBytes else {
        throw error("a string over the limit of \(limits.maxStringBytes) bytes", at: start)
      }
    }
    while true {
      guard position < bytes.count else { throw error("the text ends inside a string", at: start) }
      let byte = bytes[position]
      if byte == 0x22 {
        out.append(contentsOf: bytes[plainStart..<position])
        try checkLength(out.count)
        position += 1
        break
      }
      if byte < 0x20 {
        throw error("a control character (0x\(Hex.encode([byte]))) inside a string: it must be escaped")
      }
      if byte != 0x5C {
        position += 1
        continue
      }
      out.append(contentsOf: bytes[plainStart..<position])
      try checkLength(out.count)
      position += 1
      guard position < bytes.count else { throw error("the text ends inside a string", at: start) }
      let escape = bytes[position]
      position += 1
      switch escape {
      case 0x22, 0x5C, 0x2F: out.append(escape)
      case 0x62: out.append(0x08)
      case 0x66: out.append(0x0C)
      case 0x6E: out.append(0x0A)
      case 0x72: out.append(0x0D)
      case 0x74: out.append(0x09)
      case 0x75:
        let escapeStart = position - 2
        var code = try hex4()
        if (0xD800...0xDBFF).contains(code) {
          guard bytes.count - position >= 6, bytes[position] == 0x5C, bytes[position + 1] == 0x75 else {
            throw error("a \\u escape of a high surrogate without its low surrogate", at: escapeStart)
          }
          position += 2
          let low = try hex4()
          guard (0xDC00...0xDFFF).contains(low) else {
            throw error("a \\u escape of a high surrogate without its low surrogate", at: escapeStart)
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00...0xDFFF).contains(code) {
          throw error("a \\u escape of a lone low surrogate", at: escapeStart)
        }
        guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape", at: escapeStart) }
        out.append(contentsOf: Array(String(Character(scalar)).utf8))
      default:
        throw error("an invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string", at: position - 2)
      }
      plainStart = position
    }
    guard let text = String(validating: out, as: UTF8.self) else {
      // Point at the first byte that does not decode.
      var offset = start + 1
      var iterator = bytes[(start + 1)..<position].makeIterator()
      var decoder = UTF8()
      var consumed = 0
      loop: while true {
        switch decoder.decode(&iterator) {
        case .scalarValue(let scalar): consumed += UTF8.width(scalar)
        case .emptyInput: break loop
        case .error: break loop
        }
      }
      offset += consumed
      throw error("a string that is not valid UTF-8", at: offset)
    }
    return text
  }

  private mutating func hex4() throws(JSONError) -> UInt32 {
    guard bytes.count - position >= 4 else { throw error("a \\u escape needs four hex digits") }
    var code: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[position]
      let digit: UInt8
      switch byte {
      case 0x30...0x39: digit = byte - 0x30
      case 0x41...0x46: digit = byte - 0x41 + 10
      case 0x61...0x66: digit = byte - 0x61 + 10
      default: throw error("a \\u escape needs four hex digits")
      }
      code = code << 4 | UInt32(digit)
      position += 1
    }
    return code
  }
}
