import KDBXCrypto
import Testing
import VectorSupport

@Suite("CBC with PKCS#7")
struct CBCTests {
  @Test(
    "CAVP AESAVS CBC-256 KAT and MMT",
    arguments: Vectors.records("aes/cavp-cbc256-kat.vec") + Vectors.records("aes/cavp-cbc256-mmt.vec"))
  func cavpCBC(_ record: VectorRecord) throws {
    let plaintext = record.bytes("plaintext")
    let ciphertext = record.bytes("ciphertext")
    if record.string("direction") == "encrypt" {
      var cbc = try CBC<AES>(key: record.bytes("key"), iv: record.bytes("iv"))
      var buffer = plaintext
      try cbc.encrypt(blocksInPlace: &buffer)
      #expect(buffer == ciphertext)
    } else {
      var cbc = try CBC<AES>(key: record.bytes("key"), iv: record.bytes("iv"))
      var buffer = ciphertext
      try cbc.decrypt(blocksInPlace: &buffer)
      #expect(buffer == plaintext)
    }
  }

  @Test(
    "AESAVS Monte Carlo CBC-256 (sampled)",
    arguments: Vectors.records("aes/aesavs-mct-cbc256-encrypt.vec")
      + Vectors.records("aes/aesavs-mct-cbc256-decrypt.vec"))
  func monteCarloCBC(_ record: VectorRecord) throws {
    // AESAVS §6.4.2 inner loop: the next input is the IV (j = 0) or the output two steps back.
    let aes = try AES(key: record.bytes("key"))
    let encrypting = record.file.contains("encrypt")
    let iv = AESTests.block(record.bytes("iv"))
    var input = AESTests.block(record.bytes(encrypting ? "plaintext" : "ciphertext"))
    var chain = iv
    var outputs: [SIMD16<UInt8>] = []
    for j in 0..<1000 {
      let output: SIMD16<UInt8>
      if encrypting {
        output = aes.encryptBlock(input ^ chain)
        chain = output
      } else {
        output = aes.decryptBlock(input) ^ chain
        chain = input
      }
      input = j == 0 ? iv : outputs[j - 1]
      outputs.append(output)
    }
    #expect(AESTests.bytes(outputs[999]) == record.bytes(encrypting ? "ciphertext" : "plaintext"))
  }

  @Test("PKCS#7 round trip for every length 0...100, one-shot and streamed")
  func roundTrip() throws {
    var random = SplitMix64(seed: 7)
    let key = random.bytes(32)
    let iv = random.bytes(16)
    for length in 0...100 {
      let plaintext = random.bytes(length)
      let sealed = try CBC<AES>.encrypt(plaintext, key: key, iv: iv)
      #expect(sealed.count == (length / 16 + 1) * 16)
      #expect(try CBC<AES>.decrypt(sealed, key: key, iv: iv) == plaintext)
      #expect(
        try CBC<Twofish>.decrypt(CBC<Twofish>.encrypt(plaintext, key: key, iv: iv), key: key, iv: iv) == plaintext)
      // Streaming in two pieces gives the same ciphertext as one call.
      let split = (sealed.count / 32) * 16
      var cbc = try CBC<AES>(key: key, iv: iv)
      var head = Array(sealed[0..<split])
      var tail = Array(sealed[split...])
      try cbc.decrypt(blocksInPlace: &head)
      try cbc.decrypt(blocksInPlace: &tail)
      let padded = plaintext + [UInt8](repeating: UInt8(sealed.count - length), count: sealed.count - length)
      #expect(head + tail == padded)
    }
  }

  @Test("Malformed padding throws invalidPadding")
  func badPadding() throws {
    let key = [UInt8](repeating: 3, count: 32)
    let iv = [UInt8](repeating: 9, count: 16)
    let aes = try AES(key: key)
    // Encrypt chosen final blocks without padding, then ask decrypt to strip padding.
    let badTails: [[UInt8]] = [
      [UInt8](repeating: 0, count: 16),  // pad byte 0
      [UInt8](repeating: 17, count: 16),  // pad byte > 16
      [UInt8](repeating: 0xff, count: 16),
      [UInt8](repeating: 4, count: 13) + [5, 4, 4],  // inconsistent pad bytes
      [UInt8](repeating: 1, count: 15) + [16],  // claims 16 but only the last is 16
    ]
    for tail in badTails {
      var cbc = try CBC<AES>(cipher: aes, iv: iv)
      var bytes = [UInt8](repeating: 0x41, count: 16) + tail
      try cbc.encrypt(blocksInPlace: &bytes)
      #expect(throws: CryptoError.invalidPadding) { _ = try CBC<AES>.decrypt(bytes, key: key, iv: iv) }
    }
    // A full block of padding is valid.
    var cbc = try CBC<AES>(cipher: aes, iv: iv)
    var full = [UInt8](repeating: 16, count: 16)
    try cbc.encrypt(blocksInPlace: &full)
    #expect(try CBC<AES>.decrypt(full, key: key, iv: iv) == [])
  }

  @Test("Bad lengths and sizes throw typed errors")
  func badLengths() throws {
    let key = [UInt8](repeating: 3, count: 32)
    let iv = [UInt8](repeating: 9, count: 16)
    for length in [0, 1, 15, 17, 31, 33] {
      #expect(throws: CryptoError.invalidCiphertextLength(length)) {
        _ = try CBC<AES>.decrypt([UInt8](repeating: 0, count: length), key: key, iv: iv)
      }
      #expect(throws: CryptoError.invalidCiphertextLength(length)) {
        _ = try CBC<Twofish>.decrypt([UInt8](repeating: 0, count: length), key: key, iv: iv)
      }
    }
    var cbc = try CBC<AES>(key: key, iv: iv)
    var odd = [UInt8](repeating: 0, count: 20)
    #expect(throws: CryptoError.invalidCiphertextLength(20)) { try cbc.encrypt(blocksInPlace: &odd) }
    #expect(throws: CryptoError.invalidNonceSize(expected: 16, actual: 8)) {
      _ = try CBC<AES>.encrypt([1, 2, 3], key: key, iv: [UInt8](repeating: 0, count: 8))
    }
    #expect(throws: CryptoError.invalidKeySize(expected: 32, actual: 16)) {
      _ = try CBC<AES>.encrypt([1, 2, 3], key: [UInt8](repeating: 0, count: 16), iv: iv)
    }
  }
}
