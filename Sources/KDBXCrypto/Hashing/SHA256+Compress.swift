// SHA-256 compression function (FIPS 180-4 §6.2.2), the hot kernel.
//
// Shape: the eight working variables live in locals, and the message schedule W is a rolling
// window of 16 locals (W[t] overwrites W[t-16], FIPS 180-4 §6.2.2 step 1 computed on the fly).
// Rounds are unrolled 16 at a time by renaming the working variables instead of shifting them, and
// the round constants are read through a pointer bound once per call.

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
  // SAFETY: absorb (MerkleDamgard+Buffer) passes count whole 64-byte blocks; the constant table is an
  // immutable static array read inside its closure; bounds are noted inside.
  static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, _ count: Int) {
    roundConstants.withUnsafeBufferPointer { table in
      // SAFETY: the table has exactly 64 entries; `k` walks it in steps of 16 for four groups of
      // 16 rounds and reads k[0]...k[15] of each group, so every read is inside the table.
      // `blocks` holds count * 64 readable bytes (the caller passes whole blocks only), and each
      // block is read at byte offsets 0...63 before `block` advances by 64.
      guard let constants = table.baseAddress, table.count == 64 else { preconditionFailure("SHA-256 K table") }
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
        var w0 = block.loadUnaligned(fromByteOffset: 0, as: UInt32.self).bigEndian
        var w1 = block.loadUnaligned(fromByteOffset: 4, as: UInt32.self).bigEndian
        var w2 = block.loadUnaligned(fromByteOffset: 8, as: UInt32.self).bigEndian
        var w3 = block.loadUnaligned(fromByteOffset: 12, as: UInt32.self).bigEndian
        var w4 = block.loadUnaligned(fromByteOffset: 16, as: UInt32.self).bigEndian
        var w5 = block.loadUnaligned(fromByteOffset: 20, as: UInt32.self).bigEndian
        var w6 = block.loadUnaligned(fromByteOffset: 24, as: UInt32.self).bigEndian
        var w7 = block.loadUnaligned(fromByteOffset: 28, as: UInt32.self).bigEndian
        var w8 = block.loadUnaligned(fromByteOffset: 32, as: UInt32.self).bigEndian
        var w9 = block.loadUnaligned(fromByteOffset: 36, as: UInt32.self).bigEndian
        var w10 = block.loadUnaligned(fromByteOffset: 40, as: UInt32.self).bigEndian
        var w11 = block.loadUnaligned(fromByteOffset: 44, as: UInt32.self).bigEndian
        var w12 = block.loadUnaligned(fromByteOffset: 48, as: UInt32.self).bigEndian
        var w13 = block.loadUnaligned(fromByteOffset: 52, as: UInt32.self).bigEndian
        var w14 = block.loadUnaligned(fromByteOffset: 56, as: UInt32.self).bigEndian
        var w15 = block.loadUnaligned(fromByteOffset: 60, as: UInt32.self).bigEndian
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
        for _ in 0..<3 {
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
        block += 64
      }
      state = s
    }
  }
}

/// One SHA-256 round (FIPS 180-4 §6.2.2 step 3) with the variables renamed rather than shifted:
/// d += T1, h = T1 + T2, where T1 already includes K[t] + W[t] as `kw`.
///
/// Maj(a,b,c) is computed as b ^ ((a ^ b) & (b ^ c)); `bc` carries b ^ c in and a ^ b out, which is
/// the next round's b ^ c. The Σ functions nest their rotations: ROTR6 ^ ROTR11 ^ ROTR25 equals
/// ROTR6(ROTR5(ROTR14(e) ^ e) ^ e), which needs fewer register copies.
@inline(__always)
private func round(
  _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
  _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ kw: UInt32, _ bc: inout UInt32
) {
  var sigma1 = (e >> 14 | e << 18) ^ e
  sigma1 = (sigma1 >> 5 | sigma1 << 27) ^ e
  sigma1 = sigma1 >> 6 | sigma1 << 26
  // Ch(e,f,g) = (e & f) ^ (~e & g) written as g ^ (e & (f ^ g)).
  let t1 = h &+ sigma1 &+ (g ^ (e & (f ^ g))) &+ kw
  var sigma0 = (a >> 9 | a << 23) ^ a
  sigma0 = (sigma0 >> 11 | sigma0 << 21) ^ a
  sigma0 = sigma0 >> 2 | sigma0 << 30
  let ab = a ^ b
  let maj = b ^ (ab & bc)
  bc = ab
  d &+= t1
  h = t1 &+ sigma0 &+ maj
}

/// Message schedule step (FIPS 180-4 §6.2.2 step 1) on the 16-word window:
/// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], stored over W[t-16].
@inline(__always)
private func expand(_ w16: inout UInt32, _ w15: UInt32, _ w7: UInt32, _ w2: UInt32) {
  // σ0 = ROTR7 ^ ROTR18 ^ SHR3 and σ1 = ROTR17 ^ ROTR19 ^ SHR10, with nested rotations.
  var sigma0 = (w15 >> 11 | w15 << 21) ^ w15
  sigma0 = (sigma0 >> 7 | sigma0 << 25) ^ (w15 >> 3)
  var sigma1 = (w2 >> 2 | w2 << 30) ^ w2
  sigma1 = (sigma1 >> 17 | sigma1 << 15) ^ (w2 >> 10)
  w16 &+= sigma0 &+ w7 &+ sigma1
}
