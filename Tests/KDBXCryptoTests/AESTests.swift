import KDBXCrypto
import Testing
import VectorSupport

@Suite("AES-256")
struct AESTests {
  static func block(_ bytes: [UInt8]) -> SIMD16<UInt8> {
    var vector = SIMD16<UInt8>()
    for index in 0..<min(16, bytes.count) { vector[index] = bytes[index] }
    return vector
  }

  static func bytes(_ vector: SIMD16<UInt8>) -> [UInt8] { (0..<16).map { vector[$0] } }

  @Test("FIPS 197 Appendix C.3", arguments: Vectors.records("aes/fips197-c3.vec"))
  func fips197(_ record: VectorRecord) throws {
    let aes = try AES(key: record.bytes("key"))
    #expect(aes.encryptBlock(record.bytes("plaintext")) == record.bytes("ciphertext"))
    #expect(aes.decryptBlock(record.bytes("ciphertext")) == record.bytes("plaintext"))
    let ct = try ConstantTimeAES(key: record.bytes("key"))
    #expect(ct.encryptBlock(record.bytes("plaintext")) == record.bytes("ciphertext"))
    #expect(ct.decryptBlock(record.bytes("ciphertext")) == record.bytes("plaintext"))
  }

  @Test(
    "CAVP AESAVS ECB-256 KAT and MMT",
    arguments: Vectors.records("aes/cavp-ecb256-kat.vec") + Vectors.records("aes/cavp-ecb256-mmt.vec"))
  func cavpECB(_ record: VectorRecord) throws {
    let aes = try AES(key: record.bytes("key"))
    let ct = try ConstantTimeAES(key: record.bytes("key"))
    let plaintext = record.bytes("plaintext")
    let ciphertext = record.bytes("ciphertext")
    #expect(plaintext.count == ciphertext.count && plaintext.count % 16 == 0)
    if record.string("direction") == "encrypt" {
      var buffer = plaintext
      buffer.withUnsafeMutableBytes { aes.encryptBlocks($0) }
      #expect(buffer == ciphertext)
      buffer = plaintext
      buffer.withUnsafeMutableBytes { ct.encryptBlocks($0) }
      #expect(buffer == ciphertext)
    } else {
      var buffer = ciphertext
      buffer.withUnsafeMutableBytes { aes.decryptBlocks($0) }
      #expect(buffer == plaintext)
      buffer = ciphertext
      buffer.withUnsafeMutableBytes { ct.decryptBlocks($0) }
      #expect(buffer == plaintext)
    }
  }

  @Test(
    "AESAVS Monte Carlo ECB-256 (sampled)",
    arguments: Vectors.records("aes/aesavs-mct-ecb256-encrypt.vec")
      + Vectors.records("aes/aesavs-mct-ecb256-decrypt.vec"))
  func monteCarloECB(_ record: VectorRecord) throws {
    let aes = try AES(key: record.bytes("key"))
    let encrypting = record.file.contains("encrypt")
    var text = Self.block(record.bytes(encrypting ? "plaintext" : "ciphertext"))
    for _ in 0..<1000 {
      text = encrypting ? aes.encryptBlock(text) : aes.decryptBlock(text)
    }
    #expect(Self.bytes(text) == record.bytes(encrypting ? "ciphertext" : "plaintext"))
  }

  @Test("Key sizes other than 32 bytes throw")
  func badKeySizes() {
    for size in [0, 15, 16, 24, 31, 33, 64] {
      #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: size)) {
        _ = try AES(key: [UInt8](repeating: 1, count: size))
      }
      #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: size)) {
        _ = try ConstantTimeAES(key: [UInt8](repeating: 1, count: size))
      }
    }
  }

  @Test("Bitsliced and table kernels agree on random blocks")
  func kernelsAgree() throws {
    var random = SplitMix64(seed: 0xae5)
    for _ in 0..<20 {
      let key = random.bytes(32)
      let table = try AES(key: key)
      let sliced = try ConstantTimeAES(key: key)
      let count = Int(random.next() % 9) * 16
      let input = random.bytes(count)
      var a = input
      var b = input
      a.withUnsafeMutableBytes { table.encryptBlocks($0) }
      b.withUnsafeMutableBytes { sliced.encryptBlocks($0) }
      #expect(a == b)
      a.withUnsafeMutableBytes { table.decryptBlocks($0) }
      b.withUnsafeMutableBytes { sliced.decryptBlocks($0) }
      #expect(a == input && b == input)
    }
  }
}
