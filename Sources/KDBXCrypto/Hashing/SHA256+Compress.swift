// SHA-256 compression function (FIPS 180-4 §6.2.2): its round constants and UInt32 word functions; the
// compression loop is SHA2.compress (SHA2+Compress.swift).

extension SHA256 {
  /// FIPS 180-4 §4.2.2: the 64 round constants K0...K63.
  static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
  ]

  /// Processes `count` consecutive 64-byte blocks starting at `blocks` (FIPS 180-4 §6.2.2).
  // SAFETY: absorb (MerkleDamgard+Buffer) passes count whole 64-byte blocks (see SHA2.compress).
  static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, _ count: Int) {
    SHA2.compress(&state, blocks, count, roundConstants)
  }
}

extension UInt32: SHA2Word {
  // The rotations nest: ROTR6 ^ ROTR11 ^ ROTR25 equals ROTR6(ROTR5(ROTR14(x) ^ x) ^ x), which needs fewer
  // register copies; the others likewise.

  /// Σ0 = ROTR2 ^ ROTR13 ^ ROTR22 (FIPS 180-4 (4.4)).
  @inline(__always)
  static func bigSigma0(_ x: UInt32) -> UInt32 {
    var sigma = (x >> 9 | x << 23) ^ x
    sigma = (sigma >> 11 | sigma << 21) ^ x
    return sigma >> 2 | sigma << 30
  }

  /// Σ1 = ROTR6 ^ ROTR11 ^ ROTR25 (FIPS 180-4 (4.5)).
  @inline(__always)
  static func bigSigma1(_ x: UInt32) -> UInt32 {
    var sigma = (x >> 14 | x << 18) ^ x
    sigma = (sigma >> 5 | sigma << 27) ^ x
    return sigma >> 6 | sigma << 26
  }

  /// σ0 = ROTR7 ^ ROTR18 ^ SHR3 (FIPS 180-4 (4.6)).
  @inline(__always)
  static func smallSigma0(_ x: UInt32) -> UInt32 {
    let sigma = (x >> 11 | x << 21) ^ x
    return (sigma >> 7 | sigma << 25) ^ (x >> 3)
  }

  /// σ1 = ROTR17 ^ ROTR19 ^ SHR10 (FIPS 180-4 (4.7)).
  @inline(__always)
  static func smallSigma1(_ x: UInt32) -> UInt32 {
    let sigma = (x >> 2 | x << 30) ^ x
    return (sigma >> 17 | sigma << 15) ^ (x >> 10)
  }
}
