import KDBXPasskeys
import Testing
import VectorSupport

/// The CBOR encoder against RFC 8949 Appendix A, and the strict decoder against hostile input.
@Suite struct CBORTests {
  /// RFC 8949 Appendix A, the examples within the subset.
  static let appendixA: [(CBORValue, String)] = [
    (.integer(0), "00"), (.integer(1), "01"), (.integer(10), "0a"), (.integer(23), "17"), (.integer(24), "1818"),
    (.integer(25), "1819"), (.integer(100), "1864"), (.integer(1000), "1903e8"), (.integer(1_000_000), "1a000f4240"),
    (.integer(1_000_000_000_000), "1b000000e8d4a51000"), (.integer(-1), "20"), (.integer(-10), "29"),
    (.integer(-100), "3863"), (.integer(-1000), "3903e7"), (.bool(false), "f4"), (.bool(true), "f5"), (.null, "f6"),
    (.bytes([]), "40"), (.bytes([1, 2, 3, 4]), "4401020304"), (.text(""), "60"), (.text("a"), "6161"),
    (.text("IETF"), "6449455446"), (.text("\"\\"), "62225c"), (.text("\u{00fc}"), "62c3bc"),
    (.text("\u{6c34}"), "63e6b0b4"), (.array([]), "80"), (.array([.integer(1), .integer(2), .integer(3)]), "83010203"),
    (
      .array([.integer(1), .array([.integer(2), .integer(3)]), .array([.integer(4), .integer(5)])]),
      "8301820203820405"
    ),
    (.map([]), "a0"), (.map([(.integer(1), .integer(2)), (.integer(3), .integer(4))]), "a201020304"),
    (.map([(.text("a"), .integer(1)), (.text("b"), .array([.integer(2), .integer(3)]))]), "a26161016162820203"),
    (.integer(Int64.max), "1b7fffffffffffffff"), (.integer(Int64.min), "3b7fffffffffffffff"),
  ]

  @Test func encodesAndDecodesRFC8949AppendixA() throws {
    for (value, expected) in Self.appendixA {
      #expect(try value.encoded() == TestHex.bytes(expected), "\(expected)")
      #expect(try CBORValue(decoding: TestHex.bytes(expected)) == value, "\(expected)")
    }
  }

  @Test func mapKeysAreSortedByTheirEncoding() throws {
    // RFC 8949 §4.2.1: 10, 100, -1, "z", "aa", [100], [-1], false in bytewise order of the encoded keys.
    let map = CBORValue.map([
      (.bool(false), .integer(0)), (.array([.integer(-1)]), .integer(0)), (.text("aa"), .integer(0)),
      (.integer(-1), .integer(0)), (.array([.integer(100)]), .integer(0)), (.text("z"), .integer(0)),
      (.integer(100), .integer(0)), (.integer(10), .integer(0)),
    ])
    #expect(try map.encoded() == TestHex.bytes("a80a001864002000617a006261610081186400812000f400"))
    #expect(throws: CBORError.unsupported("a duplicate map key", offset: 0)) {
      try CBORValue.map([(.integer(1), .null), (.integer(1), .bool(true))]).encoded()
    }
  }

  @Test func refusesNesting10000Deep() {
    let deep = [UInt8](repeating: 0x81, count: 10_000) + [0x00]
    #expect(throws: CBORError.tooDeep(offset: 7)) { try CBORValue(decoding: deep) }
    let maps = [UInt8](repeating: 0xA1, count: 10_000)
    #expect(throws: CBORError.self) { try CBORValue(decoding: maps) }
    var value = CBORValue.integer(0)
    for _ in 0..<10_000 { value = .array([value]) }
    #expect(throws: CBORError.tooDeep(offset: 8)) { try value.encoded() }
  }

  /// Takes a value apart a level at a time: releasing a deeply nested one at once frees it recursively.
  static func dismantle(_ value: inout CBORValue) {
    var pending = [value]
    value = .null
    while let next = pending.popLast() {
      switch next {
      case .array(let items): pending.append(contentsOf: items)
      case .map(let pairs):
        for (key, item) in pairs {
          pending.append(key)
          pending.append(item)
        }
      default: continue
      }
    }
  }

  /// `==` compares values nested a hundred thousand deep (built in code: the decoder refuses them) with an
  /// explicit stack; the recursive `==` ran out of stack. Kinds, lengths, keys and order still count.
  @Test func equalityOfValuesNestedAHundredThousandDeep() {
    func nested(_ leaf: Int64) -> CBORValue {
      var value = CBORValue.integer(leaf)
      for level in 0..<100_000 {
        value = level % 2 == 0 ? .array([.null, value]) : .map([(.text("k"), value)])
      }
      return value
    }
    var left = nested(1)
    defer { Self.dismantle(&left) }
    var right = nested(1)
    defer { Self.dismantle(&right) }
    var other = nested(2)
    defer { Self.dismantle(&other) }
    // Compared outside `#expect`, which would describe a hundred thousand levels if it failed.
    let equal = left == right
    let unequal = left == other
    #expect(equal)
    #expect(!unequal)
    #expect(CBORValue.map([(.integer(1), .null)]) != .map([(.integer(2), .null)]))
    #expect(CBORValue.map([(.integer(1), .null)]) != .map([(.integer(1), .bool(false))]))
    #expect(CBORValue.array([.integer(1)]) != .array([.integer(1), .integer(2)]))
    #expect(CBORValue.array([.integer(1), .integer(2)]) != .array([.integer(2), .integer(1)]))
    #expect(CBORValue.array([]) != .map([]))
    #expect(CBORValue.text("a") != .bytes([0x61]))
  }

  @Test func refusesLyingLengths() {
    // A byte string of 4 GiB with three bytes present; an array of 2^32 items; a text string past the end.
    #expect(throws: CBORError.truncated(offset: 0)) {
      try CBORValue(decoding: [0x5A, 0xFF, 0xFF, 0xFF, 0xFF, 1, 2, 3])
    }
    #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: [0x9A, 0xFF, 0xFF, 0xFF, 0xFF, 0]) }
    #expect(throws: CBORError.truncated(offset: 0)) {
      try CBORValue(decoding: [0x5B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
    }
    #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: [0x65, 0x61]) }
    #expect(throws: CBORError.truncated(offset: 1)) { try CBORValue(decoding: [0x19, 0x01]) }
    #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: []) }
    #expect(throws: CBORError.truncated(offset: 0)) { try CBORValue(decoding: [0xA2, 0x01, 0x02, 0x03]) }
  }

  @Test func refusesWhatIsOutsideTheSubset() {
    let cases: [([UInt8], String)] = [
      ([0x9F, 0x01, 0xFF], "an indefinite length"), ([0x5F, 0x41, 0x00, 0xFF], "an indefinite length"),
      ([0x18, 0x17], "a non-shortest argument"), ([0x19, 0x00, 0xFF], "a non-shortest argument"),
      ([0xC0, 0x60], "a tag"), ([0xF9, 0x3C, 0x00], "a floating-point number"),
      ([0xF7], "simple value 23"), ([0x1B, 0x80, 0, 0, 0, 0, 0, 0, 0], "an integer beyond Int64"),
      ([0x62, 0xC3, 0x28], "a text string that is not UTF-8"), ([0xFF], "a break outside an indefinite-length item"),
      ([0x1C], "reserved additional information 28"),
    ]
    for (bytes, reason) in cases {
      #expect(throws: CBORError.unsupported(reason, offset: 0)) { try CBORValue(decoding: bytes) }
    }
    #expect(throws: CBORError.unsupported("a duplicate map key", offset: 3)) {
      try CBORValue(decoding: [0xA2, 0x01, 0x02, 0x01, 0x03])
    }
    #expect(throws: CBORError.unsupported("bytes after the item", offset: 1)) { try CBORValue(decoding: [0x01, 0x02]) }
  }

  @Test func enforcesByteAndItemLimits() throws {
    let limits = CBORLimits(maximumDepth: 4, maximumByteCount: 16, maximumItemCount: 4)
    #expect(throws: CBORError.tooLarge(offset: 0)) {
      try CBORValue(decoding: [UInt8](repeating: 0, count: 17), limits: limits)
    }
    #expect(throws: CBORError.tooLarge(offset: 4)) { try CBORValue(decoding: [0x84, 1, 2, 3, 4], limits: limits) }
    #expect(
      try CBORValue(decoding: [0x83, 1, 2, 3], limits: limits) == .array([.integer(1), .integer(2), .integer(3)]))
    #expect(throws: CBORError.tooLarge(offset: 0)) {
      try CBORValue(decoding: [UInt8](repeating: 0x80, count: 1 << 17))
    }
  }

  @Test func decodesAPrefix() throws {
    let (value, count) = try CBORValue.decodePrefix(of: [0xA1, 0x01, 0x02, 0xFF, 0xFF][...])
    #expect(value == .map([(.integer(1), .integer(2))]))
    #expect(count == 3)
  }
}
