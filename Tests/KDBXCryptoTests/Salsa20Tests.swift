import KDBXCrypto
import Testing
import VectorSupport

@Suite("Salsa20")
struct Salsa20Tests {
  @Test("eSTREAM 256-bit vectors", arguments: Vectors.records("salsa20/estream-256.vec"))
  func estream(_ record: VectorRecord) throws {
    var cipher = try Salsa20(key: record.bytes("key"), nonce: record.bytes("iv"))
    var stream = [UInt8](repeating: 0, count: 512)
    cipher.apply(to: &stream)
    #expect(Array(stream[0..<64]) == record.bytes("stream0_63"))
    #expect(Array(stream[192..<256]) == record.bytes("stream192_255"))
    #expect(Array(stream[256..<320]) == record.bytes("stream256_319"))
    #expect(Array(stream[448..<512]) == record.bytes("stream448_511"))
    // The reference block function agrees, and seeking to block 7 gives bytes 448..<512.
    #expect(
      try Salsa20.block(key: record.bytes("key"), nonce: record.bytes("iv"), counter: 3) == Array(stream[192..<256]))
    cipher.seek(toBlock: 7)
    var last = [UInt8](repeating: 0, count: 64)
    cipher.apply(to: &last)
    #expect(last == record.bytes("stream448_511"))
  }

  @Test("Split at every point equals one call")
  func splitPoints() throws {
    var random = SplitMix64(seed: 0x5a15a)
    let key = random.bytes(32)
    let nonce = random.bytes(8)
    let input = random.bytes(700)
    var whole = input
    var oneShot = try Salsa20(key: key, nonce: nonce)
    oneShot.apply(to: &whole)
    for split in 0...input.count {
      var cipher = try Salsa20(key: key, nonce: nonce)
      var head = Array(input[0..<split])
      var tail = Array(input[split...])
      cipher.apply(to: &head)
      cipher.apply(to: &tail)
      #expect(head + tail == whole, "split at \(split)")
    }
  }

  @Test("Fast kernel equals the reference block function, across the 32-bit counter carry")
  func fastEqualsReference() throws {
    var random = SplitMix64(seed: 1234)
    for start in [UInt64(0), 0xffff_fffd, 0x1_ffff_fffe, UInt64.max - 2] {
      let key = random.bytes(32)
      let nonce = random.bytes(8)
      var expected: [UInt8] = []
      for block in 0..<6 { expected += try Salsa20.block(key: key, nonce: nonce, counter: start &+ UInt64(block)) }
      var cipher = try Salsa20(key: key, nonce: nonce, counter: start)
      var bytes = [UInt8](repeating: 0, count: expected.count)
      cipher.apply(to: &bytes)
      #expect(bytes == expected)
    }
  }

  /// Reference keystream: `count` blocks of the plain Salsa20 expansion from `counter` (mod 2^64).
  static func referenceStream(key: [UInt8], nonce: [UInt8], counter: UInt64, blocks count: Int) throws -> [UInt8] {
    var stream: [UInt8] = []
    for block in 0..<count { stream += try Salsa20.block(key: key, nonce: nonce, counter: counter &+ UInt64(block)) }
    return stream
  }

  @Test("Every length 0...1100 equals the reference expansion (nine-, four-block and tail paths)")
  func everyLength() throws {
    var random = SplitMix64(seed: 0x5a1e7)
    let key = random.bytes(32)
    let nonce = random.bytes(8)
    let input = random.bytes(1100)
    let stream = try Self.referenceStream(key: key, nonce: nonce, counter: 3, blocks: 18)
    for length in 0...input.count {
      var cipher = try Salsa20(key: key, nonce: nonce, counter: 3)
      var bytes = Array(input[0..<length])
      cipher.apply(to: &bytes)
      #expect(bytes == (0..<length).map { input[$0] ^ stream[$0] }, "length \(length)")
    }
  }

  @Test("Every split of 1 KiB into two calls equals the reference keystream")
  func everySplitOfOneKiB() throws {
    var random = SplitMix64(seed: 0x5a5b1)
    let key = random.bytes(32)
    let nonce = random.bytes(8)
    let input = random.bytes(1024)
    let stream = try Self.referenceStream(key: key, nonce: nonce, counter: 0, blocks: 16)
    let expected = (0..<input.count).map { input[$0] ^ stream[$0] }
    for split in 0...input.count {
      var cipher = try Salsa20(key: key, nonce: nonce)
      var head = Array(input[0..<split])
      var tail = Array(input[split...])
      cipher.apply(to: &head)
      cipher.apply(to: &tail)
      #expect(head + tail == expected, "split at \(split)")
    }
  }

  @Test("Nine-block groups across the 32-bit carry and the 64-bit wrap equal the reference")
  func groupsAcrossTheCarry() throws {
    var random = SplitMix64(seed: 0xca77)
    let key = random.bytes(32)
    let nonce = random.bytes(8)
    // The low counter word wraps in every SIMD lane position (0...7) and in the scalar ninth block.
    var starts: [UInt64] = (0...8).map { 0xffff_ffff - UInt64($0) }
    starts += [0x1_ffff_fff9, UInt64.max - 8, UInt64.max - 3, UInt64.max]
    for start in starts {
      let stream = try Self.referenceStream(key: key, nonce: nonce, counter: start, blocks: 20)
      var cipher = try Salsa20(key: key, nonce: nonce, counter: start)
      var bytes = [UInt8](repeating: 0, count: stream.count)
      cipher.apply(to: &bytes)
      #expect(bytes == stream, "start \(start)")
    }
  }

  @Test("Bad sizes throw")
  func errors() {
    #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 16)) {
      _ = try Salsa20(key: [UInt8](repeating: 0, count: 16), nonce: [UInt8](repeating: 0, count: 8))
    }
    #expect(throws: CryptoError.invalidNonceSize(expected: 8, actual: 12)) {
      _ = try Salsa20(key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 12))
    }
  }
}
