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
