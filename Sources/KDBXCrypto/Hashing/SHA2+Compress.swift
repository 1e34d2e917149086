// The SHA-2 compression loop (FIPS 180-4 §6.2.2 for SHA-256, §6.4.2 for SHA-512), the hot kernel of both: they
// differ only in the word size, the Σ and σ functions (§4.1.2, §4.1.3), the round constants and the number of
// rounds, which ``SHA2Word`` and the callers supply. Specialized for each word type where it is inlined.
//
// Shape: the eight working variables live in locals, and the message schedule W is a rolling window of 16 locals
// (W[t] overwrites W[t-16], step 1 computed on the fly). Rounds are unrolled 16 at a time by renaming the working
// variables instead of shifting them, and the round constants are read through a pointer bound once per call.

/// The eight working words H0...H7 of a SHA-2 hash (FIPS 180-4 §6.2 and §6.4).
struct SHA2State<Word: Sendable>: Sendable {
  var h0: Word, h1: Word, h2: Word, h3: Word, h4: Word, h5: Word, h6: Word, h7: Word
}

/// A SHA-2 word: its Σ and σ functions (FIPS 180-4 §4.1.2 for 32-bit words, §4.1.3 for 64-bit words).
protocol SHA2Word: FixedWidthInteger, UnsignedInteger {
  /// Σ0, of the working variable a.
  static func bigSigma0(_ x: Self) -> Self
  /// Σ1, of the working variable e.
  static func bigSigma1(_ x: Self) -> Self
  /// σ0, of W[t-15] in the message schedule.
  static func smallSigma0(_ x: Self) -> Self
  /// σ1, of W[t-2] in the message schedule.
  static func smallSigma1(_ x: Self) -> Self
}

enum SHA2 {
  /// Processes `count` consecutive blocks of 16 words starting at `blocks`, with the round constants `table`
  /// (64 for SHA-256, 80 for SHA-512: a whole number of groups of 16 rounds).
  // SAFETY: the callers (each hash's `compress`, from absorb in MerkleDamgard+Buffer) pass count whole blocks;
  // the constant table is an immutable static array read inside its closure; bounds are noted inside.
  @inline(__always)
  static func compress<W: SHA2Word>(_ state: inout SHA2State<W>, _ blocks: UnsafeRawPointer, _ count: Int, _ table: [W])
  {
    table.withUnsafeBufferPointer { table in
      // SAFETY: the table has 16 * groups entries (checked here); `k` walks it in steps of 16, one group at a time,
      // and reads k[0]...k[15] of each group, so every read is inside the table. `blocks` holds count * 16 words
      // of readable bytes (the caller passes whole blocks only), and each block is read at word offsets 0...15
      // before `block` advances by 16 words.
      let groups = table.count / 16
      guard let constants = table.baseAddress, groups >= 1, table.count == groups * 16 else {
        preconditionFailure("SHA-2 round constants")
      }
      let size = MemoryLayout<W>.size
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
        var w0 = block.loadUnaligned(fromByteOffset: 0, as: W.self).bigEndian
        var w1 = block.loadUnaligned(fromByteOffset: size, as: W.self).bigEndian
        var w2 = block.loadUnaligned(fromByteOffset: 2 &* size, as: W.self).bigEndian
        var w3 = block.loadUnaligned(fromByteOffset: 3 &* size, as: W.self).bigEndian
        var w4 = block.loadUnaligned(fromByteOffset: 4 &* size, as: W.self).bigEndian
        var w5 = block.loadUnaligned(fromByteOffset: 5 &* size, as: W.self).bigEndian
        var w6 = block.loadUnaligned(fromByteOffset: 6 &* size, as: W.self).bigEndian
        var w7 = block.loadUnaligned(fromByteOffset: 7 &* size, as: W.self).bigEndian
        var w8 = block.loadUnaligned(fromByteOffset: 8 &* size, as: W.self).bigEndian
        var w9 = block.loadUnaligned(fromByteOffset: 9 &* size, as: W.self).bigEndian
        var w10 = block.loadUnaligned(fromByteOffset: 10 &* size, as: W.self).bigEndian
        var w11 = block.loadUnaligned(fromByteOffset: 11 &* size, as: W.self).bigEndian
        var w12 = block.loadUnaligned(fromByteOffset: 12 &* size, as: W.self).bigEndian
        var w13 = block.loadUnaligned(fromByteOffset: 13 &* size, as: W.self).bigEndian
        var w14 = block.loadUnaligned(fromByteOffset: 14 &* size, as: W.self).bigEndian
        var w15 = block.loadUnaligned(fromByteOffset: 15 &* size, as: W.self).bigEndian
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
        for _ in 1..<groups {
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
        block += 16 &* size
      }
      state = s
    }
  }
}

/// One SHA-2 round (FIPS 180-4 §6.2.2 and §6.4.2, step 3) with the variables renamed rather than shifted:
/// d += T1, h = T1 + T2, where T1 already includes K[t] + W[t] as `kw`.
///
/// Ch(e,f,g) = (e & f) ^ (~e & g) is computed as g ^ (e & (f ^ g)), and Maj(a,b,c) as b ^ ((a ^ b) & (b ^ c));
/// `bc` carries b ^ c in and a ^ b out, which is the next round's b ^ c.
@inline(__always)
private func round<W: SHA2Word>(
  _ a: W, _ b: W, _ c: W, _ d: inout W, _ e: W, _ f: W, _ g: W, _ h: inout W, _ kw: W, _ bc: inout W
) {
  let t1 = h &+ W.bigSigma1(e) &+ (g ^ (e & (f ^ g))) &+ kw
  let ab = a ^ b
  let maj = b ^ (ab & bc)
  bc = ab
  d &+= t1
  h = t1 &+ W.bigSigma0(a) &+ maj
}

/// Message schedule step (FIPS 180-4 §6.2.2 and §6.4.2, step 1) on the 16-word window:
/// W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16], stored over W[t-16].
@inline(__always)
private func expand<W: SHA2Word>(_ w16: inout W, _ w15: W, _ w7: W, _ w2: W) {
  w16 &+= W.smallSigma0(w15) &+ w7 &+ W.smallSigma1(w2)
}
