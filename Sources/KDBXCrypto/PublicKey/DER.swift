/// A strict reader of DER, the distinguished encoding rules of ITU-T X.690 (§8 and §10), for the few structures
/// keys and signatures use.
///
/// It accepts only one-byte tags (no high tag numbers), definite lengths in minimal form (X.690 §10.1) of at most
/// four length bytes, and a length no longer than what is left; nesting deeper than ``maximumDepth`` is refused.
/// Every read is bounds-checked first, so no input can make it trap.
struct DERReader {
  /// The deepest nesting of constructed values the reader enters.
  static let maximumDepth = 16

  let bytes: ArraySlice<UInt8>
  private(set) var offset: Int
  let depth: Int

  init(_ bytes: ArraySlice<UInt8>, depth: Int = 0) {
    self.bytes = bytes
    self.offset = bytes.startIndex
    self.depth = depth
  }

  init(_ bytes: [UInt8]) { self.init(bytes[...]) }

  var isAtEnd: Bool { offset >= bytes.endIndex }

  /// The tag of the next element, or `nil` at the end.
  var peekTag: UInt8? { isAtEnd ? nil : bytes[offset] }

  /// An error at the current position. Nested readers share the indices of the outermost input, so the offset
  /// counts from its first byte.
  func error(_ reason: String) -> PublicKeyError {
    .malformedDER(reason: reason, offset: offset)
  }

  /// Reads one tag-length-value and returns the tag and the contents.
  mutating func read() throws(PublicKeyError) -> (tag: UInt8, contents: ArraySlice<UInt8>) {
    guard offset < bytes.endIndex else { throw error("truncated: expected a tag") }
    let tag = bytes[offset]
    guard tag & 0x1f != 0x1f else { throw error("high tag numbers are not used here") }
    var cursor = offset + 1
    guard cursor < bytes.endIndex else { throw error("truncated: expected a length") }
    let first = bytes[cursor]
    cursor += 1
    var length = 0
    if first < 0x80 {
      length = Int(first)
    } else {
      let count = Int(first & 0x7f)
      guard count != 0 else { throw error("indefinite length (not DER)") }
      guard count <= 4 else { throw error("length of \(count) bytes is too long") }
      guard bytes.endIndex - cursor >= count else { throw error("truncated length") }
      for _ in 0..<count {
        length = length << 8 | Int(bytes[cursor])
        cursor += 1
      }
      // Four bytes can exceed Int.max on 32-bit platforms: a negative length is refused, not used.
      guard length >= 0 else { throw error("length does not fit in an Int") }
      // X.690 §10.1: the long form only for lengths above 127, in the fewest bytes.
      guard length >= 0x80, bytes[cursor - count] != 0 else { throw error("non-minimal length") }
    }
    guard length <= bytes.endIndex - cursor else { throw error("length \(length) runs past the end") }
    let contents = bytes[cursor..<(cursor + length)]
    offset = cursor + length
    return (tag, contents)
  }

  /// Reads one element and checks its tag.
  mutating func read(tag expected: UInt8, _ name: String) throws(PublicKeyError) -> ArraySlice<UInt8> {
    let start = offset
    let (tag, contents) = try read()
    guard tag == expected else {
      offset = start
      throw error("expected \(name)")
    }
    return contents
  }

  /// Reads a constructed element (SEQUENCE, or an explicit context tag) and returns a reader for its contents.
  mutating func readConstructed(tag: UInt8, _ name: String) throws(PublicKeyError) -> DERReader {
    let contents = try read(tag: tag, name)
    guard depth + 1 <= Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth)") }
    return DERReader(contents, depth: depth + 1)
  }

  mutating func readSequence(_ name: String) throws(PublicKeyError) -> DERReader {
    try readConstructed(tag: DER.sequence, name)
  }

  /// Reads a non-negative INTEGER in minimal form (X.690 §8.3.2) and returns its magnitude without leading zeros.
  mutating func readUnsignedInteger(_ name: String) throws(PublicKeyError) -> ArraySlice<UInt8> {
    var contents = try read(tag: DER.integer, name)
    guard let first = contents.first else { throw error("empty INTEGER \(name)") }
    guard first & 0x80 == 0 else { throw error("negative INTEGER \(name)") }
    if first == 0, contents.count > 1 {
      guard contents[contents.startIndex + 1] & 0x80 != 0 else { throw error("non-minimal INTEGER \(name)") }
      contents = contents.dropFirst()
    } else if first == 0 {
      contents = contents.dropFirst()
    }
    return contents
  }

  /// Reads a small non-negative INTEGER (a version number).
  mutating func readSmallInteger(_ name: String) throws(PublicKeyError) -> Int {
    let magnitude = try readUnsignedInteger(name)
    guard magnitude.count <= 2 else { throw error("INTEGER \(name) out of range") }
    var value = 0
    for byte in magnitude { value = value << 8 | Int(byte) }
    return value
  }

  /// Reads an OBJECT IDENTIFIER's contents (X.690 §8.19), checked for well-formed subidentifiers.
  mutating func readObjectIdentifier(_ name: String) throws(PublicKeyError) -> ArraySlice<UInt8> {
    let contents = try read(tag: DER.objectIdentifier, name)
    guard let last = contents.last, last & 0x80 == 0 else { throw error("malformed OBJECT IDENTIFIER \(name)") }
    var atStart = true
    for byte in contents {
      if atStart, byte == 0x80 { throw error("non-minimal OBJECT IDENTIFIER \(name)") }
      atStart = byte & 0x80 == 0
    }
    return contents
  }

  /// Reads a BIT STRING with no unused bits (X.690 §8.6) and returns its bytes.
  mutating func readBitString(_ name: String) throws(PublicKeyError) -> ArraySlice<UInt8> {
    let contents = try read(tag: DER.bitString, name)
    guard let unused = contents.first else { throw error("empty BIT STRING \(name)") }
    guard unused == 0 else { throw error("BIT STRING \(name) with unused bits") }
    return contents.dropFirst()
  }

  /// Throws unless every byte was read.
  func finish(_ name: String) throws(PublicKeyError) {
    guard isAtEnd else { throw error("bytes left after \(name)") }
  }
}

/// DER writing (ITU-T X.690 §8, §10) and the tags and object identifiers of the key formats.
enum DER {
  static let integer: UInt8 = 0x02
  static let bitString: UInt8 = 0x03
  static let octetString: UInt8 = 0x04
  static let null: UInt8 = 0x05
  static let objectIdentifier: UInt8 = 0x06
  static let sequence: UInt8 = 0x30
  static func contextConstructed(_ number: UInt8) -> UInt8 { 0xa0 | number }

  /// id-ecPublicKey, 1.2.840.10045.2.1 (RFC 5480 §2.1.1).
  static let idECPublicKey: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x02, 0x01]
  /// secp256r1, 1.2.840.10045.3.1.7 (RFC 5480 §2.1.1.1).
  static let secp256r1: [UInt8] = [0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07]
  /// id-Ed25519, 1.3.101.112 (RFC 8410 §3).
  static let idEd25519: [UInt8] = [0x2b, 0x65, 0x70]
  /// rsaEncryption, 1.2.840.113549.1.1.1 (RFC 8017 Appendix C).
  static let rsaEncryption: [UInt8] = [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]

  /// One tag-length-value with the length in minimal form.
  static func element(_ tag: UInt8, _ contents: [UInt8]) -> [UInt8] {
    var out: [UInt8] = [tag]
    let count = contents.count
    if count < 0x80 {
      out.append(UInt8(count))
    } else {
      var lengthBytes: [UInt8] = []
      var remaining = count
      while remaining > 0 {
        lengthBytes.insert(UInt8(truncatingIfNeeded: remaining), at: 0)
        remaining >>= 8
      }
      out.append(0x80 | UInt8(lengthBytes.count))
      out += lengthBytes
    }
    return out + contents
  }

  static func sequence(_ parts: [UInt8]...) -> [UInt8] { element(sequence, parts.flatMap { $0 }) }

  /// A non-negative INTEGER from big-endian magnitude bytes, in minimal form.
  static func unsignedInteger(_ magnitude: [UInt8]) -> [UInt8] {
    var bytes = Array(magnitude.drop { $0 == 0 })
    if bytes.first.map({ $0 & 0x80 != 0 }) ?? true { bytes.insert(0, at: 0) }
    return element(integer, bytes)
  }

  static func objectIdentifier(_ contents: [UInt8]) -> [UInt8] { element(objectIdentifier, contents) }

  static func bitString(_ bytes: [UInt8]) -> [UInt8] { element(bitString, [0] + bytes) }

  static func octetString(_ bytes: [UInt8]) -> [UInt8] { element(octetString, bytes) }

  /// The dotted form of an OBJECT IDENTIFIER's contents (for error messages).
  static func dotted(_ contents: ArraySlice<UInt8>) -> String {
    var arcs: [UInt64] = []
    var value: UInt64 = 0
    for byte in contents {
      guard value >> 56 == 0 else { return "(too long)" }
      value = value << 7 | UInt64(byte & 0x7f)
      if byte & 0x80 == 0 {
        if arcs.isEmpty {
          let first: UInt64 = value < 40 ? 0 : (value < 80 ? 1 : 2)
          arcs.append(first)
          arcs.append(value - first * 40)
        } else {
          arcs.append(value)
        }
        value = 0
      }
    }
    return arcs.map { String($0) }.joined(separator: ".")
  }
}
