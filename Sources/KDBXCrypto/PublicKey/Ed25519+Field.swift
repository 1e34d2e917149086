/// The prime p = 2^255 - 19 of Curve25519 (RFC 8032 §5.1, RFC 7748 §4.1).
@usableFromInline
enum Curve25519FieldModulus: MontgomeryModulus {
  @inline(__always) @usableFromInline
  static var modulus: Limbs256 {
    Limbs256(0xffff_ffff_ffff_ffed, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x7fff_ffff_ffff_ffff)
  }
  @inline(__always) @usableFromInline
  static var inverse: UInt64 { 0x86bc_a1af_286b_ca1b }
  @inline(__always) @usableFromInline
  static var rSquared: Limbs256 { Limbs256(0x5a4, 0, 0, 0) }
  @inline(__always) @usableFromInline
  static var one: Limbs256 { Limbs256(0x26, 0, 0, 0) }
}

extension Ed25519 {
  /// An element of GF(2^255 - 19), in Montgomery form.
  typealias FieldElement = Residue<Curve25519FieldModulus>
}

extension Residue where M == Curve25519FieldModulus {
  /// d = -121665/121666 (RFC 8032 §5.1), in Montgomery form.
  @inline(__always)
  static var curveD: Residue {
    Residue(
      montgomery: Limbs256(
        0x80ed_8bfe_df47_e9fa, 0x10a1_8777_afc6_2973, 0xe593_9207_bc18_8690, 0x2c82_2b5a_729f_c526))
  }

  /// 2d, in Montgomery form.
  @inline(__always)
  static var curveD2: Residue {
    Residue(
      montgomery: Limbs256(
        0x01db_17fd_be8f_d3f4, 0x2143_0eef_5f8c_52e7, 0xcb27_240f_7831_0d20, 0x5904_56b4_e53f_8a4d))
  }

  /// sqrt(-1) = 2^((p-1)/4) (RFC 8032 §5.1.3), in Montgomery form.
  @inline(__always)
  static var squareRootOfMinusOne: Residue {
    Residue(
      montgomery: Limbs256(
        0x3b58_07d4_fe2b_db04, 0x03f5_90fd_b51b_e9ed, 0x6d6e_16bf_3362_02d1, 0x7577_6b0b_d6c7_1ba8))
  }

  /// The x with v·x^2 = u, when one exists (RFC 8032 §5.1.3 step 2-3): x = u·v^3·(u·v^7)^((p-5)/8), times
  /// sqrt(-1) when v·x^2 = -u.
  static func squareRoot(ratio u: Residue, _ v: Residue) -> (root: Residue, exists: Bool) {
    let v3 = v.squared * v
    let v7 = v3.squared * v
    let exponent = Limbs256(0xffff_ffff_ffff_fffd, 0xffff_ffff_ffff_ffff, 0xffff_ffff_ffff_ffff, 0x0fff_ffff_ffff_ffff)
    var x = u * v3 * (u * v7).power(exponent)
    let check = v * x.squared
    let isRoot = check.equalMask(u)
    let isRootOfMinus = check.equalMask(u.negated)
    x = x.selecting(x * squareRootOfMinusOne, where: isRootOfMinus)
    return (x, (isRoot | isRootOfMinus) != 0)
  }
}
