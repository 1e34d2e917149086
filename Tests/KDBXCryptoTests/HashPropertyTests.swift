import KDBXCrypto
import Testing
import VectorSupport

/// Helpers shared by the SHA and HMAC test files.
enum HashTesting {
  /// Checks a CAVP ShortMsg/LongMsg record (`len` in bits, `msg`, `md`), one-shot and streamed.
  static func checkMessage<H: HashFunction>(_: H.Type, _ record: VectorRecord) {
    let message = record.bytes("msg")
    #expect(message.count * 8 == record.int("len"), "len field disagrees with msg")
    let expected = record.bytes("md")
    #expect(H.hash(message).bytes == expected)
    // The same message fed in uneven pieces (1, 2, 3, ... bytes) through the streaming interface.
    var hasher = H()
    var offset = 0
    var piece = 1
    while offset < message.count {
      let end = min(offset + piece, message.count)
      hasher.update(message[offset..<end])
      offset = end
      piece += 1
    }
    #expect(hasher.finalize().matches(expected))
  }

  /// SHAVS §6.4 Monte Carlo: 1000 chained hashes from `seed`; compares with `md`.
  static func checkMonteCarlo<H: HashFunction>(_: H.Type, _ record: VectorRecord) {
    let seed = record.bytes("seed")
    var (md0, md1, md2) = (seed, seed, seed)
    for _ in 3...1002 {
      var hasher = H()
      hasher.update(md0)
      hasher.update(md1)
      hasher.update(md2)
      (md0, md1, md2) = (md1, md2, hasher.finalize().bytes)
    }
    #expect(md2 == record.bytes("md"))
  }

  /// Checks a `msg` repeated `repeat` times against `md`, streamed in prime-sized chunks.
  static func checkRepeated<H: HashFunction>(_: H.Type, _ record: VectorRecord) {
    let unit = record.bytes("msg")
    let count = record.int("repeat")
    var message = [UInt8]()
    message.reserveCapacity(unit.count * count)
    for _ in 0..<count { message.append(contentsOf: unit) }
    let expected = record.bytes("md")
    #expect(H.hash(message).bytes == expected)
    var hasher = H()
    var offset = 0
    while offset < message.count {
      let end = min(offset + 9973, message.count)
      hasher.update(message[offset..<end])
      offset = end
    }
    #expect(hasher.finalize().bytes == expected)
  }

  /// For every split point of a random 300-byte input, two updates equal one-shot hashing.
  static func checkSplits<H: HashFunction>(_: H.Type, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let input = random.bytes(300)
    for length in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 300] {
      let message = Array(input[0..<length])
      let expected = H.hash(message)
      for split in 0...length {
        var hasher = H()
        hasher.update(message[0..<split])
        hasher.update(message[split...])
        #expect(hasher.finalize() == expected, "length \(length), split at \(split)")
      }
    }
  }

  /// A hasher copied mid-stream, with both copies continued differently, gives both right digests.
  static func checkCopy<H: HashFunction>(_: H.Type, seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let prefix = random.bytes(200)
    let tailA = random.bytes(77)
    let tailB = random.bytes(150)
    for cut in [0, 1, 63, 64, 65, 127, 128, 129, 200] {
      var original = H()
      original.update(prefix[0..<cut])
      var copy = original
      original.update(prefix[cut...])
      original.update(tailA)
      copy.update(prefix[cut...])
      copy.update(tailB)
      #expect(original.finalize() == H.hash(prefix + tailA), "cut \(cut)")
      #expect(copy.finalize() == H.hash(prefix + tailB), "cut \(cut)")
    }
  }
}

@Suite("Hash properties")
struct HashPropertyTests {
  @Test func sha1SplitAtEveryPoint() { HashTesting.checkSplits(SHA1.self, seed: 1) }
  @Test func sha256SplitAtEveryPoint() { HashTesting.checkSplits(SHA256.self, seed: 2) }
  @Test func sha512SplitAtEveryPoint() { HashTesting.checkSplits(SHA512.self, seed: 3) }

  @Test func sha1CopyMidStream() { HashTesting.checkCopy(SHA1.self, seed: 4) }
  @Test func sha256CopyMidStream() { HashTesting.checkCopy(SHA256.self, seed: 5) }
  @Test func sha512CopyMidStream() { HashTesting.checkCopy(SHA512.self, seed: 6) }

  @Test func digestSizesMatchDeclarations() {
    #expect(SHA1.hash([]).bytes.count == SHA1.digestByteCount)
    #expect(SHA256.hash([]).bytes.count == SHA256.digestByteCount)
    #expect(SHA512.hash([]).bytes.count == SHA512.digestByteCount)
    #expect(SHA1.blockByteCount == 64 && SHA256.blockByteCount == 64 && SHA512.blockByteCount == 128)
  }

  @Test func digestEqualityAndDescription() {
    let abc = SHA256.hash(Array("abc".utf8))
    #expect(abc == SHA256.hash(Array("abc".utf8)))
    #expect(abc != SHA256.hash(Array("abd".utf8)))
    #expect(abc.description == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(abc.matches(abc.bytes))
    #expect(!abc.matches(Array(abc.bytes.dropLast())))
    var flipped = abc.bytes
    flipped[31] ^= 1
    #expect(!abc.matches(flipped))
  }

  @Test func unsafeBufferEntryPointMatchesArray() {
    var random = SplitMix64(seed: 7)
    let input = random.bytes(333)
    let viaPointer = input.withUnsafeBytes { SHA512.hash($0) }
    #expect(viaPointer == SHA512.hash(input))
    #expect(SHA1.hash(input[10..<200]) == SHA1.hash(Array(input[10..<200])))
  }
}
