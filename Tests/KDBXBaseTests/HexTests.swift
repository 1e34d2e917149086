import KDBXBase
import Testing

/// The package's one hex encoder and decoder (RFC 4648 §8; §10 vectors in `KDBXTests/Encoding/EncodingTests`).
@Suite struct HexTests {
  @Test func rejectsOddAndForeign() {
    #expect(Hex.decode("abc") == nil)
    #expect(Hex.decode("zz") == nil)
    #expect(Hex.decode("0g") == nil)
    #expect(Hex.decode(utf8: [0x30, 0x31, 0x32]) == nil)
    #expect(Hex.decode("") == [])
  }

  @Test func bothCasesDecodeAndEitherCaseEncodes() {
    #expect(Hex.decode("aBcD09") == [0xAB, 0xCD, 0x09])
    #expect(Hex.decode(utf8: Array("FF00".utf8)[...]) == [0xFF, 0x00])
    #expect(Hex.encode([0xAB, 0x01], uppercase: true) == "AB01")
    #expect(Hex.encode([0xAB, 0x01]) == "ab01")
    var out: [UInt8] = [0x25]
    Hex.append(0x3F, to: &out, uppercase: true)
    #expect(out == Array("%3F".utf8))
    #expect(Hex.value(of: UInt8(ascii: "f")) == 15)
    #expect(Hex.value(of: UInt8(ascii: "G")) == nil)
  }

  /// Numbers in messages: padded to the minimum, never cut.
  @Test func numbersArePaddedNotTruncated() {
    #expect(Hex.encode(0, minimumDigits: 2) == "00")
    #expect(Hex.encode(0, minimumDigits: 0) == "0")
    #expect(Hex.encode(0xA, minimumDigits: 2) == "0a")
    #expect(Hex.encode(0xFE00, minimumDigits: 2) == "fe00")
    #expect(Hex.encode(0x1F600, minimumDigits: 4, uppercase: true) == "1F600")
    #expect(Hex.encode(0x1F600, minimumDigits: 6, uppercase: true) == "01F600")
    #expect(Hex.encode(0x3_0004, minimumDigits: 8) == "00030004")
    #expect(Hex.encode(UInt64.max, minimumDigits: 4) == "ffffffffffffffff")
    #expect(Hex.encode(0x8000_0000_0000_0000, minimumDigits: 1) == "8000000000000000")
  }
}
