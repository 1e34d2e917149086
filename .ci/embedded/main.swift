// An Embedded Swift program that checks a few vectors through the library modules.
// It uses no Foundation, no Glibc and no existentials: only what the library itself may use.
import KDBX
import KDBXBase
import KDBXCompression
import KDBXCrypto
import KDBXXML

@main
struct EmbeddedCheck {
  static func hex(_ bytes: [UInt8]) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "a", "b", "c", "d", "e", "f"]
    var text = ""
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 15)])
    }
    return text
  }

  static func check(_ name: String, _ actual: [UInt8], _ expected: String, _ failures: inout Int) {
    if hex(actual) == expected {
      print("ok   \(name)")
    } else {
      print("FAIL \(name): got \(hex(actual))")
      failures += 1
    }
  }

  static func main() {
    var failures = 0
    // FIPS 180-4 example: SHA-256("abc").
    check(
      "sha256 abc", SHA256.hash(Array("abc".utf8)).bytes,
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", &failures)
    // Streaming with a split inside the first block must give the same digest.
    var streaming = SHA256()
    streaming.update(Array("a".utf8))
    streaming.update(Array("bc".utf8))
    check(
      "sha256 abc streamed", streaming.finalize().bytes,
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", &failures)
    // FIPS 180-4 examples: SHA-512("abc") and SHA-1("abc").
    check(
      "sha512 abc", SHA512.hash(Array("abc".utf8)).bytes,
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
        + "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f", &failures)
    check("sha1 abc", SHA1.hash(Array("abc".utf8)).bytes, "a9993e364706816aba3e25717850c26c9cd0d89d", &failures)
    // RFC 4231 §4.3 test case 2: HMAC-SHA-256 with key "Jefe".
    let mac = HMAC<SHA256>.authenticationCode(
      for: Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
    check(
      "hmac-sha256 rfc4231 case 2", mac.bytes,
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", &failures)
    var streamingMAC = HMAC<SHA256>(key: Array("Jefe".utf8))
    streamingMAC.update(Array("what do ya want ".utf8))
    streamingMAC.update(Array("for nothing?".utf8))
    if streamingMAC.finalize() == mac {
      print("ok   hmac-sha256 streamed")
    } else {
      print("FAIL hmac-sha256 streamed")
      failures += 1
    }
    checkCiphersAndKDFs(&failures)
    checkCompressionXMLAndOTP(&failures)
    checkSelfTest(&failures)
    if failures == 0 {
      print("embedded check: all vectors pass")
    } else {
      print("embedded check: \(failures) failure(s)")
      exit(1)
      while true {}
    }
  }
}

extension EmbeddedCheck {
  static func bytes(_ range: ClosedRange<UInt8>) -> [UInt8] { Array(range) }

  static func checkCiphersAndKDFs(_ failures: inout Int) {
    // FIPS 197 Appendix C.3 (AES-256): with a zero IV, the first CBC block is the ECB block.
    let key = bytes(0x00...0x1f)
    let plaintext: [UInt8] = [
      0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff,
    ]
    let ciphertext = (try? CBC<AES>.encrypt(plaintext, key: key, iv: [UInt8](repeating: 0, count: 16))) ?? []
    check("aes-256 fips197 c.3", Array(ciphertext.prefix(16)), "8ea2b7ca516745bfeafc49904b496089", &failures)
    // RFC 8439 §2.4.2: the first 16 bytes of the "Ladies and Gentlemen" ciphertext.
    var message = Array("Ladies and Gentlemen of the class of '99".utf8)
    if var chacha = try? ChaCha20(key: key, nonce: [0, 0, 0, 0, 0, 0, 0, 0x4a, 0, 0, 0, 0], counter: 1) {
      try? chacha.apply(to: &message)
    }
    check("chacha20 rfc8439 2.4.2", Array(message.prefix(16)), "6e2e359a2568f98041ba0728dd0d6981", &failures)
    // RFC 9106 §5.3: Argon2id, t = 3, m = 32 KiB, p = 4, with secret and associated data.
    let tag: [UInt8]
    if let parameters = try? Argon2.Parameters(
      variant: .id, iterations: 3, memoryKiB: 32, lanes: 4, outputLength: 32,
      secret: [UInt8](repeating: 3, count: 8), associatedData: [UInt8](repeating: 4, count: 12)),
      let derived = try? Argon2.deriveKey(
        password: [UInt8](repeating: 1, count: 32), salt: [UInt8](repeating: 2, count: 16), parameters: parameters)
    {
      tag = derived
    } else {
      tag = []
    }
    check("argon2id rfc9106 5.3", tag, "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659", &failures)
  }

  static func checkCompressionXMLAndOTP(_ failures: inout Int) {
    // Raw DEFLATE of "hello hello hello hello" as Python's zlib (level 6, wbits -15) writes it.
    let stream: [UInt8] = [0xcb, 0x48, 0xcd, 0xc9, 0xc9, 0x57, 0xc8, 0x40, 0x27, 0x01]
    let inflated = (try? Inflate.decompress(stream, maxOutputByteCount: 1024)) ?? []
    check("inflate zlib stream", inflated, hex(Array("hello hello hello hello".utf8)), &failures)
    let text = Array("KeePass KeePass KeePass KeePass KeePass".utf8)
    let roundTrip = (try? Inflate.decompress(Deflate.compress(text, level: 6), maxOutputByteCount: 1024)) ?? []
    check("deflate round trip", roundTrip, hex(text), &failures)
    // XML: parse, then write compact: entities and attribute quotes are normalised.
    var written: [UInt8] = []
    if let root = try? XMLElement.parse(Array("<a b='1'>x&amp;y</a>".utf8)) {
      var options = XMLWriter.Options()
      options.indentation = .none
      options.writesDeclaration = false
      written = (try? XMLWriter.write(root, options: options)) ?? []
    }
    check("xml parse and write", written, hex(Array("<a b=\"1\">x&amp;y</a>".utf8)), &failures)
    // RFC 6238 Appendix B: TOTP SHA-1, 8 digits, T = 59.
    let code =
      (try? OneTimePassword(secret: Array("12345678901234567890".utf8), encoding: .decimal(digits: 8)))?
      .code(at: 59) ?? ""
    check("totp rfc6238 t=59", Array(code.utf8), hex(Array("94287082".utf8)), &failures)
  }
}

extension EmbeddedCheck {
  /// The library's own known-answer self-test (#27), compiled in Embedded mode: every check must pass, and a fault
  /// injected into one primitive must be reported against exactly that primitive.
  static func checkSelfTest(_ failures: inout Int) {
    let report = KDBXSelfTest.run()
    for result in report.results where !result.passed {
      print(
        "FAIL selftest \(result.primitive) (\(result.source)): expected \(result.expectedHex), got \(result.actualHex)")
    }
    if report.passed {
      print("ok   selftest: \(report.results.count) checks")
    } else {
      failures += 1
    }
    let faulty = KDBXSelfTest.run(fault: SelfTestFault(primitive: "argon2id", bit: 3))
    if faulty.failedPrimitives == ["argon2id"] {
      print("ok   selftest reports an injected fault in argon2id")
    } else {
      print("FAIL selftest with a fault in argon2id reported \(faulty.failedPrimitives.count) primitive(s)")
      failures += 1
    }
  }
}

@_extern(c, "exit")
func exit(_ status: Int32)
