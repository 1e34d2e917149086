import KDBXBase
import Testing

@testable import KDBX

/// The fast decoding paths of ``Base64`` against the decoder over a string's UTF-8 view (the reference).
@Suite struct Base64FastPathTests {
  /// Bytes put at each position of the texts: alphabet, padding, whitespace, other ASCII and non-ASCII.
  static let probes: [UInt8] = [
    0x41, 0x7A, 0x30, 0x2B, 0x2F, 0x3D, 0x20, 0x09, 0x0A, 0x0D, 0x00, 0x2A, 0x2D, 0x5F, 0x80, 0xC3, 0xFF,
  ]

  static func sampleBytes(_ count: Int, seed: Int) -> [UInt8] {
    var out: [UInt8] = []
    for index in 0..<count {
      let mixed: Int = index &* 131 &+ seed &* 29 &+ 7
      out.append(UInt8(truncatingIfNeeded: mixed ^ (index >> 2)))
    }
    return out
  }

  static func reference(_ text: String, _ options: Base64.Options) -> [UInt8]? {
    Base64.decode(utf8: text.utf8, options: options)
  }

  /// Every text of 0...100 characters, valid and with every probe byte at every position, decodes the same through
  /// the contiguous path as through the UTF-8 view, strict and lenient.
  @Test func contiguousDecodeMatchesReference() {
    for length in 0...100 {
      let bytes = Self.sampleBytes(length, seed: length)
      let valid = Base64.encode(bytes)
      var texts = [
        valid, String(valid.prefix(length)), String(decoding: Array(valid.utf8.prefix(length)), as: UTF8.self),
      ]
      let base = Array(String(valid.prefix(max(length, 1))).utf8)
      for position in 0..<base.count {
        for probe in Self.probes {
          var changed = base
          changed[position] = probe
          texts.append(String(decoding: changed, as: UTF8.self))
        }
      }
      for text in texts {
        for options in [Base64.Options.strict, .lenient] {
          #expect(Base64.decode(text, options: options) == Self.reference(text, options), "\(Array(text.utf8))")
        }
      }
      #expect(Base64.decode(valid) == bytes)
    }
  }

  /// The word decoder for every size 1...16: it takes the canonical text of that many bytes, and wherever it returns
  /// words they are the reference's bytes; every probe byte at every position is either refused (the reference
  /// then decides) or decoded the same.
  @Test func wordDecodeMatchesReference() throws {
    for byteCount in 1...16 {
      for seed in 0..<4 {
        let bytes = Self.sampleBytes(byteCount, seed: seed * 17 + byteCount)
        let valid = Base64.encode(bytes)
        let words = try #require(Base64.decodeWords(valid, byteCount: byteCount, allowsNonCanonicalBits: false))
        #expect(Self.bytes(of: words, count: byteCount) == bytes)
        var texts = [valid, valid + "A", String(valid.dropLast()), " " + valid.dropFirst(), valid + "\n"]
        let base = Array(valid.utf8)
        // Every alphabet character too: the last symbol's unused bits take every value.
        let probes = Self.probes + Base64.alphabet
        for position in 0..<base.count {
          for probe in probes {
            var changed = base
            changed[position] = probe
            texts.append(String(decoding: changed, as: UTF8.self))
          }
        }
        for text in texts {
          for lenient in [false, true] {
            let options: Base64.Options = lenient ? .lenient : .strict
            guard let words = Base64.decodeWords(text, byteCount: byteCount, allowsNonCanonicalBits: lenient) else {
              continue
            }
            #expect(Self.reference(text, options) == Self.bytes(of: words, count: byteCount), "\(Array(text.utf8))")
          }
        }
      }
    }
    #expect(Base64.decodeWords("", byteCount: 0, allowsNonCanonicalBits: true) == nil)
    #expect(Base64.decodeWords("AAAA", byteCount: 17, allowsNonCanonicalBits: true) == nil)
  }

  /// UUIDs and KDBX 4 times read through the word decoder as through the byte decoder, including forms it refuses
  /// (whitespace, non-canonical bits).
  @Test func uuidAndTimeReadTheSame() {
    for seed in 0..<64 {
      let bytes = Self.sampleBytes(16, seed: seed)
      let text = Base64.encode(bytes)
      #expect(KDBXUUID(base64: text)?.bytes == bytes)
      #expect(KDBXUUID(base64: " " + text + "\n")?.bytes == bytes)
      let time = Self.sampleBytes(8, seed: seed)
      var seconds: Int64 = 0
      for index in 0..<8 { seconds |= Int64(time[index]) << (index * 8) }
      #expect(KDBXTime.decode(Base64.encode(time)) == Timestamp(secondsSince0001: seconds))
    }
    // Non-canonical final bits: accepted (lenient), the same bytes as the reference.
    #expect(
      KDBXUUID(base64: "AAAAAAAAAAAAAAAAAAAAAB==")?.bytes
        == Base64.decode("AAAAAAAAAAAAAAAAAAAAAB==", options: .lenient))
    #expect(KDBXTime.decode("AAAAAAAAAAB=") == Timestamp(secondsSince0001: 0))
    #expect(KDBXUUID(base64: "AAAAAAAAAAAAAAAAAAAAAA=") == nil)
    #expect(KDBXTime.decode("AAAAAAAAAA==") == nil)
  }

  static func bytes(of words: (high: UInt64, low: UInt64), count: Int) -> [UInt8] {
    var out: [UInt8] = []
    for index in 0..<count {
      let shift = UInt64(index < 8 ? 56 - 8 * index : 120 - 8 * index)
      let word: UInt64 = index < 8 ? words.high : words.low
      out.append(UInt8(truncatingIfNeeded: word >> shift))
    }
    return out
  }
}
