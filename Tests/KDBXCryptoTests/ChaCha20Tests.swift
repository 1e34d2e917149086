import KDBXCrypto
import Testing
import VectorSupport

@Suite("ChaCha20")
struct ChaCha20Tests {
  @Test("RFC 8439 block function (§2.3.2, A.1)", arguments: Vectors.records("chacha20/rfc8439-block.vec"))
  func blockFunction(_ record: VectorRecord) throws {
    let key = record.bytes("key")
    let nonce = record.bytes("nonce")
    let counter = UInt32(record.int("counter"))
    // The reference block function and the four-block kernel (through apply) must both match.
    #expect(try ChaCha20.block(key: key, nonce: nonce, counter: counter) == record.bytes("keystream"))
    var cipher = try ChaCha20(key: key, nonce: nonce, counter: counter)
    var bytes = [UInt8](repeating: 0, count: 64)
    try cipher.apply(to: &bytes)
    #expect(bytes == record.bytes("keystream"))
  }

  @Test("RFC 8439 encryption (§2.4.2, A.2)", arguments: Vectors.records("chacha20/rfc8439-encrypt.vec"))
  func encryption(_ record: VectorRecord) throws {
    var cipher = try ChaCha20(
      key: record.bytes("key"), nonce: record.bytes("nonce"), counter: UInt32(record.int("counter")))
    var bytes = record.bytes("plaintext")
    try cipher.apply(to: &bytes)
    #expect(bytes == record.bytes("ciphertext"))
  }

  @Test("Split at every point equals one call")
  func splitPoints() throws {
    var random = SplitMix64(seed: 0xc4c4)
    let key = random.bytes(32)
    let nonce = random.bytes(12)
    let input = random.bytes(700)
    var whole = input
    var oneShot = try ChaCha20(key: key, nonce: nonce, counter: 5)
    try oneShot.apply(to: &whole)
    for split in 0...input.count {
      var cipher = try ChaCha20(key: key, nonce: nonce, counter: 5)
      var head = Array(input[0..<split])
      var tail = Array(input[split...])
      try cipher.apply(to: &head)
      try cipher.apply(to: &tail)
      #expect(head + tail == whole, "split at \(split)")
    }
    // Many small random pieces.
    var cipher = try ChaCha20(key: key, nonce: nonce, counter: 5)
    var joined: [UInt8] = []
    var offset = 0
    while offset < input.count {
      let size = min(Int(random.next() % 90), input.count - offset)
      var piece = Array(input[offset..<offset + size])
      try cipher.apply(to: &piece)
      joined += piece
      offset += size
    }
    #expect(joined == whole)
  }

  @Test("Fast kernel equals the reference block function; seek works")
  func fastEqualsReference() throws {
    var random = SplitMix64(seed: 99)
    for _ in 0..<8 {
      let key = random.bytes(32)
      let nonce = random.bytes(12)
      let counter = UInt32(truncatingIfNeeded: random.next() % 1000)
      var expected: [UInt8] = []
      for block in 0..<9 { expected += try ChaCha20.block(key: key, nonce: nonce, counter: counter + UInt32(block)) }
      var cipher = try ChaCha20(key: key, nonce: nonce, counter: counter)
      var bytes = [UInt8](repeating: 0, count: expected.count)
      try cipher.apply(to: &bytes)
      #expect(bytes == expected)
      cipher.seek(toBlock: counter + 3)
      var again = [UInt8](repeating: 0, count: 100)
      try cipher.apply(to: &again)
      #expect(again == Array(expected[192..<292]))
    }
  }

  /// Reference keystream: `count` blocks of the plain RFC 8439 block function from `counter`.
  static func referenceStream(key: [UInt8], nonce: [UInt8], counter: UInt32, blocks count: Int) throws -> [UInt8] {
    var stream: [UInt8] = []
    for block in 0..<count { stream += try ChaCha20.block(key: key, nonce: nonce, counter: counter &+ UInt32(block)) }
    return stream
  }

  @Test("Every length 0...1100 equals the reference block function (nine-, four-block and tail paths)")
  func everyLength() throws {
    var random = SplitMix64(seed: 0x9b10c)
    let key = random.bytes(32)
    let nonce = random.bytes(12)
    let input = random.bytes(1100)
    let stream = try Self.referenceStream(key: key, nonce: nonce, counter: 3, blocks: 18)
    for length in 0...input.count {
      var cipher = try ChaCha20(key: key, nonce: nonce, counter: 3)
      var bytes = Array(input[0..<length])
      try cipher.apply(to: &bytes)
      #expect(bytes == (0..<length).map { input[$0] ^ stream[$0] }, "length \(length)")
    }
  }

  @Test("Every split of 1 KiB into two calls equals the reference keystream")
  func everySplitOfOneKiB() throws {
    var random = SplitMix64(seed: 0x51d17)
    let key = random.bytes(32)
    let nonce = random.bytes(12)
    let input = random.bytes(1024)
    let stream = try Self.referenceStream(key: key, nonce: nonce, counter: 0, blocks: 16)
    let expected = (0..<input.count).map { input[$0] ^ stream[$0] }
    for split in 0...input.count {
      var cipher = try ChaCha20(key: key, nonce: nonce)
      var head = Array(input[0..<split])
      var tail = Array(input[split...])
      try cipher.apply(to: &head)
      try cipher.apply(to: &tail)
      #expect(head + tail == expected, "split at \(split)")
    }
  }

  @Test("Groups ending at the last counter value equal the reference keystream")
  func groupsAtTheCounterEnd() throws {
    var random = SplitMix64(seed: 0xe1d)
    let key = random.bytes(32)
    let nonce = random.bytes(12)
    // 9, 13, 18 and 22 blocks before 2^32: a nine-block group (plus four-block groups and a tail)
    // whose scalar block or last lane is block 2^32 - 1.
    for blocks in [9, 13, 18, 22] {
      let counter = UInt32(truncatingIfNeeded: (1 << 32) - blocks)
      let stream = try Self.referenceStream(key: key, nonce: nonce, counter: counter, blocks: blocks)
      var cipher = try ChaCha20(key: key, nonce: nonce, counter: counter)
      var bytes = [UInt8](repeating: 0, count: 64 * blocks)
      try cipher.apply(to: &bytes)
      #expect(bytes == stream, "\(blocks) blocks")
      var more = [UInt8](repeating: 0, count: 1)
      #expect(throws: CryptoError.counterOverflow) { try cipher.apply(to: &more) }
    }
  }

  @Test("Counter overflow and bad sizes throw")
  func errors() throws {
    let key = [UInt8](repeating: 1, count: 32)
    let nonce = [UInt8](repeating: 2, count: 12)
    var cipher = try ChaCha20(key: key, nonce: nonce, counter: UInt32.max)
    var one = [UInt8](repeating: 0, count: 64)
    try cipher.apply(to: &one)  // the last block is usable
    #expect(one == (try ChaCha20.block(key: key, nonce: nonce, counter: UInt32.max)))
    var more = [UInt8](repeating: 0, count: 1)
    #expect(throws: CryptoError.counterOverflow) { try cipher.apply(to: &more) }
    #expect(more == [0])
    #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 16)) {
      _ = try ChaCha20(key: [UInt8](repeating: 0, count: 16), nonce: nonce)
    }
    #expect(throws: CryptoError.invalidNonceSize(expected: 12, actual: 8)) {
      _ = try ChaCha20(key: key, nonce: [UInt8](repeating: 0, count: 8))
    }
  }
}
