import KDBX
import Testing
import VectorSupport

/// A stand-in authenticator for structure tests: SHA-256(UInt64LE(index) ‖ message). The real one (HMAC-SHA-256 with
/// a SHA-512-derived block key) is wired by the codec; these tests check framing, indices and error reporting.
struct FakeAuthenticator: HMACBlockAuthenticator {
  var salt: UInt8 = 0
  func authenticationCode(blockIndex: UInt64, message: [UInt8]) -> [UInt8] {
    var prefix = [salt]
    for shift in 0..<8 { prefix.append(UInt8(truncatingIfNeeded: blockIndex >> (shift * 8))) }
    return SHA256Helper.hash(prefix + message)
  }
}

@Suite struct BlockStreamTests {
  @Test func hashedBlockStreamLayout() throws {
    let payload = Array("hello".utf8)
    let stream = HashedBlockStream.write(payload, blockSize: 4)
    // Block 0: index 0, SHA-256("hell"), size 4, "hell"; block 1: "o"; block 2: empty with a zero hash.
    #expect(Array(stream[0..<4]) == [0, 0, 0, 0])
    #expect(Array(stream[4..<36]) == SHA256Helper.hash(Array("hell".utf8)))
    #expect(Array(stream[36..<40]) == [4, 0, 0, 0])
    #expect(stream.count == 40 + 4 + 40 + 1 + 40)
    #expect(Array(stream.suffix(40)) == [2, 0, 0, 0] + [UInt8](repeating: 0, count: 36))
    #expect(try HashedBlockStream.read(stream) == payload)
  }

  @Test func hashedBlockStreamErrorsNameTheBlock() throws {
    var rng = SplitMix64(seed: 3)
    let payload = rng.bytes(1_000)
    let stream = HashedBlockStream.write(payload, blockSize: 300)
    #expect(try HashedBlockStream.read(stream) == payload)
    // Flip a data byte in each block: blocks start every 340 bytes, data at +40.
    for block in 0..<4 {
      var corrupted = stream
      corrupted[block * 340 + 40] ^= 0x01
      #expect(throws: KDBXError.corruptedBlock(index: UInt64(block))) { try HashedBlockStream.read(corrupted) }
    }
    var badIndex = stream
    badIndex[340] = 7
    #expect(throws: KDBXError.corruptedBlock(index: 1)) { try HashedBlockStream.read(badIndex) }
    for cut in stride(from: 0, to: stream.count, by: 17) {
      #expect(throws: KDBXError.self) { try HashedBlockStream.read(Array(stream[0..<cut])) }
    }
    #expect(throws: KDBXError.limitExceeded(what: "payload bytes", value: 600, limit: 500)) {
      try HashedBlockStream.read(stream, options: LoadOptions(maxPayloadByteCount: 500))
    }
  }

  @Test func hmacBlockStream() throws {
    var rng = SplitMix64(seed: 4)
    let payload = rng.bytes(700)
    let auth = FakeAuthenticator()
    let stream = HMACBlockStream.write(payload, authenticator: auth, blockSize: 256)
    #expect(stream.count == 700 + 4 * 36)
    #expect(try HMACBlockStream.read(stream, authenticator: auth) == payload)
    // Each block's MAC covers UInt64LE(index) ‖ Int32LE(size) ‖ data.
    let first = Array(stream[36..<292])
    #expect(
      Array(stream[0..<32])
        == auth.authenticationCode(blockIndex: 0, message: [0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0] + first))
    for block in 0..<3 {
      var corrupted = stream
      corrupted[block * 292 + 40] ^= 0x80
      #expect(throws: KDBXError.corruptedBlock(index: UInt64(block))) {
        try HMACBlockStream.read(corrupted, authenticator: auth)
      }
    }
    #expect(throws: KDBXError.corruptedBlock(index: 0)) {
      try HMACBlockStream.read(stream, authenticator: FakeAuthenticator(salt: 1))
    }
    let header: [UInt8] = [1, 2, 3]
    let mac = HMACBlockStream.headerHMAC(header, authenticator: auth)
    #expect(mac == auth.authenticationCode(blockIndex: .max, message: header))
    #expect(throws: Never.self) { try HMACBlockStream.verifyHeader(header, storedHMAC: mac, authenticator: auth) }
    #expect(throws: KDBXError.invalidCredentials) {
      try HMACBlockStream.verifyHeader(header, storedHMAC: mac, authenticator: FakeAuthenticator(salt: 9))
    }
  }

  @Test func innerHeaderRoundTrip() throws {
    let header = InnerHeader(
      innerRandomStream: .chaCha20, innerRandomStreamKey: [UInt8](repeating: 5, count: 64),
      binaries: [.init(isProtected: true, data: [1, 2, 3]), .init(isProtected: false, data: [])])
    let bytes = header.serialized()
    #expect(Array(bytes[0..<9]) == [1, 4, 0, 0, 0, 3, 0, 0, 0])
    let xml = Array("<KeePassFile/>".utf8)
    let parsed = try InnerHeader(parsing: bytes + xml)
    #expect(parsed.byteCount == bytes.count)
    #expect(parsed.binaries == header.binaries)
    #expect(parsed.innerRandomStream == .chaCha20)
    #expect(parsed.serialized() == bytes)
    for length in 0..<bytes.count {
      #expect(throws: KDBXError.self) { try InnerHeader(parsing: Array(bytes[0..<length])) }
    }
    #expect(throws: KDBXError.unsupportedInnerRandomStream(id: 1)) {
      try InnerHeader(parsing: [1, 4, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0])
    }
    #expect(throws: KDBXError.malformedInnerHeader(field: "Binary", reason: "has no flags byte")) {
      try InnerHeader(parsing: [3, 0, 0, 0, 0])
    }
  }

  /// The HMAC block stream reports the first block that fails, a bad HMAC or a broken structure, as a reader that
  /// checks each block before the next would, although it finds the structure first and checks the HMACs after
  /// (possibly on another thread, while the data is decrypted).
  @Test func hmacBlockStreamReportsTheFirstFailingBlock() throws {
    var rng = SplitMix64(seed: 8)
    let payload = rng.bytes(1_000)
    let authenticator = FakeAuthenticator()
    let stream = HMACBlockStream.write(payload, authenticator: authenticator, blockSize: 300)
    // Blocks of 32 (HMAC) + 4 (size) + data: 336 bytes each, then a last one of 136 and the empty one of 36.
    #expect(try HMACBlockStream.read(stream, authenticator: authenticator) == payload)
    let layout = HMACBlockStream.Layout(stream, from: 0, options: .default)
    #expect(layout.blocks.count == 5)
    #expect(layout.data == payload)
    #expect(layout.structuralFailure == nil)

    // A bad HMAC in block 1 and a size in block 2 that runs past the end: block 1 is reported.
    var both = stream
    both[336] ^= 0x01
    both[2 * 336 + 32 + 2] = 0x7F
    #expect(throws: KDBXError.corruptedBlock(index: 1)) { try HMACBlockStream.read(both, authenticator: authenticator) }
    // The size alone: block 2, found by the structure.
    var size = stream
    size[2 * 336 + 32 + 2] = 0x7F
    #expect(HMACBlockStream.Layout(size, from: 0, options: .default).structuralFailure == .corruptedBlock(index: 2))
    #expect(throws: KDBXError.corruptedBlock(index: 2)) { try HMACBlockStream.read(size, authenticator: authenticator) }
    // Over the payload limit at block 1, with a bad HMAC in block 0: block 0.
    var limited = LoadOptions.default
    limited.maxPayloadByteCount = 400
    var first = stream
    first[40] ^= 0x01
    #expect(throws: KDBXError.corruptedBlock(index: 0)) {
      try HMACBlockStream.read(first, authenticator: authenticator, options: limited)
    }
    #expect(throws: KDBXError.limitExceeded(what: "payload bytes", value: 600, limit: 400)) {
      try HMACBlockStream.read(stream, authenticator: authenticator, options: limited)
    }
    // A bad HMAC in the terminating empty block.
    var last = stream
    last[stream.count - 36] ^= 0x01
    #expect(throws: KDBXError.corruptedBlock(index: 4)) { try HMACBlockStream.read(last, authenticator: authenticator) }
  }
}
