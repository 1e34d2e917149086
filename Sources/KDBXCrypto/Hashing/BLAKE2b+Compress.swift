// The BLAKE2b compression function F (RFC 7693 §3.2), the kernel of BLAKE2b.

extension BLAKE2b {
  /// RFC 7693 §3.1: the mixing function G with rotation constants (R1, R2, R3, R4) = (32, 24, 16, 63).
  @inline(__always)
  static func mix(
    _ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64, _ x: UInt64, _ y: UInt64
  ) {
    a = a &+ b &+ x
    d = (d ^ a).rotatedRight(32)
    c = c &+ d
    b = (b ^ c).rotatedRight(24)
    a = a &+ b &+ y
    d = (d ^ a).rotatedRight(16)
    c = c &+ d
    b = (b ^ c).rotatedRight(63)
  }

  /// RFC 7693 §3.2: compresses one 128-byte block into `state` with the current counter. The twelve
  /// rounds are written out with the SIGMA permutation (RFC 7693 §2.7) applied at compile time.
  // SAFETY: `block` is lent for the call (see the note below the precondition).
  mutating func compress(block: UnsafeRawBufferPointer, isFinal: Bool) {
    precondition(block.count == 128)
    // SAFETY: `block` holds exactly 128 bytes (checked above), so the 16 unaligned 8-byte loads at
    // offsets 0, 8, ..., 120 are in bounds.
    let m0 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
    let m1 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
    let m2 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
    let m3 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    let m4 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 32, as: UInt64.self))
    let m5 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 40, as: UInt64.self))
    let m6 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 48, as: UInt64.self))
    let m7 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 56, as: UInt64.self))
    let m8 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 64, as: UInt64.self))
    let m9 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 72, as: UInt64.self))
    let m10 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 80, as: UInt64.self))
    let m11 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 88, as: UInt64.self))
    let m12 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 96, as: UInt64.self))
    let m13 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 104, as: UInt64.self))
    let m14 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 112, as: UInt64.self))
    let m15 = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: 120, as: UInt64.self))
    let iv = BLAKE2b.initializationVector
    var v0 = state[0]
    var v1 = state[1]
    var v2 = state[2]
    var v3 = state[3]
    var v4 = state[4]
    var v5 = state[5]
    var v6 = state[6]
    var v7 = state[7]
    var v8 = iv[0]
    var v9 = iv[1]
    var v10 = iv[2]
    var v11 = iv[3]
    var v12 = iv[4] ^ counterLow
    var v13 = iv[5] ^ counterHigh
    var v14 = isFinal ? ~iv[6] : iv[6]
    var v15 = iv[7]
    // Round 0 (SIGMA row 0).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m0, m1)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m2, m3)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m4, m5)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m6, m7)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m8, m9)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m10, m11)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m12, m13)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m14, m15)
    // Round 1 (SIGMA row 1).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m14, m10)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m4, m8)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m9, m15)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m13, m6)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m1, m12)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m0, m2)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m11, m7)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m5, m3)
    // Round 2 (SIGMA row 2).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m11, m8)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m12, m0)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m5, m2)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m15, m13)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m10, m14)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m3, m6)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m7, m1)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m9, m4)
    // Round 3 (SIGMA row 3).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m7, m9)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m3, m1)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m13, m12)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m11, m14)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m2, m6)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m5, m10)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m4, m0)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m15, m8)
    // Round 4 (SIGMA row 4).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m9, m0)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m5, m7)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m2, m4)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m10, m15)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m14, m1)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m11, m12)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m6, m8)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m3, m13)
    // Round 5 (SIGMA row 5).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m2, m12)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m6, m10)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m0, m11)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m8, m3)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m4, m13)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m7, m5)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m15, m14)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m1, m9)
    // Round 6 (SIGMA row 6).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m12, m5)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m1, m15)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m14, m13)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m4, m10)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m0, m7)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m6, m3)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m9, m2)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m8, m11)
    // Round 7 (SIGMA row 7).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m13, m11)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m7, m14)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m12, m1)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m3, m9)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m5, m0)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m15, m4)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m8, m6)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m2, m10)
    // Round 8 (SIGMA row 8).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m6, m15)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m14, m9)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m11, m3)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m0, m8)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m12, m2)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m13, m7)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m1, m4)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m10, m5)
    // Round 9 (SIGMA row 9).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m10, m2)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m8, m4)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m7, m6)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m1, m5)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m15, m11)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m9, m14)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m3, m12)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m13, m0)
    // Round 10 (SIGMA row 0).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m0, m1)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m2, m3)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m4, m5)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m6, m7)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m8, m9)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m10, m11)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m12, m13)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m14, m15)
    // Round 11 (SIGMA row 1).
    BLAKE2b.mix(&v0, &v4, &v8, &v12, m14, m10)
    BLAKE2b.mix(&v1, &v5, &v9, &v13, m4, m8)
    BLAKE2b.mix(&v2, &v6, &v10, &v14, m9, m15)
    BLAKE2b.mix(&v3, &v7, &v11, &v15, m13, m6)
    BLAKE2b.mix(&v0, &v5, &v10, &v15, m1, m12)
    BLAKE2b.mix(&v1, &v6, &v11, &v12, m0, m2)
    BLAKE2b.mix(&v2, &v7, &v8, &v13, m11, m7)
    BLAKE2b.mix(&v3, &v4, &v9, &v14, m5, m3)
    state ^= SIMD8(v0, v1, v2, v3, v4, v5, v6, v7) ^ SIMD8(v8, v9, v10, v11, v12, v13, v14, v15)
  }
}

extension UInt64 {
  /// Rotates right by `count` bits (0 < count < 64).
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt64) -> UInt64 {
    (self &>> count) | (self &<< (64 &- count))
  }
}
