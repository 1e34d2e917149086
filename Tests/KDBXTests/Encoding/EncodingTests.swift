import KDBX
import KDBXBase
import Testing
import VectorSupport

/// RFC 4648 §10 test vectors for base64, base32 and base16.
@Suite struct EncodingTests {
  static let rfc4648: [(String, String, String, String)] = [
    ("", "", "", ""),
    ("f", "Zg==", "MY======", "66"),
    ("fo", "Zm8=", "MZXQ====", "666f"),
    ("foo", "Zm9v", "MZXW6===", "666f6f"),
    ("foob", "Zm9vYg==", "MZXW6YQ=", "666f6f62"),
    ("fooba", "Zm9vYmE=", "MZXW6YTB", "666f6f6261"),
    ("foobar", "Zm9vYmFy", "MZXW6YTBOI======", "666f6f626172"),
  ]

  @Test(arguments: rfc4648) func rfc4648Vectors(_ vector: (String, String, String, String)) {
    let bytes = Array(vector.0.utf8)
    #expect(Base64.encode(bytes) == vector.1)
    #expect(Base64.decode(vector.1) == bytes)
    #expect(Base32.encode(bytes) == vector.2)
    #expect(Base32.decode(vector.2) == bytes)
    #expect(Hex.encode(bytes) == vector.3)
    #expect(Hex.decode(vector.3.uppercased()) == bytes)
  }

  @Test func base64StrictRejects() {
    #expect(Base64.decode("Zg=") == nil)  // bad length
    #expect(Base64.decode("Zh==") == nil)  // non-zero pad bits (RFC 4648 §3.5)
    #expect(Base64.decode("Zg==Zg==") == nil)  // padding inside
    #expect(Base64.decode("Zm9v\nYmFy") == nil)  // whitespace
    #expect(Base64.decode("Zm9v*mFy") == nil)
    #expect(Base64.decode("Zm9v\nYmFy", options: .lenient) == Array("foobar".utf8))
    #expect(Base64.decode("Zh==", options: .lenient) == [0x66])
  }

  @Test func base32LenientAcceptsTypedSecrets() {
    #expect(Base32.decodeLenient("mzxw 6ytb-oi") == Array("foobar".utf8))
    #expect(Base32.decodeLenient("MZXW6YQ") == Array("foob".utf8))
    #expect(Base32.decodeLenient("MZXW6YQ=") == Array("foob".utf8))
    #expect(Base32.decodeLenient("MZXW1") == nil)
    #expect(Base32.decodeLenient("M") == nil)
    #expect(Base32.decode("mzxw6ytb") == nil)
    #expect(Base32.decode("MZXW6YQ") == nil)
    // RFC 6238 Appendix B secret "12345678901234567890".
    #expect(Base32.decodeLenient("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ") == Array("12345678901234567890".utf8))
  }

  @Test func randomRoundTrips() {
    var rng = SplitMix64(seed: 7)
    for length in 0..<70 {
      let bytes = rng.bytes(length)
      #expect(Base64.decode(Base64.encode(bytes)) == bytes)
      #expect(Base32.decode(Base32.encode(bytes)) == bytes)
      #expect(Base32.decodeLenient(Base32.encode(bytes, padding: false).lowercased()) == bytes)
      #expect(Hex.decode(Hex.encode(bytes)) == bytes)
    }
  }
}

@Test func base64DecodesByteArrays() {
  // RFC 4648 §10 test vector, through the [UInt8] overload (which once called itself).
  #expect(Base64.decode(utf8: Array("Zm9vYmFy".utf8)) == Array("foobar".utf8))
  #expect(Base64.decode(utf8: Array("Zm9=".utf8)) == nil)
}
