import KDBX
import KDBXBase
import Testing

/// Inputs found by the fuzz targets in Tests/Fuzz (see Tests/Fuzz/README.md), kept as hex so that each finding stays
/// fixed. Each test names its target and the crash it found.
@Suite struct FuzzRegressionTests {
  static func bytes(_ hex: String) -> [UInt8] {
    var out = [UInt8]()
    var iterator = hex.utf8.makeIterator()
    while let high = iterator.next(), let low = iterator.next() {
      func nibble(_ c: UInt8) -> UInt8 { c <= 0x39 ? c - 0x30 : c - 0x57 }
      out.append(nibble(high) << 4 | nibble(low))
    }
    return out
  }

  /// Target `encodings`, input "" (timeout-da39a3ee…): `Base64.decode(utf8:options:)` for `[UInt8]` called itself
  /// instead of the generic collection overload, so every call recursed without end (a hang at -O, a stack
  /// overflow in debug builds).
  @Test(arguments: [("", ""), ("5a6d3976", "666f6f"), ("5a6d3976596d46790a", nil)] as [(String, String?)])
  func base64DecodeOfByteArrayTerminates(_ input: (hex: String, expected: String?)) {
    let decoded = Base64.decode(utf8: Self.bytes(input.hex))
    #expect(decoded == input.expected.map(Self.bytes))
    #expect(
      Base64.decode(utf8: Self.bytes(input.hex), options: .lenient) == Self.bytes(input.expected ?? "666f6f626172"))
  }

  /// Target `outer-header`, crash-7233964c…: a KDBX 3.1 header with inner random stream "none" and no
  /// ProtectedStreamKey field parsed, but `serialized()` wrote an empty ProtectedStreamKey field, which the parser
  /// refuses, so the header could not be read back. An absent key now stays absent.
  @Test func kdbx3HeaderWithoutProtectedStreamKeyRoundTrips() throws {
    let input = Self.bytes(
      "03d9a29a67fb4bb50100030002100031c1f2e6bf714350be5805216afc5aff030400000000000420002a5a7dd98da35e"
        + "dcda23647062447c1f6dce3b210d7d68681c623f7809d011bc0520004d4baef79ce42a5eabd116af302b1a741194efd3"
        + "0a8d9a81df3aa134ba4cfb12060800d000000000000000071000a9825ec7c52b2621c3645d791d9df27c4a20000f8771"
        + "c6cc338b45a08d133b571e989ce9a802a2fe7948a6c34f6b6b9bf9e520092000a6de2bedb3191ca1747255bd34a09fae"
        + "74ecb9472ed4989bf32d30736f98d36f0a040000000000010100000002000000000400")
    let header = try OuterHeader(parsing: input)
    #expect(header.protectedStreamKey == nil)
    #expect(header.innerRandomStream == InnerRandomStreamAlgorithm.none)
    let again = try OuterHeader(parsing: try header.serialized())
    #expect(again.kdf == header.kdf)
    #expect(again.protectedStreamKey == nil)
  }

  /// Target `otpauth`, every parsed generator (the target computes codes at `Int64.min` and `Int64.max`):
  /// `OneTimePassword.movingFactor(at:)` trapped on arithmetic overflow in its floor division (`elapsed - period + 1`)
  /// and in `unixTime - startTime`. Expected values from Python's floor division (`//`, `%`).
  @Test func totpAtExtremeTimesDoesNotTrap() throws {
    var totp = try OneTimePassword(secret: Array("12345678901234567890".utf8), kind: .totp(period: 30))
    #expect(totp.movingFactor(at: Int64.min) == UInt64(bitPattern: -307_445_734_561_825_861))
    #expect(totp.movingFactor(at: Int64.max) == 307_445_734_561_825_860)
    #expect(totp.secondsRemaining(at: Int64.min) == 8)
    #expect(totp.secondsRemaining(at: Int64.max) == 23)
    #expect(totp.movingFactor(at: -1) == UInt64.max)  // floor(-1 / 30) = -1
    #expect(totp.code(at: Int64.min).count == 6)
    totp.startTime = 100  // Int64.min - 100 saturates at Int64.min
    #expect(totp.movingFactor(at: Int64.min) == UInt64(bitPattern: -307_445_734_561_825_861))
    totp.startTime = -100
    #expect(totp.movingFactor(at: Int64.max) == 307_445_734_561_825_860)
  }
}
