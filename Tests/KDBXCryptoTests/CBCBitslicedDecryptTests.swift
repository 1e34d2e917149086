import KDBXCrypto
import Testing
import VectorSupport

/// `CBC<ConstantTimeAES>` decrypts several blocks per bitsliced pass (its kernel's group size): these tests check
/// it against NIST's vectors and against the table kernel at every length and at every split of a stream, so that
/// a change of the group size (four today) or of the tail handling cannot go unnoticed.
@Suite("CBC decryption through the bitsliced kernel")
struct CBCBitslicedDecryptTests {
  @Test("NIST SP 800-38A F.2.6 CBC-AES256.Decrypt, bitsliced and table")
  func sp800_38a() throws {
    let key = TestHex.bytes("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4")
    let iv = TestHex.bytes("000102030405060708090a0b0c0d0e0f")
    let plaintext = TestHex.bytes(
      "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
        + "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710")
    let ciphertext = TestHex.bytes(
      "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777bc6702c7d"
        + "39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fcda6c19078c6a9d1b")
    var sliced = try CBC<ConstantTimeAES>(key: key, iv: iv)
    var buffer = ciphertext
    try sliced.decrypt(blocksInPlace: &buffer)
    #expect(buffer == plaintext)
    var table = try CBC<AES>(key: key, iv: iv)
    buffer = ciphertext
    try table.decrypt(blocksInPlace: &buffer)
    #expect(buffer == plaintext)
    // Twice over (8 blocks: two or one full bitsliced passes): the second half chains from the first's last block.
    var double = try CBC<AES>(key: key, iv: iv)
    var eight = plaintext + plaintext
    try double.encrypt(blocksInPlace: &eight)
    var parallel = try CBC<ConstantTimeAES>(key: key, iv: iv)
    try parallel.decrypt(blocksInPlace: &eight)
    #expect(eight == plaintext + plaintext)
  }

  @Test(
    "CAVP AESAVS CBC-256 KAT and MMT decryption through the bitsliced kernel",
    arguments: Vectors.records("aes/cavp-cbc256-kat.vec") + Vectors.records("aes/cavp-cbc256-mmt.vec"))
  func cavp(_ record: VectorRecord) throws {
    var cbc = try CBC<ConstantTimeAES>(key: record.bytes("key"), iv: record.bytes("iv"))
    if record.string("direction") == "encrypt" {
      var buffer = record.bytes("plaintext")
      try cbc.encrypt(blocksInPlace: &buffer)
      #expect(buffer == record.bytes("ciphertext"))
    } else {
      var buffer = record.bytes("ciphertext")
      try cbc.decrypt(blocksInPlace: &buffer)
      #expect(buffer == record.bytes("plaintext"))
    }
  }

  @Test("Bitsliced CBC decryption equals the table kernel at every block count 0...40 and every split")
  func allLengths() throws {
    var random = SplitMix64(seed: 0xcbc8)
    for blocks in 0...40 {
      let key = random.bytes(32)
      let iv = random.bytes(16)
      let ciphertext = random.bytes(16 * blocks)
      var expected = ciphertext
      var table = try CBC<AES>(key: key, iv: iv)
      try table.decrypt(blocksInPlace: &expected)
      var whole = ciphertext
      var sliced = try CBC<ConstantTimeAES>(key: key, iv: iv)
      try sliced.decrypt(blocksInPlace: &whole)
      #expect(whole == expected, "\(blocks) blocks in one call")
      #expect(sliced.chainingValue == table.chainingValue)
      // Streamed in two calls, split at every block boundary: the chaining value carries over.
      for split in stride(from: 0, through: blocks, by: blocks > 20 ? 3 : 1) {
        var head = Array(ciphertext[0..<16 * split])
        var tail = Array(ciphertext[(16 * split)...])
        var streamed = try CBC<ConstantTimeAES>(key: key, iv: iv)
        try streamed.decrypt(blocksInPlace: &head)
        try streamed.decrypt(blocksInPlace: &tail)
        #expect(head + tail == expected, "\(blocks) blocks split at \(split)")
      }
    }
  }

  @Test("Padded round trip through the bitsliced decryption for every length 0...300")
  func paddedRoundTrip() throws {
    var random = SplitMix64(seed: 0x38a)
    let key = random.bytes(32)
    let iv = random.bytes(16)
    let cipher = try ConstantTimeAES(key: key)
    for length in 0...300 {
      let plaintext = random.bytes(length)
      let sealed = try CBC<AES>.encrypt(plaintext, key: key, iv: iv)
      #expect(try CBC<ConstantTimeAES>.decrypt(sealed, cipher: cipher, iv: iv) == plaintext)
    }
  }
}
