// SHA-1 compression function (FIPS 180-4 §6.1.2), the hot kernel.
//
// Fully unrolled over the 80 rounds: the five working variables are renamed instead of shifted,
// the message schedule is a rolling window of 16 locals (W[t] overwrites W[t-16]), and the four
// round constants are immediates.

extension SHA1 {
  /// Processes `count` consecutive 64-byte blocks starting at `blocks` (FIPS 180-4 §6.1.2).
  // SAFETY: absorb (MerkleDamgard+Buffer) passes count whole 64-byte blocks, read unaligned; bounds are noted
  // inside.
  static func compress(_ state: inout State, _ blocks: UnsafeRawPointer, _ count: Int) {
    // SAFETY: `blocks` holds count * 64 readable bytes (the caller passes whole blocks only), and
    // each block is read at byte offsets 0...63 before `block` advances by 64.
    var s = state
    var block = blocks
    for _ in 0..<count {
      var a = s.h0
      var b = s.h1
      var c = s.h2
      var d = s.h3
      var e = s.h4
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
      round0(a, &b, c, d, &e, w0 &+ 0x5a82_7999)
      round0(e, &a, b, c, &d, w1 &+ 0x5a82_7999)
      round0(d, &e, a, b, &c, w2 &+ 0x5a82_7999)
      round0(c, &d, e, a, &b, w3 &+ 0x5a82_7999)
      round0(b, &c, d, e, &a, w4 &+ 0x5a82_7999)
      round0(a, &b, c, d, &e, w5 &+ 0x5a82_7999)
      round0(e, &a, b, c, &d, w6 &+ 0x5a82_7999)
      round0(d, &e, a, b, &c, w7 &+ 0x5a82_7999)
      round0(c, &d, e, a, &b, w8 &+ 0x5a82_7999)
      round0(b, &c, d, e, &a, w9 &+ 0x5a82_7999)
      round0(a, &b, c, d, &e, w10 &+ 0x5a82_7999)
      round0(e, &a, b, c, &d, w11 &+ 0x5a82_7999)
      round0(d, &e, a, b, &c, w12 &+ 0x5a82_7999)
      round0(c, &d, e, a, &b, w13 &+ 0x5a82_7999)
      round0(b, &c, d, e, &a, w14 &+ 0x5a82_7999)
      round0(a, &b, c, d, &e, w15 &+ 0x5a82_7999)
      expand(&w0, w13, w8, w2)
      round0(e, &a, b, c, &d, w0 &+ 0x5a82_7999)
      expand(&w1, w14, w9, w3)
      round0(d, &e, a, b, &c, w1 &+ 0x5a82_7999)
      expand(&w2, w15, w10, w4)
      round0(c, &d, e, a, &b, w2 &+ 0x5a82_7999)
      expand(&w3, w0, w11, w5)
      round0(b, &c, d, e, &a, w3 &+ 0x5a82_7999)
      expand(&w4, w1, w12, w6)
      round1(a, &b, c, d, &e, w4 &+ 0x6ed9_eba1)
      expand(&w5, w2, w13, w7)
      round1(e, &a, b, c, &d, w5 &+ 0x6ed9_eba1)
      expand(&w6, w3, w14, w8)
      round1(d, &e, a, b, &c, w6 &+ 0x6ed9_eba1)
      expand(&w7, w4, w15, w9)
      round1(c, &d, e, a, &b, w7 &+ 0x6ed9_eba1)
      expand(&w8, w5, w0, w10)
      round1(b, &c, d, e, &a, w8 &+ 0x6ed9_eba1)
      expand(&w9, w6, w1, w11)
      round1(a, &b, c, d, &e, w9 &+ 0x6ed9_eba1)
      expand(&w10, w7, w2, w12)
      round1(e, &a, b, c, &d, w10 &+ 0x6ed9_eba1)
      expand(&w11, w8, w3, w13)
      round1(d, &e, a, b, &c, w11 &+ 0x6ed9_eba1)
      expand(&w12, w9, w4, w14)
      round1(c, &d, e, a, &b, w12 &+ 0x6ed9_eba1)
      expand(&w13, w10, w5, w15)
      round1(b, &c, d, e, &a, w13 &+ 0x6ed9_eba1)
      expand(&w14, w11, w6, w0)
      round1(a, &b, c, d, &e, w14 &+ 0x6ed9_eba1)
      expand(&w15, w12, w7, w1)
      round1(e, &a, b, c, &d, w15 &+ 0x6ed9_eba1)
      expand(&w0, w13, w8, w2)
      round1(d, &e, a, b, &c, w0 &+ 0x6ed9_eba1)
      expand(&w1, w14, w9, w3)
      round1(c, &d, e, a, &b, w1 &+ 0x6ed9_eba1)
      expand(&w2, w15, w10, w4)
      round1(b, &c, d, e, &a, w2 &+ 0x6ed9_eba1)
      expand(&w3, w0, w11, w5)
      round1(a, &b, c, d, &e, w3 &+ 0x6ed9_eba1)
      expand(&w4, w1, w12, w6)
      round1(e, &a, b, c, &d, w4 &+ 0x6ed9_eba1)
      expand(&w5, w2, w13, w7)
      round1(d, &e, a, b, &c, w5 &+ 0x6ed9_eba1)
      expand(&w6, w3, w14, w8)
      round1(c, &d, e, a, &b, w6 &+ 0x6ed9_eba1)
      expand(&w7, w4, w15, w9)
      round1(b, &c, d, e, &a, w7 &+ 0x6ed9_eba1)
      expand(&w8, w5, w0, w10)
      round2(a, &b, c, d, &e, w8 &+ 0x8f1b_bcdc)
      expand(&w9, w6, w1, w11)
      round2(e, &a, b, c, &d, w9 &+ 0x8f1b_bcdc)
      expand(&w10, w7, w2, w12)
      round2(d, &e, a, b, &c, w10 &+ 0x8f1b_bcdc)
      expand(&w11, w8, w3, w13)
      round2(c, &d, e, a, &b, w11 &+ 0x8f1b_bcdc)
      expand(&w12, w9, w4, w14)
      round2(b, &c, d, e, &a, w12 &+ 0x8f1b_bcdc)
      expand(&w13, w10, w5, w15)
      round2(a, &b, c, d, &e, w13 &+ 0x8f1b_bcdc)
      expand(&w14, w11, w6, w0)
      round2(e, &a, b, c, &d, w14 &+ 0x8f1b_bcdc)
      expand(&w15, w12, w7, w1)
      round2(d, &e, a, b, &c, w15 &+ 0x8f1b_bcdc)
      expand(&w0, w13, w8, w2)
      round2(c, &d, e, a, &b, w0 &+ 0x8f1b_bcdc)
      expand(&w1, w14, w9, w3)
      round2(b, &c, d, e, &a, w1 &+ 0x8f1b_bcdc)
      expand(&w2, w15, w10, w4)
      round2(a, &b, c, d, &e, w2 &+ 0x8f1b_bcdc)
      expand(&w3, w0, w11, w5)
      round2(e, &a, b, c, &d, w3 &+ 0x8f1b_bcdc)
      expand(&w4, w1, w12, w6)
      round2(d, &e, a, b, &c, w4 &+ 0x8f1b_bcdc)
      expand(&w5, w2, w13, w7)
      round2(c, &d, e, a, &b, w5 &+ 0x8f1b_bcdc)
      expand(&w6, w3, w14, w8)
      round2(b, &c, d, e, &a, w6 &+ 0x8f1b_bcdc)
      expand(&w7, w4, w15, w9)
      round2(a, &b, c, d, &e, w7 &+ 0x8f1b_bcdc)
      expand(&w8, w5, w0, w10)
      round2(e, &a, b, c, &d, w8 &+ 0x8f1b_bcdc)
      expand(&w9, w6, w1, w11)
      round2(d, &e, a, b, &c, w9 &+ 0x8f1b_bcdc)
      expand(&w10, w7, w2, w12)
      round2(c, &d, e, a, &b, w10 &+ 0x8f1b_bcdc)
      expand(&w11, w8, w3, w13)
      round2(b, &c, d, e, &a, w11 &+ 0x8f1b_bcdc)
      expand(&w12, w9, w4, w14)
      round1(a, &b, c, d, &e, w12 &+ 0xca62_c1d6)
      expand(&w13, w10, w5, w15)
      round1(e, &a, b, c, &d, w13 &+ 0xca62_c1d6)
      expand(&w14, w11, w6, w0)
      round1(d, &e, a, b, &c, w14 &+ 0xca62_c1d6)
      expand(&w15, w12, w7, w1)
      round1(c, &d, e, a, &b, w15 &+ 0xca62_c1d6)
      expand(&w0, w13, w8, w2)
      round1(b, &c, d, e, &a, w0 &+ 0xca62_c1d6)
      expand(&w1, w14, w9, w3)
      round1(a, &b, c, d, &e, w1 &+ 0xca62_c1d6)
      expand(&w2, w15, w10, w4)
      round1(e, &a, b, c, &d, w2 &+ 0xca62_c1d6)
      expand(&w3, w0, w11, w5)
      round1(d, &e, a, b, &c, w3 &+ 0xca62_c1d6)
      expand(&w4, w1, w12, w6)
      round1(c, &d, e, a, &b, w4 &+ 0xca62_c1d6)
      expand(&w5, w2, w13, w7)
      round1(b, &c, d, e, &a, w5 &+ 0xca62_c1d6)
      expand(&w6, w3, w14, w8)
      round1(a, &b, c, d, &e, w6 &+ 0xca62_c1d6)
      expand(&w7, w4, w15, w9)
      round1(e, &a, b, c, &d, w7 &+ 0xca62_c1d6)
      expand(&w8, w5, w0, w10)
      round1(d, &e, a, b, &c, w8 &+ 0xca62_c1d6)
      expand(&w9, w6, w1, w11)
      round1(c, &d, e, a, &b, w9 &+ 0xca62_c1d6)
      expand(&w10, w7, w2, w12)
      round1(b, &c, d, e, &a, w10 &+ 0xca62_c1d6)
      expand(&w11, w8, w3, w13)
      round1(a, &b, c, d, &e, w11 &+ 0xca62_c1d6)
      expand(&w12, w9, w4, w14)
      round1(e, &a, b, c, &d, w12 &+ 0xca62_c1d6)
      expand(&w13, w10, w5, w15)
      round1(d, &e, a, b, &c, w13 &+ 0xca62_c1d6)
      expand(&w14, w11, w6, w0)
      round1(c, &d, e, a, &b, w14 &+ 0xca62_c1d6)
      expand(&w15, w12, w7, w1)
      round1(b, &c, d, e, &a, w15 &+ 0xca62_c1d6)
      s.h0 &+= a
      s.h1 &+= b
      s.h2 &+= c
      s.h3 &+= d
      s.h4 &+= e
      block += 64
    }
    state = s
  }
}

/// Rounds 0...19 (FIPS 180-4 §4.1.1, §6.1.2 step 3): e += ROTL5(a) + Ch(b,c,d) + K + W; b = ROTL30(b).
/// `kw` is K + W[t].
@inline(__always)
private func round0(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ kw: UInt32) {
  e &+= (a << 5 | a >> 27) &+ (d ^ (b & (c ^ d))) &+ kw
  b = b << 30 | b >> 2
}

/// Rounds 20...39 and 60...79: f = Parity(b,c,d) = b ^ c ^ d.
@inline(__always)
private func round1(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ kw: UInt32) {
  e &+= (a << 5 | a >> 27) &+ (b ^ c ^ d) &+ kw
  b = b << 30 | b >> 2
}

/// Rounds 40...59: f = Maj(b,c,d), written as (b & c) | (d & (b | c)).
@inline(__always)
private func round2(_ a: UInt32, _ b: inout UInt32, _ c: UInt32, _ d: UInt32, _ e: inout UInt32, _ kw: UInt32) {
  e &+= (a << 5 | a >> 27) &+ ((b & c) | (d & (b | c))) &+ kw
  b = b << 30 | b >> 2
}

/// Message schedule step (FIPS 180-4 §6.1.2 step 1) on the 16-word window:
/// W[t] = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]), stored over W[t-16].
@inline(__always)
private func expand(_ w16: inout UInt32, _ w3: UInt32, _ w8: UInt32, _ w14: UInt32) {
  let x = w16 ^ w3 ^ w8 ^ w14
  w16 = x << 1 | x >> 31
}
