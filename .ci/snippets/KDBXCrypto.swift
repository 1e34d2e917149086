// What the examples in KDBXCrypto's doc comments take as given. Type-checked with them by .ci/doc-snippets.py,
// never run.
import KDBXCrypto

var plaintext: [UInt8] { fatalError() }
var message: [UInt8] { fatalError() }
var key: [UInt8] { fatalError() }
var macKey: [UInt8] { fatalError() }
var iv: [UInt8] { fatalError() }
var password: [UInt8] { fatalError() }
var salt: [UInt8] { fatalError() }
var part1: [UInt8] { fatalError() }
var part2: [UInt8] { fatalError() }
var nonce: [UInt8] { fatalError() }
var bytes: [UInt8] {
  get { fatalError() }
  set {}
}
var hasher: SHA256 {
  get { fatalError() }
  set {}
}
/// A key derivation that returns its output as an array (what the example wraps).
func kdf(_ password: [UInt8]) -> [UInt8] { password }
