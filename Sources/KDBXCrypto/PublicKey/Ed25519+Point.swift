/// A point of edwards25519, -x^2 + y^2 = 1 + d·x^2·y^2 (RFC 8032 §5.1), in extended coordinates (X:Y:Z:T) with
/// x = X/Z, y = Y/Z and x·y = T/Z (Hisil, Wong, Carter and Dawson, "Twisted Edwards curves revisited", 2008).
///
/// The addition formula is complete on this curve (d is not a square), so the same operations run for every
/// input, the neutral element and doubling included.
@usableFromInline
struct Ed25519Point: Sendable {
  typealias Field = Ed25519.FieldElement

  var x: Field
  var y: Field
  var z: Field
  var t: Field

  @inline(__always)
  init(x: Field, y: Field, z: Field, t: Field) {
    self.x = x
    self.y = y
    self.z = z
    self.t = t
  }

  /// The neutral element (0, 1).
  static var identity: Ed25519Point { Ed25519Point(x: .zero, y: .one, z: .one, t: .zero) }

  /// The base point B (RFC 8032 §5.1: y = 4/5, x even), in Montgomery form.
  static var base: Ed25519Point {
    Ed25519Point(
      x: Field(
        montgomery: Limbs256(
          0xe2ca_bc55_3f9d_a287, 0x9ca5_9856_2396_e489, 0x9879_936b_ade4_b5b7, 0x759e_2370_7e60_77d0)),
      y: Field(
        montgomery: Limbs256(
          0x3333_3333_3333_334a, 0x3333_3333_3333_3333, 0x3333_3333_3333_3333, 0x3333_3333_3333_3333)),
      z: .one,
      t: Field(
        montgomery: Limbs256(
          0x4f08_96aa_994a_e86c, 0xe3b7_ad11_b612_506e, 0x46c7_a922_f183_c492, 0x5e18_1c59_feb3_930d)))
  }

  /// P + Q (RFC 8032 §5.1.4, the unified formula for a = -1, "add-2008-hwcd-3").
  @inline(__always)
  static func + (p: Ed25519Point, q: Ed25519Point) -> Ed25519Point {
    let a = (p.y - p.x) * (q.y - q.x)
    let b = (p.y + p.x) * (q.y + q.x)
    let c = p.t * Field.curveD2 * q.t
    let d = (p.z * q.z).doubled
    let e = b - a
    let f = d - c
    let g = d + c
    let h = b + a
    return Ed25519Point(x: e * f, y: g * h, z: f * g, t: e * h)
  }

  /// 2P (RFC 8032 §5.1.4 doubling, "dbl-2008-hwcd").
  @inline(__always)
  var doubled: Ed25519Point {
    let a = x.squared
    let b = y.squared
    let c = z.squared.doubled
    let h = a + b
    let e = h - (x + y).squared
    let g = a - b
    let f = c + g
    return Ed25519Point(x: e * f, y: g * h, z: f * g, t: e * h)
  }

  var negated: Ed25519Point { Ed25519Point(x: x.negated, y: y, z: z, t: t.negated) }

  @inline(__always)
  func selecting(_ other: Ed25519Point, where mask: UInt64) -> Ed25519Point {
    Ed25519Point(
      x: x.selecting(other.x, where: mask), y: y.selecting(other.y, where: mask), z: z.selecting(other.z, where: mask),
      t: t.selecting(other.t, where: mask))
  }

  /// Reads `table[start + digit]` for a secret `digit` in 0..<16 by visiting all sixteen entries.
  @inline(__always)
  static func select(_ table: [Ed25519Point], start: Int, digit: UInt64) -> Ed25519Point {
    var result = Ed25519Point.identity
    for index in 0..<16 {
      let mask = secretSelectMask(UInt64(index), digit)
      result = result.selecting(table[start + index], where: mask)
    }
    return result
  }

  /// k·P in constant time (fixed 4-bit windows, full-table selection).
  func multiplied(by scalar: Limbs256) -> Ed25519Point {
    var table: [Ed25519Point] = [.identity, self]
    table.reserveCapacity(16)
    for index in 2..<16 { table.append(table[index - 1] + self) }
    var result = Ed25519Point.identity
    for window in (0..<64).reversed() {
      result = result.doubled.doubled.doubled.doubled
      result = result + Self.select(table, start: 0, digit: scalar.nibble(window))
    }
    return result
  }

  /// k·B in constant time from the table of j·16^i·B: 64 additions, no doublings.
  static func baseMultiple(_ scalar: Limbs256) -> Ed25519Point {
    let table = ed25519BaseTable
    var result = Ed25519Point.identity
    for window in 0..<64 {
      result = result + select(table, start: window * 16, digit: scalar.nibble(window))
    }
    return result
  }

  /// The 32-byte encoding (RFC 8032 §5.1.2): y little-endian, the top bit holding the parity of x.
  var encoded: [UInt8] {
    let inverse = z.inverse
    let ax = (x * inverse).value
    var bytes = (y * inverse).value.littleEndianBytes
    bytes[31] |= UInt8(truncatingIfNeeded: ax.w0 & 1) << 7
    return bytes
  }

  /// Decodes a point (RFC 8032 §5.1.3); `nil` when y >= p, when x^2 = (y^2-1)/(d·y^2+1) has no root, or when
  /// x = 0 with the sign bit set.
  init?(encoded bytes: [UInt8]) {
    guard bytes.count == 32 else { return nil }
    var yBytes = bytes
    let sign = UInt64(yBytes[31] >> 7)
    yBytes[31] &= 0x7f
    guard let yValue = Limbs256(littleEndian: yBytes[...]), yValue.lessThanMask(Curve25519FieldModulus.modulus) != 0
    else { return nil }
    let y = Field(reducing: yValue)
    let ySquared = y.squared
    let (root, exists) = Field.squareRoot(ratio: ySquared - .one, Field.curveD * ySquared + .one)
    guard exists else { return nil }
    let rootValue = root.value
    if rootValue.isZeroMask != 0, sign == 1 { return nil }
    let x = root.selecting(root.negated, where: 0 &- ((rootValue.w0 & 1) ^ sign))
    self.init(x: x, y: y, z: .one, t: x * y)
  }
}

/// j·16^i·B for i in 0..<64 and j in 0..<16, at index 16i + j; made once, on first use.
let ed25519BaseTable: [Ed25519Point] = {
  var table: [Ed25519Point] = []
  table.reserveCapacity(64 * 16)
  var base = Ed25519Point.base
  for _ in 0..<64 {
    var multiple = Ed25519Point.identity
    for _ in 0..<16 {
      table.append(multiple)
      multiple = multiple + base
    }
    base = multiple
  }
  return table
}()
