import KDBXCrypto
import Testing
import VectorSupport

@Suite("Twofish-256")
struct TwofishTests {
  @Test("Twofish paper ECB_TBL, 256-bit keys", arguments: Vectors.records("twofish/ecb-tbl-256.vec"))
  func ecbTable(_ record: VectorRecord) throws {
    let cipher = try Twofish(key: record.bytes("key"))
    #expect(cipher.encryptBlock(record.bytes("plaintext")) == record.bytes("ciphertext"))
    #expect(cipher.decryptBlock(record.bytes("ciphertext")) == record.bytes("plaintext"))
  }

  @Test("CBC vectors from an independent implementation", arguments: Vectors.records("twofish/cbc-256.vec"))
  func cbc(_ record: VectorRecord) throws {
    var encryptor = try CBC<Twofish>(key: record.bytes("key"), iv: record.bytes("iv"))
    var bytes = record.bytes("plaintext")
    try encryptor.encrypt(blocksInPlace: &bytes)
    #expect(bytes == record.bytes("ciphertext"))
    var decryptor = try CBC<Twofish>(key: record.bytes("key"), iv: record.bytes("iv"))
    try decryptor.decrypt(blocksInPlace: &bytes)
    #expect(bytes == record.bytes("plaintext"))
    // With PKCS#7 the first blocks are the same ciphertext.
    let padded = try CBC<Twofish>.encrypt(record.bytes("plaintext"), key: record.bytes("key"), iv: record.bytes("iv"))
    #expect(Array(padded.prefix(bytes.count)) == record.bytes("ciphertext"))
  }

  @Test("Bulk CBC kernels equal the block-at-a-time reference on random input")
  func bulkEqualsSingleBlock() throws {
    var random = SplitMix64(seed: 0x2f15)
    for _ in 0..<10 {
      let cipher = try Twofish(key: random.bytes(32))
      let ivBytes = random.bytes(16)
      var iv = SIMD16<UInt8>()
      for i in 0..<16 { iv[i] = ivBytes[i] }
      let input = random.bytes(16 * Int(1 + random.next() % 9))
      var bulk = input
      var chain = iv
      bulk.withUnsafeMutableBytes { cipher.cbcEncrypt($0, chainingValue: &chain) }
      var expected: [UInt8] = []
      var previous = iv
      for start in stride(from: 0, to: input.count, by: 16) {
        var block = SIMD16<UInt8>()
        for i in 0..<16 { block[i] = input[start + i] }
        previous = cipher.encryptBlock(block ^ previous)
        expected += (0..<16).map { previous[$0] }
      }
      #expect(bulk == expected && chain == previous)
      chain = iv
      bulk.withUnsafeMutableBytes { cipher.cbcDecrypt($0, chainingValue: &chain) }
      #expect(bulk == input)
    }
  }

  @Test("Key sizes other than 32 bytes throw")
  func badKeySizes() {
    for size in [0, 16, 24, 31, 33] {
      #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: size)) {
        _ = try Twofish(key: [UInt8](repeating: 0, count: size))
      }
    }
  }
}
