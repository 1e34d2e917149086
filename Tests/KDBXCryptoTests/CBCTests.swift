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

  /// CBC decryption one block at a time through `decryptBlock`: the reference for the multi-block kernels.
  static func referenceDecrypt<Cipher: BlockCipher>(_ cipher: Cipher, _ ciphertext: [UInt8], iv: [UInt8]) -> [UInt8] {
    var chain = iv
    var out: [UInt8] = []
    for start in stride(from: 0, to: ciphertext.count, by: 16) {
      let block = Array(ciphertext[start..<start + 16])
      let plain = cipher.decryptBlock(block) ?? []
      out += zip(plain, chain).map { $0 ^ $1 }
      chain = block
    }
    return out
  }

  /// Checks `cipher`'s CBC decryption of `ciphertext` against the block-by-block reference: in one call, split
  /// into two calls at every block boundary, in three calls, at every misalignment of the buffer, and out of
  /// place (the one-shot form on a shared array, which must leave its input unchanged).
  static func checkMultiBlockDecryption<Cipher: BlockCipher>(_ cipher: Cipher, _ ciphertext: [UInt8], iv: [UInt8])
    throws
  {
    let name = "\(Cipher.self), \(ciphertext.count / 16) blocks"
    let expected = referenceDecrypt(cipher, ciphertext, iv: iv)
    let lastBlock = ciphertext.count >= 16 ? Array(ciphertext[(ciphertext.count - 16)...]) : iv
    var whole = ciphertext
    var cbc = try CBC(cipher: cipher, iv: iv)
    try cbc.decrypt(blocksInPlace: &whole)
    #expect(whole == expected, "\(name) in one call")
    #expect(AESTests.bytes(cbc.chainingValue) == lastBlock, "\(name): chaining value")
    let blocks = ciphertext.count / 16
    for split in 0...blocks {
      var head = Array(ciphertext[0..<16 * split])
      var tail = Array(ciphertext[(16 * split)...])
      var streamed = try CBC(cipher: cipher, iv: iv)
      try streamed.decrypt(blocksInPlace: &head)
      try streamed.decrypt(blocksInPlace: &tail)
      #expect(head + tail == expected, "\(name) split at \(split)")
      #expect(AESTests.bytes(streamed.chainingValue) == lastBlock, "\(name) split at \(split): chaining value")
      // Three calls: the tail split once more, two blocks further on (or at its end).
      let second = min(blocks, split + 2)
      var middle = Array(ciphertext[(16 * split)..<(16 * second)])
      var rest = Array(ciphertext[(16 * second)...])
      var three = try CBC(cipher: cipher, iv: iv)
      head = Array(ciphertext[0..<16 * split])
      try three.decrypt(blocksInPlace: &head)
      try three.decrypt(blocksInPlace: &middle)
      try three.decrypt(blocksInPlace: &rest)
      #expect(head + middle + rest == expected, "\(name) split at \(split) and \(second)")
    }
    // The kernels load and store unaligned: run them on a buffer that starts at every offset 1...15.
    for misalignment in 1..<16 {
      var padded = [UInt8](repeating: 0xa5, count: misalignment) + ciphertext + [0x5a]
      var shifted = try CBC(cipher: cipher, iv: iv)
      padded.withUnsafeMutableBytes { raw in
        shifted.decrypt(
          blocksIn: UnsafeMutableRawBufferPointer(rebasing: raw[misalignment..<(misalignment + ciphertext.count)]))
      }
      #expect(
        Array(padded[misalignment..<(misalignment + ciphertext.count)]) == expected, "\(name) at +\(misalignment)")
      #expect(
        padded[0..<misalignment].allSatisfy { $0 == 0xa5 } && padded.last == 0x5a, "\(name): bytes around untouched")
    }
    // Out of place: the array is shared, so decryption works on its own copy and the input stays as it was.
    if !ciphertext.isEmpty {
      let input = ciphertext
      let padding = expected.last.map(Int.init) ?? 0
      let plaintext = try? CBC<Cipher>.decrypt(input, cipher: cipher, iv: iv)
      #expect(input == ciphertext, "\(name): input untouched")
      if (1...16).contains(padding), expected.suffix(padding).allSatisfy({ Int($0) == padding }) {
        #expect(plaintext == Array(expected.dropLast(padding)), "\(name) out of place")
      } else {
        #expect(plaintext == nil, "\(name) out of place: invalid padding")
      }
    }
  }

  @Test(
    "Multi-block CBC decryption (AES, Twofish, ConstantTimeAES) equals block-by-block decryption: every block count 0...40, every split, every misalignment, in and out of place"
  )
  func multiBlockDecryption() throws {
    var random = SplitMix64(seed: 0x22_0004)
    for blocks in 0...40 {
      let key = random.bytes(32)
      let iv = random.bytes(16)
      var ciphertext = random.bytes(16 * blocks)
      // Every fourth message gets a valid PKCS#7 tail so the out-of-place one-shot form also succeeds.
      if blocks > 0, blocks % 4 == 0 {
        let aes = try AES(key: key)
        var plaintext = random.bytes(16 * blocks - 3) + [3, 3, 3]
        var cbc = try CBC(cipher: aes, iv: iv)
        try cbc.encrypt(blocksInPlace: &plaintext)
        ciphertext = plaintext
      }
      try Self.checkMultiBlockDecryption(AES(key: key), ciphertext, iv: iv)
      try Self.checkMultiBlockDecryption(Twofish(key: key), ciphertext, iv: iv)
      try Self.checkMultiBlockDecryption(ConstantTimeAES(key: key), ciphertext, iv: iv)
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
