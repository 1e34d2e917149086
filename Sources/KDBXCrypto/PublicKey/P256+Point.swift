/// A point of P-256 in homogeneous projective coordinates (X:Y:Z), the affine point (X/Z, Y/Z); the point at
/// infinity is (0:1:0).
///
/// Addition uses the complete formulas of Renes, Costello and Batina, "Complete addition formulas for prime order
/// elliptic curves" (EUROCRYPT 2016, Algorithm 1 with a = -3): one sequence of field operations for every pair of
/// inputs, doubling and the point at infinity included, so no branch depends on the points.
@usableFromInline
struct P256Point: Sendable {
  typealias Field = P256.FieldElement

  var x: Field
  var y: Field
  var z: Field

  @inline(__always)
  init(x: Field, y: Field, z: Field) {
    self.x = x
    self.y = y
    self.z = z
  }

  /// The point at infinity.
  static var identity: P256Point { P256Point(x: .zero, y: .one, z: .zero) }

  /// The base point G (SP 800-186 §3.2.1.3), in Montgomery form.
  static var generator: P256Point {
    P256Point(
      x: Field(
        montgomery: Limbs256(
          0x79e7_30d4_18a9_143c, 0x75ba_95fc_5fed_b601, 0x79fb_732b_7762_2510, 0x1890_5f76_a537_55c6)),
      y: Field(
        montgomery: Limbs256(
          0xddf2_5357_ce95_560a, 0x8b4a_b8e4_ba19_e45c, 0xd2e8_8688_dd21_f325, 0x8571_ff18_2588_5d85)),
      z: .one)
  }

  /// P + Q by the complete formulas (Renes-Costello-Batina 2016, Algorithm 1, a = -3, 3b precomputed).
  @inline(__always)
  static func + (p: P256Point, q: P256Point) -> P256Point {
    let b3 = Field.curveB3
    var t0 = p.x * q.x
    var t1 = p.y * q.y
    var t2 = p.z * q.z
    var t3 = p.x + p.y
    var t4 = q.x + q.y
    t3 = t3 * t4
    t4 = t0 + t1
    t3 = t3 - t4
    t4 = p.x + p.z
    var t5 = q.x + q.z
    t4 = t4 * t5
    t5 = t0 + t2
    t4 = t4 - t5
    t5 = p.y + p.z
    var x3 = q.y + q.z
    t5 = t5 * x3
    x3 = t1 + t2
    t5 = t5 - x3
    var z3 = t4.tripled.negated  // a·t4
    x3 = b3 * t2
    z3 = x3 + z3
    x3 = t1 - z3
    z3 = t1 + z3
    var y3 = x3 * z3
    t1 = t0 + t0
    t1 = t1 + t0
    t2 = t2.tripled.negated  // a·t2
    t4 = b3 * t4
    t1 = t1 + t2
    t2 = t0 - t2
    t2 = t2.tripled.negated  // a·t2
    t4 = t4 + t2
    t0 = t1 * t4
    y3 = y3 + t0
    t0 = t5 * t4
    x3 = t3 * x3
    x3 = x3 - t0
    t0 = t3 * t1
    z3 = t5 * z3
    z3 = z3 + t0
    return P256Point(x: x3, y: y3, z: z3)
  }

  /// 2P by the exception-free doubling formula (Renes-Costello-Batina 2016, Algorithm 6, a = -3): valid for every
  /// input, the point at infinity included.
  @inline(__always)
  var doubled: P256Point {
    let b = Field.curveB
    var t0 = x.squared
    let t1 = y.squared
    var t2 = z.squared
    var t3 = x * y
    t3 = t3 + t3
    var z3 = x * z
    z3 = z3 + z3
    var y3 = b * t2
    y3 = y3 - z3
    var x3 = y3 + y3
    y3 = x3 + y3
    x3 = t1 - y3
    y3 = t1 + y3
    y3 = x3 * y3
    x3 = x3 * t3
    t3 = t2 + t2
    t2 = t2 + t3
    z3 = b * z3
    z3 = z3 - t2
    z3 = z3 - t0
    t3 = z3 + z3
    z3 = z3 + t3
    t3 = t0 + t0
    t0 = t3 + t0
    t0 = t0 - t2
    t0 = t0 * z3
    y3 = y3 + t0
    t0 = y * z
    t0 = t0 + t0
    z3 = t0 * z3
    x3 = x3 - z3
    z3 = t0 * t1
    z3 = z3 + z3
    z3 = z3 + z3
    return P256Point(x: x3, y: y3, z: z3)
  }

  /// -P.
  var negated: P256Point { P256Point(x: x, y: y.negated, z: z) }

  @inline(__always)
  func selecting(_ other: P256Point, where mask: UInt64) -> P256Point {
    P256Point(
      x: x.selecting(other.x, where: mask), y: y.selecting(other.y, where: mask), z: z.selecting(other.z, where: mask))
  }

  /// All ones when this is the point at infinity.
  var isIdentityMask: UInt64 { z.isZeroMask }

  /// The affine coordinates as plain integers below p, or `nil` for the point at infinity.
  var affine: (x: Limbs256, y: Limbs256)? {
    guard isIdentityMask == 0 else { return nil }
    let inverse = z.inverse
    return ((x * inverse).value, (y * inverse).value)
  }

  /// Reads `table[start + digit]` for a secret `digit` in 0..<16 by visiting all sixteen entries.
  @inline(__always)
  static func select(_ table: [P256Point], start: Int, digit: UInt64) -> P256Point {
    var result = P256Point.identity
    for index in 0..<16 {
      let mask = secretSelectMask(UInt64(index), digit)
      result = result.selecting(table[start + index], where: mask)
    }
    return result
  }

  /// k·P in constant time (fixed 4-bit windows, every table entry read for every window), for any k < 2^256.
  func multiplied(by scalar: Limbs256) -> P256Point {
    var table: [P256Point] = [.identity, self]
    table.reserveCapacity(16)
    for index in 2..<16 { table.append(table[index - 1] + self) }
    var result = P256Point.identity
    for window in (0..<64).reversed() {
      result = result.doubled.doubled.doubled.doubled
      result = result + Self.select(table, start: 0, digit: scalar.nibble(window))
    }
    return result
  }

  /// k·G in constant time from the precomputed table of j·16^i·G: 64 additions, no doublings.
  static func generatorMultiple(_ scalar: Limbs256) -> P256Point {
    let table = p256GeneratorTable
    var result = P256Point.identity
    for window in 0..<64 {
      result = result + select(table, start: window * 16, digit: scalar.nibble(window))
    }
    return result
  }

  /// a·G + b·P for public a and b (ECDSA verification, FIPS 186-5 §6.4.2): not constant time.
  static func verificationSum(_ a: Limbs256, _ b: Limbs256, _ point: P256Point) -> P256Point {
    let table = p256GeneratorTable
    var result = point.multiplied(by: b)
    for window in 0..<64 {
      let digit = Int(a.nibble(window))
      if digit != 0 { result = result + table[window * 16 + digit] }
    }
    return result
  }
}

/// j·16^i·G for i in 0..<64 and j in 0..<16, at index 16i + j; made once, on first use.
let p256GeneratorTable: [P256Point] = {
  var table: [P256Point] = []
  table.reserveCapacity(64 * 16)
  var base = P256Point.generator
  for _ in 0..<64 {
    var multiple = P256Point.identity
    for _ in 0..<16 {
      table.append(multiple)
      multiple = multiple + base
    }
    base = multiple  // 16·base
  }
  return table
}()

// MARK: - SEC 1 encoding

extension P256Point {
  /// Decodes a SEC 1 §2.3.4 point: 04 || X || Y (65 bytes) or 02/03 || X (33 bytes). Rejects the point at
  /// infinity (00), coordinates not below p, and points not on the curve; returns `nil` then.
  init?(sec1 bytes: ArraySlice<UInt8>) {
    guard let first = bytes.first else { return nil }
    let p = P256FieldModulus.modulus
    let body = bytes.dropFirst()
    switch (first, bytes.count) {
    case (0x04, 65):
      guard let x = Limbs256(bigEndian: body.prefix(32)), let y = Limbs256(bigEndian: body.dropFirst(32)),
        x.lessThanMask(p) != 0, y.lessThanMask(p) != 0
      else { return nil }
      let fx = Field(reducing: x)
      let fy = Field(reducing: y)
      guard fy.squared.equalMask(Self.curveRightSide(fx)) != 0 else { return nil }
      self.init(x: fx, y: fy, z: .one)
    case (0x02, 33), (0x03, 33):
      guard let x = Limbs256(bigEndian: body), x.lessThanMask(p) != 0 else { return nil }
      let fx = Field(reducing: x)
      let (root, exists) = Self.curveRightSide(fx).squareRoot
      guard exists else { return nil }
      let wantsOdd = UInt64(first & 1)
      let flip = 0 &- ((root.value.w0 & 1) ^ wantsOdd)
      self.init(x: fx, y: root.selecting(root.negated, where: flip), z: .one)
    default:
      return nil
    }
  }

  /// x^3 - 3x + b.
  static func curveRightSide(_ x: Field) -> Field {
    x.squared * x - x.tripled + Field.curveB
  }

  /// SEC 1 §2.3.3 encoding: 04 || X || Y, or 02/03 || X when `compressed`; `nil` for the point at infinity.
  func sec1(compressed: Bool) -> [UInt8]? {
    guard let (ax, ay) = affine else { return nil }
    if compressed { return [0x02 | UInt8(ay.w0 & 1)] + ax.bigEndianBytes }
    return [0x04] + ax.bigEndianBytes + ay.bigEndianBytes
  }
}
