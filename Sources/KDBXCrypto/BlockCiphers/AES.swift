/// AES-256, the block cipher of FIPS 197 with Nk = 8 and Nr = 14.
///
/// `AES(key:)` expands a 32-byte key (FIPS 197 §5.2, and §5.3.5 for the equivalent inverse cipher
/// used to decrypt). Use it through ``CBC`` for KDBX payloads or through ``AESKDF`` for the KeePass
/// key transform.
///
/// - Important: Timing. This type is the classic *table-based* implementation ("T-tables"): every
///   round looks up 16 entries of 1 KiB tables at secret-dependent indices, which leaks key and data
///   bits through cache timing to an attacker who shares the CPU. ``ConstantTimeAES`` is a
///   bitsliced alternative without secret-dependent memory access or branches.
///
/// Speed (2-vCPU AMD EPYC, 2026-12-02, medians with the native anchors run alternately by
/// `Benchmarks/scripts/compare.py`): CBC decryption 0.97x OpenSSL's bitsliced decryption (AES-NI
/// masked), CBC encryption 2.0x its vector-permute code; AES-KDF 1.21x a portable C T-table loop
/// (its own kernel: both halves packed in one 64-bit-per-column state, the tables and keys in one
/// buffer). The bitsliced ``ConstantTimeAES`` reaches about 0.24x of this type's AES-KDF rounds per
/// second, below the 0.6x bar for making it the default. Hardware AES (AES-NI, ARMv8 AES) cannot be
/// reached from pure Swift: OpenSSL with AES-NI runs CBC encryption at about 1 GB/s, CBC decryption
/// at 6 GB/s and AES-KDF at 60 M rounds/s on the same machine: about 3x, 18x and 4x this type.
public struct AES: BlockCipher {
  /// AES-256 keys are 32 bytes (FIPS 197 §5, Nk = 8).
  public static var keyByteCount: Int { 32 }

  /// The number of rounds, Nr = 14 for a 256-bit key (FIPS 197 §5, Figure 4).
  public static var roundCount: Int { 14 }

  /// The encryption key schedule w[0..<60] (FIPS 197 §5.2), one big-endian word per column.
  @usableFromInline let encryptionKeys: [UInt32]

  /// The equivalent-inverse-cipher key schedule dw[0..<60] (FIPS 197 §5.3.5), in the order
  /// decryption uses it.
  @usableFromInline let decryptionKeys: [UInt32]

  /// Expands a 32-byte AES-256 key (FIPS 197 §5.2 KeyExpansion).
  ///
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` when `key.count != 32`.
  public init(key: [UInt8]) throws(CryptoError) {
    guard key.count == 32 else { throw CryptoError.invalidKeySize(expected: 32, actual: key.count) }
    let tables = AESTables.shared
    let sbox = tables.bytes
    func subWord(_ word: UInt32) -> UInt32 {
      UInt32(sbox[Int(word >> 24)]) << 24 | UInt32(sbox[Int((word >> 16) & 0xff)]) << 16
        | UInt32(sbox[Int((word >> 8) & 0xff)]) << 8 | UInt32(sbox[Int(word & 0xff)])
    }
    var w = [UInt32](repeating: 0, count: 60)
    for i in 0..<8 {
      w[i] =
        UInt32(key[4 * i]) << 24 | UInt32(key[4 * i + 1]) << 16 | UInt32(key[4 * i + 2]) << 8 | UInt32(key[4 * i + 3])
    }
    var rcon: UInt32 = 0x0100_0000
    for i in 8..<60 {
      var temp = w[i - 1]
      if i % 8 == 0 {
        temp = subWord(temp.rotatedLeft(by: 8)) ^ rcon
        rcon = UInt32(aesTimesX(UInt8(rcon >> 24))) << 24
      } else if i % 8 == 4 {
        temp = subWord(temp)
      }
      w[i] = w[i - 8] ^ temp
    }
    // Equivalent inverse cipher (§5.3.5): reverse the round order and apply InvMixColumns to the
    // keys of rounds 1...Nr-1. InvMixColumns(w) = Td0[S[b0]] ^ Td1[S[b1]] ^ Td2[S[b2]] ^ Td3[S[b3]].
    let td = tables.words
    var dw = [UInt32](repeating: 0, count: 60)
    for round in 0...14 {
      for column in 0..<4 {
        let word = w[4 * (14 - round) + column]
        if round == 0 || round == 14 {
          dw[4 * round + column] = word
        } else {
          dw[4 * round + column] =
            td[1024 + Int(sbox[Int(word >> 24)])] ^ td[1280 + Int(sbox[Int((word >> 16) & 0xff)])]
            ^ td[1536 + Int(sbox[Int((word >> 8) & 0xff)])] ^ td[1792 + Int(sbox[Int(word & 0xff)])]
        }
      }
    }
    encryptionKeys = w
    decryptionKeys = dw
  }

  /// Encrypts one block (FIPS 197 §5.1 Cipher).
  public func encryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    withKernel(decrypting: false) { $0.encrypt(AESWords(block)) }.block
  }

  /// Decrypts one block (FIPS 197 §5.3.5 equivalent inverse cipher).
  public func decryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    withKernel(decrypting: true) { $0.decrypt(AESWords(block)) }.block
  }
}
