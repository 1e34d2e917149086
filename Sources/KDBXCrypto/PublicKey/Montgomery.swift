/// A 256-bit unsigned integer as four 64-bit limbs, least significant first: the representation of every field
/// element and scalar of P-256 and Ed25519 in this module.
///
/// Nothing here branches on the value: comparisons return masks (all ones or all zeros) and selection is done with
/// them, so secret values can pass through (FIPS 186-5 §6.4.1 and RFC 8032 §5.1.6 keep the key and the nonce
/// secret).
@usableFromInline
struct Limbs256: Sendable {
  @usableFromInline var w0: UInt64
  @usableFromInline var w1: UInt64
  @usableFromInline var w2: UInt64
  @usableFromInline var w3: UInt64

  @inline(__always)
  init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
    self.w0 = w0
    self.w1 = w1
    self.w2 = w2
    self.w3 = w3
  }

  static var zero: Limbs256 { Limbs256(0, 0, 0, 0) }

  /// Reads 32 big-endian bytes (SEC 1 §2.3.8 Octet-String-to-Integer); `nil` unless `bytes` has exactly 32.
  init?(bigEndian bytes: ArraySlice<UInt8>) {
    guard bytes.count == 32 else { return nil }
    var words: [UInt64] = [0, 0, 0, 0]
    var index = bytes.startIndex
    for word in (0..<4).reversed() {
      var value: UInt64 = 0
      for _ in 0..<8 {
        value = value << 8 | UInt64(bytes[index])
        index += 1
      }
      words[word] = value
    }
    self.init(words[0], words[1], words[2], words[3])
  }

  /// Reads 32 little-endian bytes (RFC 8032 §5.1.2 and §5.1.5); `nil` unless `bytes` has exactly 32.
  init?(littleEndian bytes: ArraySlice<UInt8>) {
    guard bytes.count == 32 else { return nil }
    var words: [UInt64] = [0, 0, 0, 0]
    var index = bytes.startIndex
    for word in 0..<4 {
      var value: UInt64 = 0
      for shift in 0..<8 {
        value |= UInt64(bytes[index]) << UInt64(8 * shift)
        index += 1
      }
      words[word] = value
    }
    self.init(words[0], words[1], words[2], words[3])
  }

  /// The 32 big-endian bytes (SEC 1 §2.3.7 Integer-to-Octet-String).
  var bigEndianBytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for word in [w3, w2, w1, w0] {
      for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    return out
  }

  /// The 32 little-endian bytes (RFC 8032 §5.1.2).
  var littleEndianBytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(32)
    for word in [w0, w1, w2, w3] {
      for shift in stride(from: 0, through: 56, by: 8) { out.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
    }
    return out
  }

  /// The 4-bit window `index` (0 is the least significant). `index` is public; the value may be secret.
  @inline(__always)
  func nibble(_ index: Int) -> UInt64 {
    let word: UInt64
    switch index >> 4 {
    case 0: word = w0
    case 1: word = w1
    case 2: word = w2
    default: word = w3
    }
    return (word >> UInt64((index & 15) * 4)) & 0xf
  }

  /// All ones when the value is zero, else zero.
  @inline(__always)
  var isZeroMask: UInt64 {
    let any = w0 | w1 | w2 | w3
    // (any | -any) has its top bit set exactly when any != 0.
    return ((any | (0 &- any)) >> 63) &- 1
  }

  /// All ones when both values are equal, else zero.
  @inline(__always)
  func equalMask(_ other: Limbs256) -> UInt64 {
    Limbs256(w0 ^ other.w0, w1 ^ other.w1, w2 ^ other.w2, w3 ^ other.w3).isZeroMask
  }

  /// `other` where `mask` is all ones, `self` where it is zero.
  @inline(__always)
  func selecting(_ other: Limbs256, where mask: UInt64) -> Limbs256 {
    Limbs256(
      w0 ^ (mask & (w0 ^ other.w0)), w1 ^ (mask & (w1 ^ other.w1)), w2 ^ (mask & (w2 ^ other.w2)),
      w3 ^ (mask & (w3 ^ other.w3)))
  }

  /// `self - other` and the borrow out (0 or 1).
  @inline(__always)
  func subtracting(_ other: Limbs256) -> (value: Limbs256, borrow: UInt64) {
    let (d0, b0) = subtractWithBorrow(w0, other.w0, 0)
    let (d1, b1) = subtractWithBorrow(w1, other.w1, b0)
    let (d2, b2) = subtractWithBorrow(w2, other.w2, b1)
    let (d3, b3) = subtractWithBorrow(w3, other.w3, b2)
    return (Limbs256(d0, d1, d2, d3), b3)
  }

  /// `self + other` and the carry out (0 or 1).
  @inline(__always)
  func adding(_ other: Limbs256) -> (value: Limbs256, carry: UInt64) {
    let (s0, c0) = addWithCarry(w0, other.w0, 0)
    let (s1, c1) = addWithCarry(w1, other.w1, c0)
    let (s2, c2) = addWithCarry(w2, other.w2, c1)
    let (s3, c3) = addWithCarry(w3, other.w3, c2)
    return (Limbs256(s0, s1, s2, s3), c3)
  }

  /// All ones when `self < other`, else zero.
  @inline(__always)
  func lessThanMask(_ other: Limbs256) -> UInt64 { 0 &- subtracting(other).borrow }
}

// The carries and borrows below are computed with bitwise formulas (Hacker's Delight §2-13), never through a
// `Bool`: the optimizer turns `overflow ? 1 : 0` into `select`s, and the x86 back end may turn those into
// conditional branches, whose timing depends on the data (measured: `kdbx-bench ct-p256`).

/// All ones when `digit == index`, else zero, hidden from the optimizer.
///
/// Table lookups with a secret index visit every entry and keep one with this mask. Seen through, the optimizer
/// proves the mask is 0 or all ones and turns the masked select into a branch on `index == digit`, a branch on the
/// secret (found in `objdump` of kdbx-bench and by `kdbx-bench ct-p256`). `@inline(never)` and `@_optimize(none)`
/// keep this a real call whose result the caller cannot reason about, as `SecureBytes.zero` does for its stores.
@inline(never)
@_optimize(none)
func secretSelectMask(_ index: UInt64, _ digit: UInt64) -> UInt64 {
  let difference = index ^ digit
  return ((difference | (0 &- difference)) >> 63) &- 1
}

/// `mask` (0 or all ones), hidden from the optimizer the same way, for the conditional subtractions of the modular
/// arithmetic: seen through, LLVM's select optimization turns `a ^ (mask & (a ^ b))` inside the scalar
/// multiplication loops into a branch on a carry of secret values (found in `objdump` of kdbx-bench).
@inline(never)
@_optimize(none)
func hiddenMask(_ mask: UInt64) -> UInt64 { mask }

/// The carry out of `a + b = sum` (mod 2^64), as 0 or 1.
@inline(__always)
func carryBit(_ a: UInt64, _ b: UInt64, _ sum: UInt64) -> UInt64 {
  ((a & b) | ((a | b) & ~sum)) >> 63
}

/// The borrow out of `a - b = difference` (mod 2^64), as 0 or 1.
@inline(__always)
func borrowBit(_ a: UInt64, _ b: UInt64, _ difference: UInt64) -> UInt64 {
  ((~a & b) | ((~a | b) & difference)) >> 63
}

/// `a + b + carry` and the carry out; `carry` is 0 or 1.
@inline(__always)
func addWithCarry(_ a: UInt64, _ b: UInt64, _ carry: UInt64) -> (UInt64, UInt64) {
  // Wrapping additions: the carry out is recovered from the operands.
  let s0 = a &+ b
  let s1 = s0 &+ carry
  return (s1, carryBit(a, b, s0) | carryBit(s0, carry, s1))
}

/// `a - b - borrow` and the borrow out; `borrow` is 0 or 1.
@inline(__always)
func subtractWithBorrow(_ a: UInt64, _ b: UInt64, _ borrow: UInt64) -> (UInt64, UInt64) {
  // Wrapping subtractions: the borrow out is recovered from the operands.
  let d0 = a &- b
  let d1 = d0 &- borrow
  return (d1, borrowBit(a, b, d0) | borrowBit(d0, borrow, d1))
}

/// `a * b + c + d` as a high and a low word. It cannot overflow: (2^64-1)^2 + 2(2^64-1) = 2^128 - 1.
@inline(__always)
func multiplyAdd(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> (high: UInt64, low: UInt64) {
  let product = a.multipliedFullWidth(by: b)
  let (l0, o0) = product.low.addingReportingOverflow(c)
  let (l1, o1) = l0.addingReportingOverflow(d)
  // The high word cannot wrap (bound above), so `&+` is exact here. Each flag is added straight into a word, which
  // compiles to `adc` (checked: no branch in the Montgomery product, `objdump` of kdbx-bench).
  return (product.high &+ (o0 ? 1 : 0) &+ (o1 ? 1 : 0), l1)
}

/// An odd modulus below 2^256 for Montgomery arithmetic (Montgomery 1985; the CIOS method of Koç, Acar and Kaliski
/// 1996), with R = 2^256. Conforming types give the constants as literals so that the generic code specialises to
/// straight-line code for each modulus.
@usableFromInline
protocol MontgomeryModulus {
  /// The modulus m.
  static var modulus: Limbs256 { get }
  /// -m^-1 mod 2^64.
  static var inverse: UInt64 { get }
  /// R^2 mod m, which turns a plain value into Montgomery form in one multiplication.
  static var rSquared: Limbs256 { get }
  /// R mod m: 1 in Montgomery form.
  static var one: Limbs256 { get }
}

/// A residue modulo `M.modulus` in Montgomery form (value x stored as x·R mod m, fully reduced, below m).
///
/// Every operation runs in time independent of the values: no branch and no memory index depends on them.
@usableFromInline
struct Residue<M: MontgomeryModulus>: Sendable {
  @usableFromInline var limbs: Limbs256

  @inline(__always)
  init(montgomery limbs: Limbs256) { self.limbs = limbs }

  @inline(__always)
  static var zero: Residue { Residue(montgomery: .zero) }

  @inline(__always)
  static var one: Residue { Residue(montgomery: M.one) }

  /// The residue of the plain value `value`, which may be any 256-bit number (x·R^2·R^-1 = x·R; the product
  /// bound holds because R^2 mod m is below m).
  @inline(__always)
  init(reducing value: Limbs256) {
    self = Residue(montgomery: value) * Residue(montgomery: M.rSquared)
  }

  /// The plain value, below m.
  @inline(__always)
  var value: Limbs256 { (self * Residue(montgomery: Limbs256(1, 0, 0, 0))).limbs }

  /// One CIOS step: t = (t + a·b_i + q·m) / 2^64 with q chosen so that the division is exact.
  @inline(__always)
  static func row(
    _ a: Limbs256, _ bi: UInt64, _ t: (UInt64, UInt64, UInt64, UInt64, UInt64)
  ) -> (UInt64, UInt64, UInt64, UInt64, UInt64) {
    let m = M.modulus
    var c: UInt64
    var s0: UInt64
    var s1: UInt64
    var s2: UInt64
    var s3: UInt64
    (c, s0) = multiplyAdd(a.w0, bi, t.0, 0)
    (c, s1) = multiplyAdd(a.w1, bi, t.1, c)
    (c, s2) = multiplyAdd(a.w2, bi, t.2, c)
    (c, s3) = multiplyAdd(a.w3, bi, t.3, c)
    let (s4, c4) = addWithCarry(t.4, c, 0)
    // The quotient digit is defined modulo 2^64: wrapping multiplication is the algorithm.
    let q = s0 &* M.inverse
    (c, _) = multiplyAdd(q, m.w0, s0, 0)
    var r0: UInt64
    var r1: UInt64
    var r2: UInt64
    (c, r0) = multiplyAdd(q, m.w1, s1, c)
    (c, r1) = multiplyAdd(q, m.w2, s2, c)
    (c, r2) = multiplyAdd(q, m.w3, s3, c)
    let (r3, c5) = addWithCarry(s4, c, 0)
    // t stays below 2m + 2^256 < 2^257, so the top word is 0 or 1 and the sum cannot wrap.
    return (r0, r1, r2, r3, c4 &+ c5)
  }

  /// Montgomery product a·b·R^-1 mod m. One operand may be any 256-bit value when the other is below m.
  @inline(__always)
  static func * (lhs: Residue, rhs: Residue) -> Residue {
    let a = lhs.limbs
    let b = rhs.limbs
    var t = row(a, b.w0, (0, 0, 0, 0, 0))
    t = row(a, b.w1, t)
    t = row(a, b.w2, t)
    t = row(a, b.w3, t)
    // t < 2m: subtract m once when t >= m.
    let value = Limbs256(t.0, t.1, t.2, t.3)
    let (reduced, borrow) = value.subtracting(M.modulus)
    let keepReduced = hiddenMask(0 &- (t.4 | (borrow ^ 1)))
    return Residue(montgomery: value.selecting(reduced, where: keepReduced))
  }

  @inline(__always)
  static func + (lhs: Residue, rhs: Residue) -> Residue {
    let (sum, carry) = lhs.limbs.adding(rhs.limbs)
    let (reduced, borrow) = sum.subtracting(M.modulus)
    let keepReduced = hiddenMask(0 &- (carry | (borrow ^ 1)))
    return Residue(montgomery: sum.selecting(reduced, where: keepReduced))
  }

  @inline(__always)
  static func - (lhs: Residue, rhs: Residue) -> Residue {
    let (difference, borrow) = lhs.limbs.subtracting(rhs.limbs)
    let m = M.modulus
    let mask = hiddenMask(0 &- borrow)
    let correction = Limbs256(m.w0 & mask, m.w1 & mask, m.w2 & mask, m.w3 & mask)
    return Residue(montgomery: difference.adding(correction).value)
  }

  @inline(__always)
  var squared: Residue { self * self }

  @inline(__always)
  var doubled: Residue { self + self }

  @inline(__always)
  var negated: Residue { Residue.zero - self }

  /// All ones when the residue is zero.
  @inline(__always)
  var isZeroMask: UInt64 { limbs.isZeroMask }

  /// All ones when both residues are equal.
  @inline(__always)
  func equalMask(_ other: Residue) -> UInt64 { limbs.equalMask(other.limbs) }

  @inline(__always)
  func selecting(_ other: Residue, where mask: UInt64) -> Residue {
    Residue(montgomery: limbs.selecting(other.limbs, where: mask))
  }

  /// `self` raised to the public exponent `exponent`, with 4-bit fixed windows. The sequence of operations depends
  /// only on the exponent (a public constant at every call site), and the window table is read at indices taken
  /// from the exponent, so a secret base is safe.
  func power(_ exponent: Limbs256) -> Residue {
    var table: [Residue] = [.one, self]
    table.reserveCapacity(16)
    for index in 2..<16 { table.append(table[index - 1] * self) }
    var result = Residue.one
    for window in (0..<64).reversed() {
      result = result.squared.squared.squared.squared
      result = result * table[Int(exponent.nibble(window))]
    }
    return result
  }

  /// The multiplicative inverse by Fermat's little theorem (x^(m-2)); zero maps to zero. Valid for a prime m.
  var inverse: Residue {
    power(M.modulus.subtracting(Limbs256(2, 0, 0, 0)).value)
  }
}
