// A small CBOR (RFC 8949) encoder and a strict decoder: the subset WebAuthn uses (WebAuthn Level 3 §6.5.2 and
// §6.5.4, COSE keys of RFC 9052 §7): unsigned and negative integers, byte and text strings, arrays, maps, and the
// simple values false, true and null. Lengths are definite; integers and lengths are in their shortest form
// (RFC 8949 §4.2.1, "Core Deterministic Encoding"), and the encoder sorts map keys by their encoded bytes (the
// same section), which for WebAuthn's keys is also CTAP2's canonical order.

/// A CBOR data item (RFC 8949 §3) of the kinds WebAuthn uses.
///
/// ```swift
/// let key = CBORValue.map([(.integer(1), .integer(2)), (.integer(3), .integer(-7))])
/// let bytes = try key.encoded()                 // a2 01 02 03 26
/// let back = try CBORValue(decoding: bytes)     // strict: limits on depth, length and count
/// ```
public indirect enum CBORValue: Sendable, Equatable {
  /// Major type 0 (a non-negative integer) or 1 (a negative one), RFC 8949 §3.1, within `Int64`.
  case integer(Int64)
  /// Major type 2: a byte string.
  case bytes([UInt8])
  /// Major type 3: a UTF-8 text string.
  case text(String)
  /// Major type 4: an array.
  case array([CBORValue])
  /// Major type 5: a map, its pairs in the order given (the encoder writes them sorted, RFC 8949 §4.2.1).
  case map([(CBORValue, CBORValue)])
  /// Major type 7, simple values 20 and 21.
  case bool(Bool)
  /// Major type 7, simple value 22.
  case null

  /// Two values are equal when they are of one kind with equal contents, arrays item by item and maps pair by pair
  /// in order. Nested arrays and maps are compared with an explicit stack, not by recursion: a value built in code
  /// (unlike a decoded one, whose depth `CBORLimits` bounds) may be nested to any depth.
  public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
    var pending = [(lhs, rhs)]
    while let (left, right) = pending.popLast() {
      switch (left, right) {
      case (.integer(let a), .integer(let b)): if a != b { return false }
      case (.bytes(let a), .bytes(let b)): if a != b { return false }
      case (.text(let a), .text(let b)): if a != b { return false }
      case (.array(let a), .array(let b)):
        guard a.count == b.count else { return false }
        for index in a.indices { pending.append((a[index], b[index])) }
      case (.map(let a), .map(let b)):
        guard a.count == b.count else { return false }
        for index in a.indices {
          pending.append((a[index].0, b[index].0))
          pending.append((a[index].1, b[index].1))
        }
      case (.bool(let a), .bool(let b)): if a != b { return false }
      case (.null, .null): continue
      default: return false
      }
    }
    return true
  }

  /// The value of `key` in a map (compared as values), or `nil` for a missing key or a value that is not a map.
  public subscript(key: CBORValue) -> CBORValue? {
    guard case .map(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }
}

/// Limits the CBOR decoder enforces before it allocates or descends (RFC 8949 §10, "Security Considerations").
package struct CBORLimits: Sendable, Equatable {
  /// The deepest nesting of arrays and maps; the top-level item is depth 1.
  package var maximumDepth: Int
  /// The largest input accepted, in bytes.
  package var maximumByteCount: Int
  /// The most data items in the whole input (each array element, map key and map value counts).
  package var maximumItemCount: Int

  /// Limits for a WebAuthn attestation object or COSE key: depth 8, 64 KiB, 1,024 items.
  package static let webAuthn = CBORLimits(maximumDepth: 8, maximumByteCount: 1 << 16, maximumItemCount: 1024)

  package init(maximumDepth: Int, maximumByteCount: Int, maximumItemCount: Int) {
    self.maximumDepth = maximumDepth
    self.maximumByteCount = maximumByteCount
    self.maximumItemCount = maximumItemCount
  }
}

/// Why CBOR could not be decoded or encoded. `offset` is where the decoder stopped.
public enum CBORError: Error, Equatable, Sendable {
  /// The input ends inside an item, or a length says more bytes follow than there are.
  case truncated(offset: Int)
  /// Arrays and maps nested deeper than the limit (8 for WebAuthn).
  case tooDeep(offset: Int)
  /// More bytes or items than the limits allow.
  case tooLarge(offset: Int)
  /// Something outside the subset: an indefinite length, a tag, a float, another simple value, an integer beyond
  /// `Int64`, a non-shortest argument, invalid UTF-8, a duplicate map key, or bytes after the item.
  case unsupported(String, offset: Int)
}

extension CBORError: CustomStringConvertible {
  /// A one-line description.
  public var description: String {
    switch self {
    case .truncated(let offset): return "CBOR truncated at byte \(offset)"
    case .tooDeep(let offset): return "CBOR nested too deep at byte \(offset)"
    case .tooLarge(let offset): return "CBOR larger than the limits at byte \(offset)"
    case .unsupported(let what, let offset): return "CBOR not accepted at byte \(offset): \(what)"
    }
  }
}

extension CBORValue {
  /// The deterministic encoding (RFC 8949 §4.2.1): shortest arguments, definite lengths, map keys sorted by
  /// their encoded bytes. Throws ``CBORError/tooDeep(offset:)`` past a nesting depth of 8, or
  /// ``CBORError/unsupported(_:offset:)`` for a map with two equal keys.
  public func encoded() throws(CBORError) -> [UInt8] {
    var out: [UInt8] = []
    try encode(into: &out, depth: 1)
    return out
  }

  private func encode(into out: inout [UInt8], depth: Int) throws(CBORError) {
    // The depth is bounded by a constant, so the recursion is too.
    guard depth <= CBORLimits.webAuthn.maximumDepth else { throw .tooDeep(offset: out.count) }
    switch self {
    case .integer(let value):
      if value >= 0 {
        CBORValue.head(major: 0, UInt64(value), into: &out)
      } else {
        // -1 - value, without overflow: ~value is that for two's complement.
        CBORValue.head(major: 1, UInt64(~value), into: &out)
      }
    case .bytes(let bytes):
      CBORValue.head(major: 2, UInt64(bytes.count), into: &out)
      out += bytes
    case .text(let text):
      CBORValue.head(major: 3, UInt64(text.utf8.count), into: &out)
      out += Array(text.utf8)
    case .array(let items):
      CBORValue.head(major: 4, UInt64(items.count), into: &out)
      for item in items { try item.encode(into: &out, depth: depth + 1) }
    case .map(let pairs):
      var encodedPairs: [(key: [UInt8], value: [UInt8])] = []
      encodedPairs.reserveCapacity(pairs.count)
      for (key, value) in pairs {
        var keyBytes: [UInt8] = []
        try key.encode(into: &keyBytes, depth: depth + 1)
        var valueBytes: [UInt8] = []
        try value.encode(into: &valueBytes, depth: depth + 1)
        encodedPairs.append((keyBytes, valueBytes))
      }
      encodedPairs.sort { $0.key.lexicographicallyPrecedes($1.key) }
      for index in encodedPairs.indices.dropFirst() where encodedPairs[index].key == encodedPairs[index - 1].key {
        throw .unsupported("a duplicate map key", offset: out.count)
      }
      CBORValue.head(major: 5, UInt64(pairs.count), into: &out)
      for pair in encodedPairs {
        out += pair.key
        out += pair.value
      }
    case .bool(let flag): out.append(flag ? 0xF5 : 0xF4)
    case .null: out.append(0xF6)
    }
  }

  /// The initial byte and shortest argument (RFC 8949 §3, §4.2.1).
  private static func head(major: UInt8, _ argument: UInt64, into out: inout [UInt8]) {
    let top = major << 5
    switch argument {
    case 0..<24: out.append(top | UInt8(argument))
    case 24...0xFF: out += [top | 24, UInt8(argument)]
    case 0x100...0xFFFF: out += [top | 25, UInt8(argument >> 8), UInt8(truncatingIfNeeded: argument)]
    case 0x1_0000...0xFFFF_FFFF:
      out.append(top | 26)
      for shift in stride(from: 24, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: argument >> shift)) }
    default:
      out.append(top | 27)
      for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: argument >> shift)) }
    }
  }
}

extension CBORValue {
  /// Decodes exactly one item from `bytes` (nothing may follow it), strictly: see ``CBORError`` for what is
  /// refused. The bounds, checked before anything is allocated or nested: nesting depth 8, 64 KiB, 1,024 items.
  public init(decoding bytes: [UInt8]) throws(CBORError) {
    try self.init(decoding: bytes, limits: .webAuthn)
  }

  /// ``init(decoding:)`` with other limits.
  package init(decoding bytes: [UInt8], limits: CBORLimits) throws(CBORError) {
    var reader = CBORReader(bytes: bytes, limits: limits)
    guard bytes.count <= limits.maximumByteCount else { throw .tooLarge(offset: 0) }
    self = try reader.item(depth: 1)
    guard reader.offset == bytes.count else { throw .unsupported("bytes after the item", offset: reader.offset) }
  }

  /// Decodes one item at the start of `bytes` and returns it with the number of bytes it took (WebAuthn §6.5.1:
  /// the credential public key inside authenticator data is followed by other data).
  public static func decodePrefix(of bytes: ArraySlice<UInt8>) throws(CBORError) -> (value: CBORValue, byteCount: Int) {
    let limits = CBORLimits.webAuthn
    let array = Array(bytes)
    guard array.count <= limits.maximumByteCount else { throw .tooLarge(offset: 0) }
    var reader = CBORReader(bytes: array, limits: limits)
    let value = try reader.item(depth: 1)
    return (value, reader.offset)
  }
}

/// The decoder's cursor. Every length is checked against the bytes left before it is used.
struct CBORReader {
  let bytes: [UInt8]
  let limits: CBORLimits
  var offset = 0
  var items = 0

  init(bytes: [UInt8], limits: CBORLimits) {
    self.bytes = bytes
    self.limits = limits
  }

  var remaining: Int { bytes.count - offset }

  mutating func byte() throws(CBORError) -> UInt8 {
    guard offset < bytes.count else { throw .truncated(offset: offset) }
    let value = bytes[offset]
    offset += 1
    return value
  }

  /// The argument of a head whose additional information is `info`, in its shortest form only.
  mutating func argument(_ info: UInt8, at start: Int) throws(CBORError) -> UInt64 {
    let size: Int
    switch info {
    case 0..<24: return UInt64(info)
    case 24: size = 1
    case 25: size = 2
    case 26: size = 4
    case 27: size = 8
    case 31: throw .unsupported("an indefinite length", offset: start)
    default: throw .unsupported("reserved additional information \(info)", offset: start)
    }
    guard remaining >= size else { throw .truncated(offset: offset) }
    var value: UInt64 = 0
    for _ in 0..<size { value = value << 8 | UInt64(try byte()) }
    let minimum: UInt64 = size == 1 ? 24 : (size == 2 ? 0x100 : (size == 4 ? 0x1_0000 : 0x1_0000_0000))
    guard value >= minimum else { throw .unsupported("a non-shortest argument", offset: start) }
    return value
  }

  /// A length that must fit in the bytes left, each unit taking at least `unit` bytes.
  mutating func length(_ info: UInt8, at start: Int, unit: Int) throws(CBORError) -> Int {
    let raw = try argument(info, at: start)
    guard raw <= UInt64(remaining / unit) else { throw .truncated(offset: start) }
    return Int(raw)
  }

  mutating func count() throws(CBORError) {
    items += 1
    guard items <= limits.maximumItemCount else { throw .tooLarge(offset: offset) }
  }

  /// One item. The recursion is bounded by ``CBORLimits/maximumDepth``, checked before descending.
  mutating func item(depth: Int) throws(CBORError) -> CBORValue {
    let start = offset
    try count()
    let initial = try byte()
    let major = initial >> 5
    let info = initial & 0x1F
    switch major {
    case 0:
      let value = try argument(info, at: start)
      guard value <= UInt64(Int64.max) else { throw .unsupported("an integer beyond Int64", offset: start) }
      return .integer(Int64(value))
    case 1:
      let value = try argument(info, at: start)
      guard value <= UInt64(Int64.max) else { throw .unsupported("an integer beyond Int64", offset: start) }
      return .integer(~Int64(value))
    case 2:
      let count = try length(info, at: start, unit: 1)
      defer { offset += count }
      return .bytes(Array(bytes[offset..<(offset + count)]))
    case 3:
      let count = try length(info, at: start, unit: 1)
      let slice = bytes[offset..<(offset + count)]
      // Decoding repairs invalid UTF-8 with U+FFFD, so the bytes come back unchanged only when they were valid.
      // (`String(validating:as:)` needs macOS 15 and iOS 18.)
      let text = String(decoding: slice, as: UTF8.self)
      guard text.utf8.elementsEqual(slice) else {
        throw .unsupported("a text string that is not UTF-8", offset: start)
      }
      offset += count
      return .text(text)
    case 4:
      let count = try length(info, at: start, unit: 1)
      guard depth < limits.maximumDepth || count == 0 else { throw .tooDeep(offset: start) }
      var items: [CBORValue] = []
      items.reserveCapacity(count)
      for _ in 0..<count { items.append(try item(depth: depth + 1)) }
      return .array(items)
    case 5:
      let count = try length(info, at: start, unit: 2)
      guard depth < limits.maximumDepth || count == 0 else { throw .tooDeep(offset: start) }
      var pairs: [(CBORValue, CBORValue)] = []
      pairs.reserveCapacity(count)
      for _ in 0..<count {
        let keyOffset = offset
        let key = try item(depth: depth + 1)
        if pairs.contains(where: { $0.0 == key }) { throw .unsupported("a duplicate map key", offset: keyOffset) }
        pairs.append((key, try item(depth: depth + 1)))
      }
      return .map(pairs)
    case 6:
      throw .unsupported("a tag", offset: start)
    default:
      switch info {
      case 20: return .bool(false)
      case 21: return .bool(true)
      case 22: return .null
      case 25, 26, 27: throw .unsupported("a floating-point number", offset: start)
      case 31: throw .unsupported("a break outside an indefinite-length item", offset: start)
      default: throw .unsupported("simple value \(info)", offset: start)
      }
    }
  }
}
