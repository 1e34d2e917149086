/// NIST P-256 (secp256r1): the curve y^2 = x^3 - 3x + b over the prime field of
/// p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (NIST SP 800-186 §3.2.1.3, SEC 2 §2.4.2).
///
/// ``P256/Signing`` holds the ECDSA keys (FIPS 186-5 §6).
public enum P256 {}

/// The field prime p of P-256 (NIST SP 800-186 §3.2.1.3).
@usableFromInline
enum P256FieldModulus: MontgomeryModulus {
  @inline(__always) @usableFromInline
  static var modulus: Limbs256 {
    Limbs256(0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_ffff, 0x0000_0000_0000_0000, 0xffff_ffff_0000_0001)
  }
  @inline(__always) @usableFromInline
  static var inverse: UInt64 { 1 }
  @inline(__always) @usableFromInline
  static var rSquared: Limbs256 {
    Limbs256(0x0000_0000_0000_0003, 0xffff_fffb_ffff_ffff, 0xffff_ffff_ffff_fffe, 0x0000_0004_ffff_fffd)
  }
  @inline(__always) @usableFromInline
  static var one: Limbs256 {
    Limbs256(0x0000_0000_0000_0001, 0xffff_ffff_0000_0000, 0xffff_ffff_ffff_ffff, 0x0000_0000_ffff_fffe)
  }
}

extension P256 {
  /// An element of the field of P-256, in Montgomery form.
  typealias FieldElement = Residue<P256FieldModulus>
}

extension Residue where M == P256FieldModulus {
  /// The curve coefficient b times 3, in Montgomery form (for the complete formulas, Renes-Costello-Batina 2016).
  @inline(__always)
  static var curveB3: Residue {
    Residue(
      montgomery: Limbs256(
        0x89d6_9e26_7d4e_399f, 0x06d0_1166_698c_91b2, 0xb0e6_6203_e563_8c84, 0x9490_1259_0d95_d89c))
  }

  /// The curve coefficient b (SP 800-186 §3.2.1.3), in Montgomery form.
  @inline(__always)
  static var curveB: Residue {
    Residue(
      montgomery: Limbs256(
        0xd89c_df62_29c4_bddf, 0xacf0_05cd_7884_3090, 0xe5a2_20ab_f721_2ed6, 0xdc30_061d_0487_4834))
  }

  /// 3x, for the coefficient a = -3.
  @inline(__always)
  var tripled: Residue { self + self + self }

  /// A square root when one exists (p = 3 mod 4, so x^((p+1)/4)), and whether it does.
  var squareRoot: (root: Residue, exists: Bool) {
    let exponent = Limbs256(0x0000_0000_0000_0000, 0x0000_0000_4000_0000, 0x4000_0000_0000_0000, 0x3fff_ffff_c000_0000)
    let root = power(exponent)
    return (root, root.squared.equalMask(self) != 0)
  }
}
