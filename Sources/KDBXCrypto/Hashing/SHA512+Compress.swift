// SHA-512 compression function (FIPS 180-4 §6.4.2), the hot kernel.
//
// Same shape as SHA-256: working variables in locals, the message schedule as a rolling window of
// 16 locals, rounds unrolled 16 at a time by renaming, and round constants read through a pointer
// bound once per call.

extension SHA512 {
  /// FIPS 180-4 §4.2.3: the 80 round constants K0...K79.
  static let roundConstants: [UInt64] = [
    0x428a_2f98_d728_ae22, 0x7137_4491_23ef_65cd, 0xb5c0_fbcf_ec4d_3b2f, 0xe9b5_dba5_8189_dbbc, 0x3956_c25b_f348_b538,
    0x59f1_11f1_b605_d019, 0x923f_82a4_af19_4f9b, 0xab1c_5ed5_da6d_8118,
    0xd807_aa98_a303_0242, 0x1283_5b01_4570_6fbe, 0x2431_85be_4ee4_b28c, 0x550c_7dc3_d5ff_b4e2, 0x72be_5d74_f27b_896f,
    0x80de_b1fe_3b16_96b1, 0x9bdc_06a7_25c7_1235, 0xc19b_f174_cf69_2694,
    0xe49b_69c1_9ef1_4ad2, 0xefbe_4786_384f_25e3, 0x0fc1_9dc6_8b8c_d5b5, 0x240c_a1cc_77ac_9c65, 0x2de9_2c6f_592b_0275,
    0x4a74_84aa_6ea6_e483, 0x5cb0_a9dc_bd41_fbd4, 0x76f9_88da_8311_53b5,
    0x983e_5152_ee66_dfab, 0xa831_c66d_2db4_3210, 0xb003_27c8_98fb_213f, 0xbf59_7fc7_beef_0ee4, 0xc6e0_0bf3_3da8_8fc2,
    0xd5a7_9147_930a_a725, 0x06ca_6351_e003_826f, 0x1429_2967_0a0e_6e70,
    0x27b7_0a85_46d2_2ffc, 0x2e1b_2138_5c26_c926, 0x4d2c_6dfc_5ac4_2aed, 0x5338_0d13_9d95_b3df, 0x650a_7354_8baf_63de,
    0x766a_0abb_3c77_b2a8, 0x81c2_c92e_47ed_aee6, 0x9272_2c85_1482_353b,
    0xa2bf_e8a1_4cf1_0364, 0xa81a_664b_bc42_3001, 0xc24b_8b70_d0f8_9791, 0xc76c_51a3_0654_be30, 0xd192_e819_d6ef_5218,
    0xd699_0624_5565_a910, 0xf40e_3585_5771_202a, 0x106a_a070_32bb_d1b8,
    0x19a4_c116_b8d2_d0c8, 0x1e37_6c08_5141_ab53, 0x2748_774c_df8e_eb99, 0x34b0_bcb5_e19b_48a8, 0x391c_0cb3_c5c9_5a63,
    0x4ed8_aa4a_e341_8acb, 0x5b9c_ca4f_7763_e373, 0x682e_6ff3_d6b2_b8a3,
    0x748f_82ee_5def_b2fc, 0x78a5_636f_4317_2f60, 0x84c8_7814_a1f0_ab72, 0x8cc7_0208_1a64_39ec, 0x90be_fffa_2363_1e28,
    0xa450_6ceb_de82_bde9, 0xbef9_a3f7_b2c6_7915, 0xc671_78f2_e372_532b,
    0xca27_3ece_ea26_619c, 0xd186_b8c7_21c0_c207, 0xeada_7dd6_cde0_eb1e, 0xf57d_4f7f_ee6e_d178, 0x06f0_67aa_7217_6fba,
    0x0a63_7dc5_a2c8_98a6, 0x113f_9804_bef9_0dae, 0x1b71_0b35_131c_471b,
    0x28db_77f5_2304_7d84, 0x32ca_ab7b_40c7_2493, 0x3c9e_be0a_15c9_bebc, 0x431d_67c4_9c10_0d4c, 0x4cc5_d4be_cb3e_42b6,
    0x597f_299c_fc65_7e2a, 0x5fcb_6fab_3ad6_faec, 0x6c44_198c_4a47_5817,
  ]

  /// Processes `count` consecutive 128-byte blocks starting at `blocks` (FIPS 180-4 §6.4.2).
  // SAFETY: absorb (MerkleDamgard+Buffer) passes count whole 128-byte blocks; the constant table is an
  // immutable static array read inside its closure; bounds are noted inside.
  static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, _ count: Int) {
    roundConstants.withUnsafeBufferPointer { table in
      // SAFETY: the table has exactly 80 entries; `k` walks it in steps of 16 for five groups of
      // 16 rounds and reads k[0]...k[15] of each group, so every read is inside the table.
      // `blocks` holds count * 128 readable bytes (the caller passes whole blocks only), and each
      // block is read at byte offsets 0...127 before `block` advances by 128.
      guard let constants = table.baseAddress, table.count == 80 else { preconditionFailure("SHA-512 K table") }
      var s = state
      var block = blocks
      for _ in 0..<count {
        var a = s.h0
        var b = s.h1
        var c = s.h2
        var d = s.h3
        var e = s.h4
        var f = s.h5
        var g = s.h6
        var h = s.h7
        var w0 = block.loadUnaligned(fromByteOffset: 0, as: UInt64.self).bigEndian
        var w1 = block.loadUnaligned(fromByteOffset: 8, as: UInt64.self).bigEndian
        var w2 = block.loadUnaligned(fromByteOffset: 16, as: UInt64.self).bigEndian
        var w3 = block.loadUnaligned(fromByteOffset: 24, as: UInt64.self).bigEndian
        var w4 = block.loadUnaligned(fromByteOffset: 32, as: UInt64.self).bigEndian
        var w5 = block.loadUnaligned(fromByteOffset: 40, as: UInt64.self).bigEndian
        var w6 = block.loadUnaligned(fromByteOffset: 48, as: UInt64.self).bigEndian
        var w7 = block.loadUnaligned(fromByteOffset: 56, as: UInt64.self).bigEndian
        var w8 = block.loadUnaligned(fromByteOffset: 64, as: UInt64.self).bigEndian
        var w9 = block.loadUnaligned(fromByteOffset: 72, as: UInt64.self).bigEndian
        var w10 = block.loadUnaligned(fromByteOffset: 80, as: UInt64.self).bigEndian
        var w11 = block.loadUnaligned(fromByteOffset: 88, as: UInt64.self).bigEndian
        var w12 = block.loadUnaligned(fromByteOffset: 96, as: UInt64.self).bigEndian
        var w13 = block.loadUnaligned(fromByteOffset: 104, as: UInt64.self).bigEndian
        var w14 = block.loadUnaligned(fromByteOffset: 112, as: UInt64.self).bigEndian
        var w15 = block.loadUnaligned(fromByteOffset: 120, as: UInt64.self).bigEndian
        var bc = b ^ c
        var k = constants
        round(a, b, c, &d, e, f, g, &h, k[0] &+ w0, &bc)
        round(h, a, b, &c, d, e, f, &g, k[1] &+ w1, &bc)
        round(g, h, a, &b, c, d, e, &f, k[2] &+ w2, &bc)
        round(f, g, h, &a, b, c, d, &e, k[3] &+ w3, &bc)
        round(e, f, g, &h, a, b, c, &d, k[4] &+ w4, &bc)
        round(d, e, f, &g, h, a, b, &c, k[5] &+ w5, &bc)
        round(c, d, e, &f, g, h, a, &b, k[6] &+ w6, &bc)
        round(b, c, d, &e, f, g, h, &a, k[7] &+ w7, &bc)
        round(a, b, c, &d, e, f, g, &h, k[8] &+ w8, &bc)
        round(h, a, b, &c, d, e, f, &g, k[9] &+ w9, &bc)
        round(g, h, a, &b, c, d, e, &f, k[10] &+ w10, &bc)
        round(f, g, h, &a, b, c, d, &e, k[11] &+ w11, &bc)
        round(e, f, g, &h, a, b, c, &d, k[12] &+ w12, &bc)
        round(d, e, f, &g, h, a, b, &c, k[13] &+ w13, &bc)
        round(c, d, e, &f, g, h, a, &b, k[14] &+ w14, &bc)
        round(b, c, d, &e, f, g, h, &a, k[15] &+ w15, &bc)
        for _ in 0..<4 {
          k += 16
          expand(&w0, w1, w9, w14)
          round(a, b, c, &d, e, f, g, &h, k[0] &+ w0, &bc)
          expand(&w1, w2, w10, w15)
          round(h, a, b, &c, d, e, f, &g, k[1] &+ w1, &bc)
          expand(&w2, w3, w11, w0)
          round(g, h, a, &b, c, d, e, &f, k[2] &+ w2, &bc)
          expand(&w3, w4, w12, w1)
          round(f, g, h, &a, b, c, d, &e, k[3] &+ w3, &bc)
          expand(&w4, w5, w13, w2)
          round(e, f, g, &h, a, b, c, &d, k[4] &+ w4, &bc)
          expand(&w5, w6, w14, w3)
          round(d, e, f, &g, h, a, b, &c, k[5] &+ w5, &bc)
          expand(&w6, w7, w15, w4)
          round(c, d, e, &f, g, h, a, &b, k[6] &+ w6, &bc)
          expand(&w7, w8, w0, w5)
          round(b, c, d, &e, f, g, h, &a, k[7] &+ w7, &bc)
          expand(&w8, w9, w1, w6)
          round(a, b, c, &d, e, f, g, &h, k[8] &+ w8, &bc)
          expand(&w9, w10, w2, w7)
          round(h, a, b, &c, d, e, f, &g, k[9] &+ w9, &bc)
          expand(&w10, w11, w3, w8)
          round(g, h, a, &b, c, d, e, &f, k[10] &+ w10, &bc)
          expand(&w11, w12, w4, w9)
          round(f, g, h, &a, b, c, d, &e, k[11] &+ w11, &bc)
          expand(&w12, w13, w5, w10)
          round(e, f, g, &h, a, b, c, &d, k[12] &+ w12, &bc)
          expand(&w13, w14, w6, w11)
          round(d, e, f, &g, h, a, b, &c, k[13] &+ w13, &bc)
          expand(&w14, w15, w7, w12)
          round(c, d, e, &f, g, h, a, &b, k[14] &+ w14, &bc)
          expand(&w15, w0, w8, w13)
          round(b, c, d, &e, f, g, h, &a, k[15] &+ w15, &bc)
        }
        s.h0 &+= a
        s.h1 &+= b
        s.h2 &+= c
        s.h3 &+= d
        s.h4 &+= e
        s.h5 &+= f
        s.h6 &+= g
        s.h7 &+= h
        block += 128
      }
      state = s
    }
  }
}

/// One SHA-512 round (FIPS 180-4 §6.4.2 step 3) with the variables renamed rather than shifted:
/// d += T1, h = T1 + T2, where T1 already includes K[t] + W[t] as `kw`.
///
/// Maj(a,b,c) is computed as b ^ ((a ^ b) & (b ^ c)); `bc` carries b ^ c in and a ^ b out, which is
/// the next round's b ^ c. The Σ functions nest their rotations (ROTR14 ^ ROTR18 ^ ROTR41 equals
/// ROTR14(ROTR4(ROTR23(e) ^ e) ^ e)).
@inline(__always)
private func round(
  _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
  _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64, _ kw: UInt64, _ bc: inout UInt64
) {
  var sigma1 = (e >> 23 | e << 41) ^ e
  sigma1 = (sigma1 >> 4 | sigma1 << 60) ^ e
  sigma1 = sigma1 >> 14 | sigma1 << 50
  // Ch(e,f,g) = (e & f) ^ (~e & g) written as g ^ (e & (f ^ g)).
  let t1 = h &+ sigma1 &+ (g ^ (e & (f ^ g))) &+ kw
  // Σ0 = ROTR28 ^ ROTR34 ^ ROTR39.
  var sigma0 = (a >> 5 | a << 59) ^ a
  sigma0 = (sigma0 >> 6 | sigma0 << 58) ^ a
  sigma0 = sigma0 >> 28 | sigma0 << 36
  let ab = a ^ b
  let maj = b ^ (ab & bc)
  bc = ab
  d &+= t1
  h = t1 &+ sigma0 &+ maj
}

/// Message schedule step (FIPS 180-4 §6.4.2 step 1) on the 16-word window:
/// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], stored over W[t-16].
@inline(__always)
private func expand(_ w16: inout UInt64, _ w15: UInt64, _ w7: UInt64, _ w2: UInt64) {
  // σ0 = ROTR1 ^ ROTR8 ^ SHR7 and σ1 = ROTR19 ^ ROTR61 ^ SHR6, with nested rotations.
  var sigma0 = (w15 >> 7 | w15 << 57) ^ w15
  sigma0 = (sigma0 >> 1 | sigma0 << 63) ^ (w15 >> 7)
  var sigma1 = (w2 >> 42 | w2 << 22) ^ w2
  sigma1 = (sigma1 >> 19 | sigma1 << 45) ^ (w2 >> 6)
  w16 &+= sigma0 &+ w7 &+ sigma1
}
