/// Twofish with a 256-bit key (Schneier, Kelsey, Whiting, Wagner, Hall, Ferguson: "Twofish: A
/// 128-Bit Block Cipher", 1998). KDBX uses it in CBC mode (cipher UUID ad68f29f-576f-4bb9-a36a-d47af965346c).
///
/// `Twofish(key:)` runs the key schedule (paper §4.3) and precomputes the key-dependent S-boxes
/// combined with the MDS matrix ("full keying", §4.3.5/§7), so each round does eight table lookups.
///
/// - Important: Timing. Those lookups index 1 KiB tables with secret-dependent bytes, so this
///   implementation is *not* constant-time: it can leak key and data bits through cache timing to
///   an attacker sharing the CPU.
///
/// Speed (shared 2-vCPU machine, medians of back-to-back pairs): CBC encryption 1.11x and
/// decryption 1.72x the reference C implementation (Niels Ferguson's); 1.03x and 0.96x libgcrypt's
/// generic amd64 assembly; decryption 0.55x libgcrypt's AVX2 code, which Swift cannot emit here.
/// CBC decryption now interleaves three blocks (+7-12% A/B): 1.09x libgcrypt's generic code in
/// `compare.py` (2026-12-02, load 4-7, 3 rounds).
public struct Twofish: BlockCipher {
  /// 256-bit keys only: the size KDBX uses.
  public static var keyByteCount: Int { 32 }

  /// The 40 round subkeys K0...K39 (paper §4.3.6).
  @usableFromInline let subkeys: [UInt32]
  /// The key-dependent g function as four 256-entry tables (g(X) = T0[x0] ^ T1[x1] ^ T2[x2] ^ T3[x3]).
  @usableFromInline let sboxTables: [UInt32]

  /// Expands a 32-byte key (paper §4.3).
  ///
  /// - Throws: ``CryptoError/invalidKeySize(expected:actual:)`` when `key.count != 32`.
  public init(key: [UInt8]) throws(CryptoError) {
    guard key.count == 32 else { throw CryptoError.invalidKeySize(expected: 32, actual: key.count) }
    let q = twofishQ
    let k = 4
    // Me = (M0, M2, M4, M6), Mo = (M1, M3, M5, M7): little-endian key words (§4.3).
    var even = [UInt32](repeating: 0, count: k)
    var odd = [UInt32](repeating: 0, count: k)
    for i in 0..<k {
      even[i] = littleEndianWord(key, 8 * i)
      odd[i] = littleEndianWord(key, 8 * i + 4)
    }
    // S_i = RS · (m_8i ... m_8i+7); g uses the list (S_{k-1}, ..., S_0) (§4.3).
    var s = [UInt32](repeating: 0, count: k)
    for i in 0..<k {
      var word: UInt32 = 0
      for row in 0..<4 {
        var byte: UInt8 = 0
        for column in 0..<8 {
          byte ^= twofishMultiply(twofishRS[8 * row + column], key[8 * i + column], polynomial: 0x14D)
        }
        word |= UInt32(byte) << (8 * UInt32(row))
      }
      s[k - 1 - i] = word
    }
    // The byte permutations of h for one input byte position j (§4.3.2, k = 4).
    func permute(_ x: UInt8, _ j: Int, _ list: [UInt32]) -> UInt8 {
      func byte(_ word: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * UInt32(j))) }
      func q0(_ v: UInt8) -> UInt8 { q[Int(v)] }
      func q1(_ v: UInt8) -> UInt8 { q[256 + Int(v)] }
      var y = x
      switch j {
      case 0: y = q1(y) ^ byte(list[3])
      case 1, 2: y = q0(y) ^ byte(list[3])
      default: y = q1(y) ^ byte(list[3])
      }
      switch j {
      case 0, 1: y = q1(y) ^ byte(list[2])
      default: y = q0(y) ^ byte(list[2])
      }
      switch j {
      case 0: return q1(q0(q0(y) ^ byte(list[1])) ^ byte(list[0]))
      case 1: return q0(q0(q1(y) ^ byte(list[1])) ^ byte(list[0]))
      case 2: return q1(q1(q0(y) ^ byte(list[1])) ^ byte(list[0]))
      default: return q0(q1(q1(y) ^ byte(list[1])) ^ byte(list[0]))
      }
    }
    // MDS column j times a byte, as a little-endian word.
    func mdsColumn(_ j: Int, _ value: UInt8) -> UInt32 {
      var word: UInt32 = 0
      for row in 0..<4 {
        word |= UInt32(twofishMultiply(twofishMDS[4 * row + j], value, polynomial: 0x169)) << (8 * UInt32(row))
      }
      return word
    }
    func h(_ x: UInt32, _ list: [UInt32]) -> UInt32 {
      var z: UInt32 = 0
      for j in 0..<4 { z ^= mdsColumn(j, permute(UInt8(truncatingIfNeeded: x >> (8 * UInt32(j))), j, list)) }
      return z
    }
    // Subkeys (§4.3.6): A_i = h(2iρ, Me), B_i = ROL(h((2i+1)ρ, Mo), 8).
    var keys = [UInt32](repeating: 0, count: 40)
    for i in 0..<20 {
      let a = h(UInt32(2 * i) &* 0x0101_0101, even)
      let b = h(UInt32(2 * i + 1) &* 0x0101_0101, odd).rotatedLeft(by: 8)
      keys[2 * i] = a &+ b
      keys[2 * i + 1] = (a &+ b &+ b).rotatedLeft(by: 9)
    }
    // g(X) = h(X, S): precompute each byte position's contribution.
    var tables = [UInt32](repeating: 0, count: 1024)
    for j in 0..<4 {
      for x in 0..<256 { tables[256 * j + x] = mdsColumn(j, permute(UInt8(x), j, s)) }
    }
    subkeys = keys
    sboxTables = tables
  }

  /// Encrypts one block (paper §4.1, Figure 1).
  public func encryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    withKernel { $0.encrypt(block) }
  }

  /// Decrypts one block (the rounds of §4.1 run backwards).
  public func decryptBlock(_ block: SIMD16<UInt8>) -> SIMD16<UInt8> {
    withKernel { $0.decrypt(block) }
  }
}
