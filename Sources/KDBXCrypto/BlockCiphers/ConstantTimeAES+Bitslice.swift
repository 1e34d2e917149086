// Bitsliced AES-256 (constant-time): four blocks are held as eight 64-bit bit planes.
//
// Plane k holds bit k of every state byte of the four blocks; state byte s[r][c] of block b
// (FIPS 197 §3.4) sits at bit 16r + 4c + b. With this layout a row is one 16-bit field, so
// ShiftRows rotates inside fields and MixColumns' "next row" is a 64-bit rotation by 16.
// SubBytes is the Boyar-Peralta 113-gate circuit for the AES S-box (J. Boyar, R. Peralta, "A
// depth-16 circuit for the AES S-box", 2011); InvSubBytes wraps it in the inverse affine map.
// No table lookups and no secret-dependent branches: only AND, XOR, NOT, shifts and rotations.

/// Eight bit planes of four AES states.
@usableFromInline
struct AESPlanes: Sendable {
  var q0: UInt64 = 0, q1: UInt64 = 0, q2: UInt64 = 0, q3: UInt64 = 0
  var q4: UInt64 = 0, q5: UInt64 = 0, q6: UInt64 = 0, q7: UInt64 = 0

  @inline(__always)
  static func ^ (a: AESPlanes, b: AESPlanes) -> AESPlanes {
    AESPlanes(
      q0: a.q0 ^ b.q0, q1: a.q1 ^ b.q1, q2: a.q2 ^ b.q2, q3: a.q3 ^ b.q3, q4: a.q4 ^ b.q4, q5: a.q5 ^ b.q5,
      q6: a.q6 ^ b.q6, q7: a.q7 ^ b.q7)
  }

  @inline(__always)
  func map(_ f: (UInt64) -> UInt64) -> AESPlanes {
    AESPlanes(q0: f(q0), q1: f(q1), q2: f(q2), q3: f(q3), q4: f(q4), q5: f(q5), q6: f(q6), q7: f(q7))
  }

  /// SubBytes (FIPS 197 §5.1.1) as the Boyar-Peralta circuit; x0 is the most significant bit.
  @inline(__always)
  mutating func subBytes() {
    let x0 = q7, x1 = q6, x2 = q5, x3 = q4, x4 = q3, x5 = q2, x6 = q1, x7 = q0
    // Top linear transformation.
    let y14 = x3 ^ x5, y13 = x0 ^ x6, y9 = x0 ^ x3, y8 = x0 ^ x5
    let t0 = x1 ^ x2
    let y1 = t0 ^ x7
    let y4 = y1 ^ x3, y12 = y13 ^ y14, y2 = y1 ^ x0, y5 = y1 ^ x6
    let y3 = y5 ^ y8
    let t1 = x4 ^ y12
    let y15 = t1 ^ x5, y20 = t1 ^ x1
    let y6 = y15 ^ x7, y10 = y15 ^ t0
    let y11 = y20 ^ y9
    let y7 = x7 ^ y11, y17 = y10 ^ y11, y19 = y10 ^ y8, y16 = t0 ^ y11
    let y21 = y13 ^ y16, y18 = x0 ^ y16
    // Non-linear section.
    let t2 = y12 & y15, t3 = y3 & y6
    let t4 = t3 ^ t2
    let t5 = y4 & x7
    let t6 = t5 ^ t2
    let t7 = y13 & y16, t8 = y5 & y1
    let t9 = t8 ^ t7
    let t10 = y2 & y7
    let t11 = t10 ^ t7
    let t12 = y9 & y11, t13 = y14 & y17
    let t14 = t13 ^ t12
    let t15 = y8 & y10
    let t16 = t15 ^ t12
    let t17 = t4 ^ t14, t18 = t6 ^ t16, t19 = t9 ^ t14, t20 = t11 ^ t16
    let t21 = t17 ^ y20, t22 = t18 ^ y19, t23 = t19 ^ y21, t24 = t20 ^ y18
    let t25 = t21 ^ t22, t26 = t21 & t23
    let t27 = t24 ^ t26
    let t28 = t25 & t27
    let t29 = t28 ^ t22
    let t30 = t23 ^ t24, t31 = t22 ^ t26
    let t32 = t31 & t30
    let t33 = t32 ^ t24
    let t34 = t23 ^ t33, t35 = t27 ^ t33
    let t36 = t24 & t35
    let t37 = t36 ^ t34, t38 = t27 ^ t36
    let t39 = t29 & t38
    let t40 = t25 ^ t39
    let t41 = t40 ^ t37, t42 = t29 ^ t33, t43 = t29 ^ t40, t44 = t33 ^ t37
    let t45 = t42 ^ t41
    let z0 = t44 & y15, z1 = t37 & y6, z2 = t33 & x7, z3 = t43 & y16, z4 = t40 & y1, z5 = t29 & y7
    let z6 = t42 & y11, z7 = t45 & y17, z8 = t41 & y10, z9 = t44 & y12, z10 = t37 & y3, z11 = t33 & y4
    let z12 = t43 & y13, z13 = t40 & y5, z14 = t29 & y2, z15 = t42 & y9, z16 = t45 & y14, z17 = t41 & y8
    // Bottom linear transformation.
    let t46 = z15 ^ z16, t47 = z10 ^ z11, t48 = z5 ^ z13, t49 = z9 ^ z10, t50 = z2 ^ z12
    let t51 = z2 ^ z5, t52 = z7 ^ z8, t53 = z0 ^ z3, t54 = z6 ^ z7, t55 = z16 ^ z17
    let t56 = z12 ^ t48, t57 = t50 ^ t53, t58 = z4 ^ t46, t59 = z3 ^ t54, t60 = t46 ^ t57
    let t61 = z14 ^ t57, t62 = t52 ^ t58, t63 = t49 ^ t58, t64 = z4 ^ t59
    let t65 = t61 ^ t62, t66 = z1 ^ t63
    let s0 = t59 ^ t63, s6 = t56 ^ ~t62, s7 = t48 ^ ~t60
    let t67 = t64 ^ t65
    let s3 = t53 ^ t66, s4 = t51 ^ t66, s5 = t47 ^ t65
    let s1 = t64 ^ ~s3, s2 = t55 ^ ~t67
    q7 = s0
    q6 = s1
    q5 = s2
    q4 = s3
    q3 = s4
    q2 = s5
    q1 = s6
    q0 = s7
  }

  /// The inverse of the affine map of §5.1.1: b'_i = b_(i+2) ^ b_(i+5) ^ b_(i+7) ^ 0x05_i.
  @inline(__always)
  mutating func inverseAffine() {
    let a0 = q0, a1 = q1, a2 = q2, a3 = q3, a4 = q4, a5 = q5, a6 = q6, a7 = q7
    q0 = ~(a2 ^ a5 ^ a7)
    q1 = a3 ^ a6 ^ a0
    q2 = ~(a4 ^ a7 ^ a1)
    q3 = a5 ^ a0 ^ a2
    q4 = a6 ^ a1 ^ a3
    q5 = a7 ^ a2 ^ a4
    q6 = a0 ^ a3 ^ a5
    q7 = a1 ^ a4 ^ a6
  }

  /// InvSubBytes (§5.3.2): InvS(y) = A⁻¹(S(A⁻¹(y))), because S(z) = A(z⁻¹).
  @inline(__always)
  mutating func inverseSubBytes() {
    inverseAffine()
    subBytes()
    inverseAffine()
  }

  /// ShiftRows (§5.1.2): row r's 16-bit field rotates right by 4r bits (r columns).
  @inline(__always)
  mutating func shiftRows() {
    self = map { x in
      (x & 0x0000_0000_0000_ffff)
        | ((x >> 4) & 0x0000_0000_0fff_0000) | ((x << 12) & 0x0000_0000_f000_0000)
        | ((x >> 8) & 0x0000_00ff_0000_0000) | ((x << 8) & 0x0000_ff00_0000_0000)
        | ((x >> 12) & 0x000f_0000_0000_0000) | ((x << 4) & 0xfff0_0000_0000_0000)
    }
  }

  /// InvShiftRows (§5.3.1): row r's field rotates left by 4r bits.
  @inline(__always)
  mutating func inverseShiftRows() {
    self = map { x in
      (x & 0x0000_0000_0000_ffff)
        | ((x << 4) & 0x0000_0000_fff0_0000) | ((x >> 12) & 0x0000_0000_000f_0000)
        | ((x << 8) & 0x0000_ff00_0000_0000) | ((x >> 8) & 0x0000_00ff_0000_0000)
        | ((x << 12) & 0xf000_0000_0000_0000) | ((x >> 4) & 0x0fff_0000_0000_0000)
    }
  }

  /// Multiplication by x ({02}) of every byte (§4.2.1), as a permutation of planes.
  @inline(__always)
  func timesX() -> AESPlanes {
    AESPlanes(q0: q7, q1: q0 ^ q7, q2: q1, q3: q2 ^ q7, q4: q3 ^ q7, q5: q4, q6: q5, q7: q6)
  }

  /// MixColumns (§5.1.3): a'_r = {02}(a_r ^ a_r+1) ^ a_r+1 ^ (a_r+2 ^ a_r+3).
  @inline(__always)
  mutating func mixColumns() {
    let next = map { $0.rotatedRight(by: 16) }
    let t = self ^ next
    self = t.timesX() ^ next ^ t.map { $0.rotatedRight(by: 32) }
  }

  /// InvMixColumns (§5.3.3) as MixColumns after a'_r = a_r ^ {04}(a_r ^ a_r+2).
  @inline(__always)
  mutating func inverseMixColumns() {
    let w = self ^ map { $0.rotatedRight(by: 32) }
    self = self ^ w.timesX().timesX()
    mixColumns()
  }
}

extension UInt64 {
  @inline(__always)
  func rotatedRight(by count: UInt64) -> UInt64 {
    (self >> (count & 63)) | (self << ((64 &- count) & 63))
  }
}

/// Converting between bytes and planes.
enum AESBitslice {
  /// Transposes an 8x8 bit matrix held row-per-byte: result byte k bit j = input byte j bit k.
  @inline(__always)
  static func transpose8(_ value: UInt64) -> UInt64 {
    var x = value
    var t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa
    x = x ^ t ^ (t << 7)
    t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc
    x = x ^ t ^ (t << 14)
    t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0
    return x ^ t ^ (t << 28)
  }

  /// Transposes a 4x4 bit matrix held in 16 bits (bit 4·row + column).
  @inline(__always)
  static func transpose4(_ value: UInt64) -> UInt64 {
    var x = value
    var t = (x ^ (x >> 3)) & 0x0a0a
    x = x ^ t ^ (t << 3)
    t = (x ^ (x >> 6)) & 0x00cc
    return x ^ t ^ (t << 6)
  }

  /// Moves bit j of a 16-bit value to bit 4j.
  @inline(__always)
  static func spread(_ value: UInt64) -> UInt64 {
    var x = value
    x = (x | x << 24) & 0x0000_00ff_0000_00ff
    x = (x | x << 12) & 0x000f_000f_000f_000f
    x = (x | x << 6) & 0x0303_0303_0303_0303
    return (x | x << 3) & 0x1111_1111_1111_1111
  }

  /// Moves bit 4j to bit j (the inverse of `spread`, other bits ignored).
  @inline(__always)
  static func gather(_ value: UInt64) -> UInt64 {
    var x = value & 0x1111_1111_1111_1111
    x = (x | x >> 3) & 0x0303_0303_0303_0303
    x = (x | x >> 6) & 0x000f_000f_000f_000f
    x = (x | x >> 12) & 0x0000_00ff_0000_00ff
    return (x | x >> 24) & 0xffff
  }

  /// Adds block `slot` (0...3), given as its two little-endian halves, to `planes`.
  @inline(__always)
  static func insert(low: UInt64, high: UInt64, slot: Int, into planes: inout AESPlanes) {
    let l = transpose8(low)
    let h = transpose8(high)
    @inline(__always) func plane(_ k: UInt64) -> UInt64 {
      let v = ((l >> (8 * k)) & 0xff) | (((h >> (8 * k)) & 0xff) << 8)
      return spread(transpose4(v)) << UInt64(slot)
    }
    planes.q0 |= plane(0)
    planes.q1 |= plane(1)
    planes.q2 |= plane(2)
    planes.q3 |= plane(3)
    planes.q4 |= plane(4)
    planes.q5 |= plane(5)
    planes.q6 |= plane(6)
    planes.q7 |= plane(7)
  }

  /// Extracts block `slot` as its two little-endian halves.
  @inline(__always)
  static func extract(slot: Int, from planes: AESPlanes) -> (low: UInt64, high: UInt64) {
    var l: UInt64 = 0
    var h: UInt64 = 0
    @inline(__always) func add(_ q: UInt64, _ k: UInt64) {
      let v = transpose4(gather(q >> UInt64(slot)))
      l |= (v & 0xff) << (8 * k)
      h |= (v >> 8) << (8 * k)
    }
    add(planes.q0, 0)
    add(planes.q1, 1)
    add(planes.q2, 2)
    add(planes.q3, 3)
    add(planes.q4, 4)
    add(planes.q5, 5)
    add(planes.q6, 6)
    add(planes.q7, 7)
    return (transpose8(l), transpose8(h))
  }

  /// Adds `block` to lane `slot`.
  @inline(__always)
  static func insert(_ block: SIMD16<UInt8>, slot: Int, into planes: inout AESPlanes) {
    // SAFETY: SIMD16<UInt8> and SIMD2<UInt64> are both 16 bytes of plain bits with no padding, so the cast
    // reinterprets the value; byte order is fixed by the littleEndian conversions.
    let halves = unsafeBitCast(block, to: SIMD2<UInt64>.self)
    insert(low: UInt64(littleEndian: halves[0]), high: UInt64(littleEndian: halves[1]), slot: slot, into: &planes)
  }

  /// Lane `slot` as a block.
  @inline(__always)
  static func extractBlock(slot: Int, from planes: AESPlanes) -> SIMD16<UInt8> {
    let (low, high) = extract(slot: slot, from: planes)
    // SAFETY: same-size (16-byte) trivial SIMD types; the value is reinterpreted, not a pointer.
    return unsafeBitCast(SIMD2<UInt64>(low.littleEndian, high.littleEndian), to: SIMD16<UInt8>.self)
  }

  /// Planes holding `block` in all four slots.
  @inline(__always)
  static func broadcast(_ block: SIMD16<UInt8>) -> AESPlanes {
    // SAFETY: SIMD16<UInt8> and SIMD2<UInt64> are both 16 bytes of plain bits with no padding, so the cast
    // reinterprets the value; byte order is fixed by the littleEndian conversions.
    let halves = unsafeBitCast(block, to: SIMD2<UInt64>.self)
    var planes = AESPlanes()
    for slot in 0..<4 {
      insert(low: UInt64(littleEndian: halves[0]), high: UInt64(littleEndian: halves[1]), slot: slot, into: &planes)
    }
    return planes
  }
}
