import KDBXCrypto
import Testing
import VectorSupport

/// CBC decryption and the ChaCha20 key stream in pieces on several cores
/// (`CBC.decrypt(_:cipher:iv:maxConcurrency:minimumPieceByteCount:)`, `ChaCha20.applyInPieces`): the same bytes
/// and the same errors as in one piece, whatever the piece boundaries.
@Suite("Ciphers in pieces")
struct CipherPiecesTests {
  static let lengths = [16, 32, 48, 64, 1008, 1024, 4096, 16_000, 65_536]

  @Test("CBC in pieces decrypts as in one piece", arguments: [1, 2, 3, 5])
  func cbcPieces(cores: Int) throws {
    var random = SplitMix64(seed: UInt64(cores) &* 1_000_003)
    let key = random.bytes(32)
    let iv = random.bytes(16)
    for length in Self.lengths {
      for minimum in [16, 48, 100, 4096] {
        let plaintext = random.bytes(length - 1)  // padded to `length` bytes of ciphertext
        let aesCiphertext = try CBC<AES>.encrypt(plaintext, key: key, iv: iv)
        let aes = try CBC<AES>.decrypt(
          aesCiphertext, cipher: AES(key: key), iv: iv, maxConcurrency: cores, minimumPieceByteCount: minimum)
        #expect(aes == plaintext, "AES, \(length) bytes, \(cores) cores, pieces of \(minimum)")
        let twofishCiphertext = try CBC<Twofish>.encrypt(plaintext, key: key, iv: iv)
        let twofish = try CBC<Twofish>.decrypt(
          twofishCiphertext, cipher: Twofish(key: key), iv: iv, maxConcurrency: cores, minimumPieceByteCount: minimum)
        #expect(twofish == plaintext, "Twofish, \(length) bytes, \(cores) cores, pieces of \(minimum)")
        // Whole blocks without padding: the raw block decryption agrees with the streaming one.
        var streamed = aesCiphertext
        var cbc = try CBC<AES>(key: key, iv: iv)
        try cbc.decrypt(blocksInPlace: &streamed)
        var pieces = aesCiphertext
        CBC<AES>.decryptBlocksInPieces(
          &pieces, cipher: try AES(key: key), iv: SIMD16<UInt8>(iv), maxConcurrency: cores,
          minimumPieceByteCount: minimum)
        #expect(pieces == streamed, "blocks, \(length) bytes, \(cores) cores, pieces of \(minimum)")
      }
    }
  }

  @Test("CBC in pieces reports the errors of the one-piece decryption")
  func cbcErrors() throws {
    var random = SplitMix64(seed: 9)
    let key = random.bytes(32)
    let iv = random.bytes(16)
    let ciphertext = try CBC<AES>.encrypt(random.bytes(5000), key: key, iv: iv)
    func both(_ bytes: [UInt8], iv: [UInt8]) -> (CryptoError?, CryptoError?) {
      var one: CryptoError? = nil
      var many: CryptoError? = nil
      do { _ = try CBC<AES>.decrypt(bytes, key: key, iv: iv) } catch { one = error }
      do {
        _ = try CBC<AES>.decrypt(bytes, cipher: AES(key: key), iv: iv, maxConcurrency: 3, minimumPieceByteCount: 16)
      } catch { many = error }
      return (one, many)
    }
    var damagedPadding = ciphertext
    damagedPadding[damagedPadding.count - 1] ^= 0x40
    for (bytes, vector) in [
      ([UInt8](), iv), (Array(ciphertext.dropLast()), iv), (ciphertext, Array(iv.dropLast())),
      (damagedPadding, iv),
    ] {
      let (one, many) = both(bytes, iv: vector)
      #expect(one != nil)
      #expect(one == many)
    }
  }

  @Test("ChaCha20 in pieces gives the key stream of one piece", arguments: [1, 2, 3, 4])
  func chaChaPieces(cores: Int) throws {
    var random = SplitMix64(seed: UInt64(cores) &* 77)
    let key = random.bytes(32)
    let nonce = random.bytes(12)
    for length in Self.lengths + [0, 1, 63, 65, 4095, 70_001] {
      for counter: UInt32 in [0, 1, 1_000_000] {
        for minimum in [64, 100, 4096] {
          let input = random.bytes(length)
          var whole = input
          var stream = try ChaCha20(key: key, nonce: nonce, counter: counter)
          try stream.apply(to: &whole)
          var pieces = input
          try ChaCha20.applyInPieces(
            to: &pieces, key: key, nonce: nonce, counter: counter, maxConcurrency: cores,
            minimumPieceByteCount: minimum)
          #expect(pieces == whole, "\(length) bytes from block \(counter), \(cores) cores, pieces of \(minimum)")
        }
      }
    }
  }

  @Test("ChaCha20 in pieces refuses what the counter cannot reach, and bad keys and nonces")
  func chaChaErrors() {
    let key = [UInt8](repeating: 7, count: 32)
    let nonce = [UInt8](repeating: 9, count: 12)
    // Two blocks from the last block number: one past the end of the counter.
    var bytes = [UInt8](repeating: 0, count: 128)
    #expect(throws: CryptoError.counterOverflow) {
      try ChaCha20.applyInPieces(
        to: &bytes, key: key, nonce: nonce, counter: .max, maxConcurrency: 2, minimumPieceByteCount: 64)
    }
    #expect(bytes == [UInt8](repeating: 0, count: 128))
    var one = [UInt8](repeating: 0, count: 64)
    #expect(throws: Never.self) {
      try ChaCha20.applyInPieces(
        to: &one, key: key, nonce: nonce, counter: .max, maxConcurrency: 2, minimumPieceByteCount: 64)
    }
    #expect(throws: CryptoError.self) {
      try ChaCha20.applyInPieces(
        to: &bytes, key: Array(key.dropLast()), nonce: nonce, maxConcurrency: 2, minimumPieceByteCount: 64)
    }
    #expect(throws: CryptoError.self) {
      try ChaCha20.applyInPieces(
        to: &bytes, key: key, nonce: Array(nonce.dropLast()), maxConcurrency: 2, minimumPieceByteCount: 64)
    }
  }
}
