// An Embedded Swift program that checks a few vectors through the library modules.
// It uses no Foundation, no Glibc and no existentials: only what the library itself may use.
import KDBXCrypto

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
    if failures == 0 {
      print("embedded check: all vectors pass")
    } else {
      print("embedded check: \(failures) failure(s)")
      exit(1)
      while true {}
    }
  }
}

@_extern(c, "exit")
func exit(_ status: Int32)
