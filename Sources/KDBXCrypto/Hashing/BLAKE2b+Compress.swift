// The BLAKE2b compression function F (RFC 7693 §3.2), the kernel of BLAKE2b.

extension BLAKE2b {
  /// RFC 7693 §2.7: the message schedule SIGMA, rows 0...9, with rows 10 and 11 repeating rows 0 and 1.
  static let sigma: [UInt8] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
    11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
    7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
    9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
    2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
    12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
    13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
    6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
    10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
  ]

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

  /// RFC 7693 §3.2: compresses one 128-byte block into `state` with the current counter.
  mutating func compress(block: UnsafeRawBufferPointer, isFinal: Bool) {
    precondition(block.count == 128)
    // SAFETY: `block` holds exactly 128 bytes (checked above), so the 16 unaligned 8-byte loads at
    // offsets 0, 8, ..., 120 are in bounds. `m` has room for 16 words and `sigma` for 192 entries,
    // each below 16, so every `m[Int(s[...])]` read is in bounds.
    withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 16) { m in
      for index in 0..<16 {
        m[index] = UInt64(littleEndian: block.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self))
      }
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
      BLAKE2b.sigma.withUnsafeBufferPointer { s in
        for round in 0..<12 {
          let r = round * 16
          BLAKE2b.mix(&v0, &v4, &v8, &v12, m[Int(s[r])], m[Int(s[r + 1])])
          BLAKE2b.mix(&v1, &v5, &v9, &v13, m[Int(s[r + 2])], m[Int(s[r + 3])])
          BLAKE2b.mix(&v2, &v6, &v10, &v14, m[Int(s[r + 4])], m[Int(s[r + 5])])
          BLAKE2b.mix(&v3, &v7, &v11, &v15, m[Int(s[r + 6])], m[Int(s[r + 7])])
          BLAKE2b.mix(&v0, &v5, &v10, &v15, m[Int(s[r + 8])], m[Int(s[r + 9])])
          BLAKE2b.mix(&v1, &v6, &v11, &v12, m[Int(s[r + 10])], m[Int(s[r + 11])])
          BLAKE2b.mix(&v2, &v7, &v8, &v13, m[Int(s[r + 12])], m[Int(s[r + 13])])
          BLAKE2b.mix(&v3, &v4, &v9, &v14, m[Int(s[r + 14])], m[Int(s[r + 15])])
        }
      }
      state ^= SIMD8(v0, v1, v2, v3, v4, v5, v6, v7) ^ SIMD8(v8, v9, v10, v11, v12, v13, v14, v15)
    }
  }
}

extension UInt64 {
  /// Rotates right by `count` bits (0 < count < 64).
  @inline(__always)
  fileprivate func rotatedRight(_ count: UInt64) -> UInt64 {
    (self &>> count) | (self &<< (64 &- count))
  }
}
